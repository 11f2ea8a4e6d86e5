package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

func init() { addCommand(newReplayCmd) }

// replayOptions are the flags and argument of evotune replay.
type replayOptions struct {
	e    *env
	file string
	game int
	run  string
}

func newReplayCmd(e *env) *cobra.Command {
	o := &replayOptions{e: e}
	cmd := &cobra.Command{
		Use:   "replay RUN_DIR/games-NNNN.pgn [--game N]",
		Short: "Play a kept game again, and say whether it replays",
		Long: `Play again a game a run kept (games-NNNN.pgn: the games a fault decided and
the record: share of the rest), with the run's engines (the builds it played),
the players' options and limits from the game's WhitePlays and BlackPlays
tags, and the game's seed (its opening): a crash, a stall or an illegal move
comes back where it happened. Prints the game as played now and says whether it is the kept one,
byte for byte. At a fixed node count or depth, one thread, an engine replays
exactly; under a clock it cannot.`,
		Example: `  evotune replay runs/tune/games-0003.pgn            # its first game
  evotune replay runs/tune/games-0003.pgn --game 4`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("want exactly one PGN file of a run, got %d arguments; usage: evotune replay RUN_DIR/games-NNNN.pgn [--game N]", len(args))
			}
			o.file = args[0]
			if o.game < 1 {
				return usagef("--game %d: want a game's number in the file, from 1", o.game)
			}
			if o.run == "" {
				o.run = filepath.Dir(o.file)
			}
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error {
				return o.replay(ctx)
			})
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.game, "game", 1, "the game's number `N` in the file, from 1")
	fs.StringVar(&o.run, "run", "", "the run `DIR` whose engines play it (default: the file's directory)")
	return cmd
}

// keptGame is one game of a records file: its text and tags.
type keptGame struct {
	text string
	tags map[string]string
}

var pgnTag = regexp.MustCompile(`(?m)^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$`)

// keptGames splits a records file into its games.
func keptGames(data string) []keptGame {
	var out []keptGame
	for _, g := range strings.Split(data, "[Event ")[1:] {
		text := strings.TrimSpace("[Event " + g)
		tags := map[string]string{}
		for _, m := range pgnTag.FindAllStringSubmatch(text, -1) {
			tags[m[1]] = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
		}
		out = append(out, keptGame{text: text, tags: tags})
	}
	return out
}

func (o *replayOptions) replay(ctx context.Context) error {
	data, err := fileio.ReadFile(o.file, fileio.MaxConfig*64)
	if err != nil {
		return usagef("replay: %v", err)
	}
	games := keptGames(string(data))
	if o.game > len(games) {
		return usagef("replay: %s holds %d games; --game %d is not one of them", o.file, len(games), o.game)
	}
	kept := games[o.game-1]
	seed, err := strconv.ParseUint(kept.tags["Seed"], 10, 64)
	if err != nil {
		return usagef("replay: %s game %d: no Seed tag evotune wrote (%q): not a game a run kept", o.file, o.game, kept.tags["Seed"])
	}
	_, s, err := engine.ReadRunToPlay(o.run)
	if err != nil {
		return asUsage(err)
	}
	defer s.Close()
	g := s.Game()
	ref, ok := g.(fitness.Referee)
	if !ok {
		return usagef("replay: %s does not keep records: its games are not refereed", g.Name())
	}
	var players [2]fitness.Player
	for i, side := range []string{"White", "Black"} {
		if players[i], err = keptPlayer(g, kept.tags[side], kept.tags[side+"Plays"]); err != nil {
			return usagef("replay: %s game %d, %s (%s): %v", o.file, o.game, strings.ToLower(side), kept.tags[side], err)
		}
	}
	r, err := ref.PlayRefereed(ctx, players[0], players[1], seed, true)
	if err != nil {
		return err
	}
	w := o.e.stdout
	fmt.Fprintln(w, r.Record)
	if strings.TrimSpace(r.Record) == kept.text {
		fmt.Fprintf(w, "replayed: the same game as game %d of %s, byte for byte\n", o.game, o.file)
		return nil
	}
	fmt.Fprintf(w, "not replayed: the game differs from game %d of %s", o.game, o.file)
	if at := firstDifference(strings.TrimSpace(r.Record), kept.text); at != "" {
		fmt.Fprintf(w, " (first at: %s)", at)
	}
	fmt.Fprintln(w)
	return exitStatus(ExitFailure)
}

// keptPlayer builds the player name as a record's Plays tag says it
// played: its knobs' values, and its settings (an engine's limit); the
// tag's other names (fixed options) are the run's config's.
func keptPlayer(g fitness.Game, name, plays string) (fitness.Player, error) {
	role := g.Roles()[0]
	info, ok := fitness.Info(g, role, name)
	if !ok {
		return nil, fmt.Errorf("the run has no player %q", name)
	}
	var knobs yaml.Node
	knobs.Kind = yaml.MappingNode
	settings := fitness.Settings{}
	for _, kv := range strings.Split(plays, ", ") {
		k, v, found := strings.Cut(kv, "=")
		if !found {
			continue
		}
		switch {
		case knob(info, k):
			knobs.Content = append(knobs.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &yaml.Node{Kind: yaml.ScalarNode, Value: v})
		case hasSetting(info, k):
			settings[k] = v
		}
	}
	vals := info.Schema.Defaults()
	if len(knobs.Content) > 0 {
		var err error
		if vals, err = info.Schema.ParseValues(&knobs); err != nil {
			return nil, err
		}
	}
	return fitness.NewPlayerWith(g, role, name, vals, settings)
}

func knob(info fitness.PlayerInfo, k string) bool {
	_, ok := info.Schema.Lookup(k)
	return ok
}

func hasSetting(info fitness.PlayerInfo, k string) bool {
	for _, s := range info.Settings {
		if s.Name == k {
			return true
		}
	}
	return false
}

// firstDifference is the first line of got that is not want's, quoted.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return strconv.Quote(g[i]) + " where the kept game has " + strconv.Quote(w[i])
		}
	}
	return ""
}
