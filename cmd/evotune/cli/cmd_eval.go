package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/rundir"
	"github.com/spf13/cobra"
)

// maxEvalGames bounds eval --games: every game's result is kept until the
// report (medians need them), 8 bytes each per player.
const maxEvalGames = 10_000_000

func init() { addCommand(newEvalCmd) }

// evalOptions are the flags and argument of evotune eval.
type evalOptions struct {
	e        *env
	game     string
	player   []string
	vs       []string
	opponent string
	placer   string // the old name of --opponent, for games whose opponents are placers
	rules    kvFlag
	games    int
	seed     uint64
	workers  int
	json     bool
	program  programFlags
	series   int
	svg      string
	prof     profiles
}

func newEvalCmd(e *env) *cobra.Command {
	o := &evalOptions{e: e, rules: kvFlag{}}
	cmd := &cobra.Command{
		Use:   "eval GAME --player SPEC [--vs SPEC ...]",
		Short: "Play games and report figures with 95% intervals",
		Long: `Play games and report, per player, its solo figures (Battleship: shots to sink a
fleet; lower is better) and, per pairing with a --vs opponent, wins, draws,
losses, score, Elo and normalized Elo (higher is better), all with 95%
intervals. Solo games share their deals across players, so every two players
also get the paired difference of their means; head-to-head games are played in
seat-swapped pairs on the same deal, and their intervals come from the variance
of the pairs (docs/statistics.md). Results do not depend on --workers. Ctrl-C or
SIGTERM stops the games at once (exit 130).`,
		Example: `  evotune eval battleship --player over9000 --player tuned:best.yaml --games 20000
  evotune eval hadron --player tuned:best.yaml --vs aenigma --rule size=7
  evotune eval mnk --rule m=7 --rule n=6 --rule k=4 --rule gravity=true --player classic --vs random
  evotune eval battleship --player learner --series 50 --games 5000 --svg curves.svg`,
		ValidArgsFunction: completeGame,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.game, err = oneGame(args, &o.program); err != nil {
				return err
			}
			if err := o.check(); err != nil {
				return err
			}
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error {
				return o.prof.profiled(func() error { return o.run(ctx) })
			})
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&o.player, "player", nil, "player `SPEC` to evaluate (repeatable): a registered name, NAME@KEY=VALUE,... with\nits own settings (see 'evotune games GAME'), or NAME:FILE")
	fs.StringArrayVar(&o.vs, "vs", nil, "opponent `SPEC` met head to head by every player (repeatable)")
	fs.StringVar(&o.opponent, "opponent", "", "`SPEC` of the solo games' opponent (Battleship: the placer laying the fleets;\ndefault: the game's, see 'evotune games GAME')")
	fs.StringVar(&o.placer, "placer", "", "`SPEC`: --opponent, for games whose solo opponents are placers (Battleship)")
	addRuleFlag(fs, o.rules)
	fs.IntVar(&o.games, "games", 1000, "games per player and per pairing (even when there are --vs opponents:\nhead-to-head games come in seat-swapped pairs)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed every game's randomness is derived from")
	fs.IntVar(&o.workers, "workers", 0, "games played at once (0: all cores)")
	fs.BoolVar(&o.json, "json", false, "print one JSON document instead of tables")
	o.program.add(cmd)
	fs.IntVar(&o.series, "series", 0, "play series of `N` games against one opponent, in order, so that a learning\nplayer (battleship: learner) carries memory through each; report shots by game\nof the series (--games is then the total, a multiple of N)")
	fs.StringVar(&o.svg, "svg", "", "with --series: write the learning curves to `FILE` (SVG)")
	o.prof.addFlags(fs)
	completePlayerFlags(cmd, &o.program)
	return cmd
}

// check checks every flag once parsed, changing nothing.
func (o *evalOptions) check() error {
	if err := o.checkSVG(); err != nil {
		return err
	}
	switch {
	case len(o.player) == 0:
		return usagef("--player is required")
	case o.games < 1:
		return usagef("--games must be at least 1, got %d", o.games)
	case o.games > maxEvalGames:
		return usagef("--games %d: more than the limit of %d", o.games, maxEvalGames)
	case o.workers < 0 || o.workers > config.MaxWorkers:
		return usagef("--workers %d: want 0 (all cores) to %d", o.workers, config.MaxWorkers)
	case len(o.vs) > 0 && o.games%2 != 0:
		return usagef("--games %d: want an even number, head-to-head games are played in seat-swapped pairs", o.games)
	case o.series < 0:
		return usagef("--series %d: want 0 (no series) or a series length", o.series)
	case o.series > 0 && (len(o.vs) > 0 || o.games%o.series != 0):
		return usagef("--series %d: want --games a multiple of it and no --vs opponents", o.series)
	case o.svg != "" && o.series == 0:
		return usagef("--svg draws series: give --series N")
	}
	return nil
}

// workersOf is a --workers flag's number of games at once: 0 means all
// cores.
func workersOf(n int) int {
	if n == 0 {
		return runtime.NumCPU()
	}
	return n
}

func (o *evalOptions) run(ctx context.Context) error {
	e := o.e
	g, opponent, closeGame, err := openGame(ctx, e, "eval", o.game, &o.program, o.rules, o.opponent, o.placer, append(slices.Clone(o.player), o.vs...))
	if err != nil {
		return err
	}
	defer closeGame()
	_, hasSolo := fitness.SoloOf(g)
	if o.series > 0 {
		return o.runSeries(ctx, g)
	}
	if !hasSolo && len(o.vs) == 0 {
		return usagef("%s has no solo measure: name opponents with --vs", g.Name())
	}
	if len(o.vs) > 0 && !fitness.HasHeadToHead(g) {
		return usagef("%s has no head-to-head play: leave out --vs", g.Name())
	}
	req := fitness.EvalRequest{Game: g, Games: o.games, Seed: o.seed, Workers: workersOf(o.workers), SoloOpponent: opponent}
	for _, list := range []struct {
		specs []string
		into  *[]fitness.Contender
	}{{o.player, &req.Players}, {o.vs, &req.Opponents}} {
		for _, spec := range list.specs {
			p, err := fitness.ParseSpec(g, g.Roles()[0], spec)
			if err != nil {
				return asUsage(err)
			}
			*list.into = append(*list.into, fitness.Contender{Label: spec, Player: p})
		}
	}
	update, finish := newProgress(e, req.Total(), "eval "+g.Name())
	req.Progress = update
	rep, err := fitness.Evaluate(ctx, req)
	finish()
	if err != nil {
		return err
	}
	return o.report(e, rep, func(w io.Writer) { writeEvalText(w, rep) })
}

// checkSVG refuses, before any game is played, an --svg path that the
// final rename would fail on or destroy, and one that a profile flag
// names too.
func (o *evalOptions) checkSVG() error {
	if o.svg == "" {
		return nil
	}
	if err := checkOutput("--svg", o.svg, svgOutput); err != nil {
		return err
	}
	return checkDistinct(outputFlag{"--svg", o.svg}, outputFlag{"--cpuprofile", o.prof.cpu}, outputFlag{"--memprofile", o.prof.mem})
}

// report prints rep as indented JSON with --json, else as text.
func (o *evalOptions) report(e *env, rep any, text func(io.Writer)) error {
	if o.json {
		return writeJSON(e.stdout, rep)
	}
	text(e.stdout)
	return nil
}

func writeEvalText(w io.Writer, rep fitness.EvalReport) {
	fmt.Fprintf(w, "%s: %s per player and pairing, seed %d\n", rep.Game, english.Count(rep.Games, "game"), rep.Seed)
	if len(rep.Players) > 0 {
		measure := rep.Players[0].Measure
		width := labelWidth(rep)
		fmt.Fprintf(w, "\n%-*s  %8s  %-17s  %6s  %6s  %7s   (lower is better)\n", width, "player", "mean "+measure, "95% CI", "median", "sd", "games")
		for _, p := range rep.Players {
			s := p.Solo
			fmt.Fprintf(w, "%-*s  %8.3f  [%6.3f, %6.3f]  %6.1f  %6.3f  %7d\n",
				width, p.Name, s.Mean, s.CI95[0], s.CI95[1], s.Median, s.SD, s.N)
		}
	}
	if len(rep.Differences) > 0 {
		fmt.Fprintf(w, "\npaired differences of mean %s on the same deals, 95%% CI (below 0: the first needs fewer):\n", rep.Differences[0].Measure)
		for _, d := range rep.Differences {
			fmt.Fprintf(w, "  %s - %s = %+.3f [%+.3f, %+.3f] %s\n", d.A, d.B, d.Difference.Value, d.Difference.CI95[0], d.Difference.CI95[1], d.Measure)
		}
	}
	if len(rep.Matches) > 0 {
		fmt.Fprintln(w)
		for _, m := range rep.Matches {
			writeMatchText(w, m)
		}
	}
}

// writeMatchText is a pairing's figures: the tally, then the pentanomial
// figures (higher is better for the first named).
func writeMatchText(w io.Writer, m fitness.MatchReport) {
	fmt.Fprintf(w, "%s vs %s: %s in %s: %s, %s, %s\n",
		m.A, m.B, english.Count(m.Games, "game"), english.Count(m.Pairs.Pairs(), "seat-swapped pair"),
		english.Count(m.Wins, "win"), english.Count(m.Draws, "draw"), english.Count(m.Losses, "loss"))
	fmt.Fprintf(w, "  score %.4f [%.4f, %.4f] (higher is better), Elo %s, normalized Elo %s\n",
		m.Score, m.CI95[0], m.CI95[1], formatElo(m.Elo), formatElo(m.NormalizedElo))
	fmt.Fprintf(w, "  pairs scoring 0, 1/2, 1, 3/2, 2: %v\n", m.Pairs)
}

// formatElo is an Elo figure with its interval.
func formatElo(e stats.Estimate) string {
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", e.Value, e.CI95[0], e.CI95[1])
}

func labelWidth(rep fitness.EvalReport) int {
	w := len("player")
	for _, p := range rep.Players {
		w = max(w, len(p.Name))
	}
	return w
}

// runSeries is eval --series: learning curves.
func (o *evalOptions) runSeries(ctx context.Context, g fitness.Game) error {
	e := o.e
	sg, ok := g.(fitness.SeriesGame)
	if !ok {
		return usagef("--series: %s has no series of solo games", g.Name())
	}
	req := fitness.SeriesRequest{Game: sg, Series: o.games / o.series, Length: o.series, Seed: o.seed, Workers: workersOf(o.workers)}
	for _, spec := range o.player {
		p, err := fitness.ParseSpec(g, g.Roles()[0], spec)
		if err != nil {
			return asUsage(err)
		}
		req.Players = append(req.Players, fitness.Contender{Label: spec, Player: p})
	}
	update, finish := newProgress(e, len(req.Players)*o.games, "eval "+g.Name())
	req.Progress = update
	rep, err := fitness.EvaluateSeries(ctx, req)
	finish()
	if err != nil {
		return err
	}
	if o.svg != "" {
		if err := rundir.WriteFile(o.svg, seriesSVG(rep)); err != nil {
			return err
		}
	}
	return o.report(e, rep, func(w io.Writer) { writeSeriesText(w, rep) })
}

func writeSeriesText(w io.Writer, rep fitness.SeriesReport) {
	fmt.Fprintf(w, "%s: %d series of %s per player, seed %d; mean %s by game of the series, 95%% CI\n\n",
		rep.Game, rep.Series, english.Count(rep.Length, "game"), rep.Seed, rep.Measure)
	widths := make([]int, len(rep.Players))
	for i, p := range rep.Players {
		widths[i] = max(len(p.Name), 25)
	}
	line := func(label string, cells []string) {
		var b strings.Builder
		fmt.Fprintf(&b, "%-9s", label)
		for i, c := range cells {
			fmt.Fprintf(&b, "  %-*s", widths[i], c)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	names := make([]string, len(rep.Players))
	for i, p := range rep.Players {
		names[i] = p.Name
	}
	line("games", names)
	row := func(label string, pick func(p fitness.SeriesPlayerReport) fitness.Summary) {
		cells := make([]string, len(rep.Players))
		for i, p := range rep.Players {
			s := pick(p)
			cells[i] = fmt.Sprintf("%.3f [%.3f, %.3f]", s.Mean, s.CI95[0], s.CI95[1])
		}
		line(label, cells)
	}
	row("all", func(p fitness.SeriesPlayerReport) fitness.Summary { return p.Overall })
	if len(rep.Players) == 0 {
		return
	}
	for k, b := range rep.Players[0].Blocks {
		label := fmt.Sprint(b.From)
		if b.To > b.From {
			label = fmt.Sprintf("%d-%d", b.From, b.To)
		}
		row(label, func(p fitness.SeriesPlayerReport) fitness.Summary { return p.Blocks[k].Summary })
	}
}
