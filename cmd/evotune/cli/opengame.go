package cli

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
)

// openGame builds the game that eval and sprt (command) play: GAME from
// the catalog or --command's program, with its --rule options and those
// the player files of specs were tuned under (fileRules), and the solo
// games' opponent that --opponent (or --placer) names, nil for the
// game's default. A game that reads its solo opponent from a rule is
// built with that rule set instead, so its head-to-head deals use the
// named opponent too. closeGame releases the game (an outside program's
// processes).
func openGame(ctx context.Context, e *env, command, name string, program *programFlags, rules kvFlag, opponent, placer string, specs []string) (g fitness.Game, soloOpponent fitness.Player, closeGame func(), err error) {
	info, err := program.lookup(ctx, e, name)
	if err != nil {
		return nil, nil, nil, err
	}
	if program.book != "" {
		if _, ok := rules["book"]; ok {
			return nil, nil, nil, usagef("--book and --rule book= name the same file: give one")
		}
		rules = maps.Clone(rules)
		rules["book"] = program.book
	}
	if g, err = info.New(rules); err != nil {
		return nil, nil, nil, asUsage(err)
	}
	solo, _ := fitness.SoloOf(g)
	spec, err := soloOpponentSpec(info.Name, solo, opponent, placer)
	if err != nil {
		fitness.Close(g)
		return nil, nil, nil, err
	}
	flag := "--opponent"
	if placer != "" {
		flag = "--placer"
	}
	fileSettings(e, command, specs)
	if played := fileRules(e, command, info.Name, specs, rules, solo.OpponentRule, flag, spec); !maps.Equal(played, rules) {
		fitness.Close(g)
		rules = played
		if g, err = info.New(rules); err != nil {
			return nil, nil, nil, asUsage(err)
		}
	}
	if spec != "" && solo.OpponentRule != "" {
		fitness.Close(g)
		rules = maps.Clone(rules) // the flags' own stay as given
		rules[solo.OpponentRule] = spec
		if g, err = info.New(rules); err != nil {
			return nil, nil, nil, asUsage(err)
		}
		spec = ""
	}
	closeEngines := func() {}
	if program.engines != "" {
		hosted, closed, err := engine.HostEngines(g, program.engines)
		if err != nil {
			fitness.Close(g)
			return nil, nil, nil, asUsage(err)
		}
		g, closeEngines = hosted, closed
	}
	if spec != "" {
		if soloOpponent, err = fitness.ParseSpec(g, solo.Opponent, spec); err != nil {
			closeEngines()
			fitness.Close(g)
			return nil, nil, nil, asUsage(err)
		}
	}
	return g, soloOpponent, func() { closeEngines(); fitness.Close(g) }, nil
}

// fileRules returns the rule options to play: the command line's, and
// those that the player files of specs (exports, which record the rules
// their run was tuned under) add where the command line names none, each
// said on e's stderr: a blockhalf shooter evaluated without its placer
// would be measured on a game it was not tuned for. Where the command
// line (or an earlier file) gives a rule otherwise, it stands, with a
// warning naming the difference. opponentRule is the game's rule that
// names its solo opponent, which the command line gives as flag
// (--opponent or --placer) = opponent. A rule naming a file relative to
// its run's config is not applied (it would be read from elsewhere), only
// named.
func fileRules(e *env, command, game string, specs []string, rules kvFlag, opponentRule, flag, opponent string) kvFlag {
	played := maps.Clone(rules)
	from := map[string]string{} // which spec's file set each rule
	for _, spec := range specs {
		g, tuned := fitness.SpecRules(spec)
		if g != game || len(tuned) == 0 {
			continue
		}
		var applied []string
		for _, k := range slices.Sorted(maps.Keys(tuned)) {
			v := tuned[k]
			given, says := rules[k], "--rule "+k+"="+rules[k]
			if k == opponentRule && opponent != "" {
				given, says = opponent, flag+" "+opponent
			}
			switch {
			case given != "" && given != v:
				fmt.Fprintf(e.stderr, "evotune %s: warning: %s was tuned with --rule %s=%s; playing %s as the command line says\n",
					command, escape(spec), escape(k), escape(v), escape(says))
			case given != "":
			case from[k] != "" && played[k] != v:
				fmt.Fprintf(e.stderr, "evotune %s: warning: %s was tuned with --rule %s=%s; playing %s=%s, as %s was\n",
					command, escape(spec), escape(k), escape(v), escape(k), escape(played[k]), escape(from[k]))
			case from[k] != "":
			case namesRelativeFile(v):
				fmt.Fprintf(e.stderr, "evotune %s: warning: %s was tuned with --rule %s=%s, a file beside its run's config: give that --rule to play it\n",
					command, escape(spec), escape(k), escape(v))
			default:
				played[k], from[k] = v, spec
				applied = append(applied, "--rule "+k+"="+v)
			}
		}
		if len(applied) > 0 {
			fmt.Fprintf(e.stderr, "evotune %s: playing %s, as %s was tuned (its rules:)\n",
				command, escape(strings.Join(applied, " ")), escape(spec))
		}
	}
	return played
}

// fileSettings says, on e's stderr, the settings each NAME:FILE spec's
// player plays with that its file applies (an export's settings:, those
// it was tuned with), and where the spec's own settings override them:
// nothing on the command line names them otherwise.
func fileSettings(e *env, command string, specs []string) {
	for _, spec := range specs {
		tuned := fitness.SpecSettings(spec)
		sp, err := fitness.SplitSpec(spec)
		if len(tuned) == 0 || err != nil {
			continue // no settings, or a spec ParseSpec refuses with its reason
		}
		var from, over, file []string
		for _, k := range slices.Sorted(maps.Keys(tuned)) {
			if given, ok := sp.Settings[k]; ok && given != tuned[k] {
				over, file = append(over, k+"="+given), append(file, k+"="+tuned[k])
				continue
			}
			from = append(from, k+"="+tuned[k])
		}
		if len(from) > 0 {
			fmt.Fprintf(e.stderr, "evotune %s: %s plays with %s, from its file's settings:\n", command, escape(spec), escape(strings.Join(from, ", ")))
		}
		if len(over) > 0 {
			fmt.Fprintf(e.stderr, "evotune %s: %s plays with %s, as the spec says, where its file's settings: say %s\n",
				command, escape(spec), escape(strings.Join(over, ", ")), escape(strings.Join(file, ", ")))
		}
	}
}

// namesRelativeFile reports whether a rule value is a player spec whose
// file is a relative path (tuned:rivals-best.yaml).
func namesRelativeFile(v string) bool {
	_, file, ok := fitness.CutFile(v)
	return ok && file != "" && !filepath.IsAbs(file)
}

// placerRole is the role --placer names: the flag predates --opponent and
// stays for the games whose solo opponents are placers.
const placerRole fitness.Role = "placer"

// soloOpponentSpec returns the SPEC of --opponent (or --placer, its name
// for games whose solo opponents are placers), "" when neither is given.
func soloOpponentSpec(game string, solo fitness.Solo, opponent, placer string) (string, error) {
	spec, flag := opponent, "--opponent"
	switch {
	case placer != "" && opponent != "":
		return "", usagef("--placer and --opponent name the same player: give one")
	case placer != "":
		spec, flag = placer, "--placer"
		if solo.Opponent != placerRole {
			return "", usagef("--placer: %s has no placers; see 'evotune games %s'", game, game)
		}
	}
	if spec != "" && solo.Opponent == "" {
		return "", usagef("%s: %s has no solo opponent; see 'evotune games %s'", flag, game, game)
	}
	return spec, nil
}

// escape writes text from a file or a flag for a message: as it is, or
// quoted with its control characters escaped when it has any.
func escape(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strconv.QuoteToGraphic(s)
}
