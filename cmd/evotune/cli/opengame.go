package cli

import (
	"context"
	"maps"

	"github.com/evotune/evotune/fitness"
)

// openGame builds the game that eval and sprt play: GAME from the
// catalog or --command's program, with its --rule options, and the solo
// games' opponent that --opponent (or --placer) names, nil for the
// game's default. A game that reads its solo opponent from a rule is
// built with that rule set instead, so its head-to-head deals use the
// named opponent too. closeGame releases the game (an outside program's
// processes).
func openGame(ctx context.Context, e *env, name string, program *programFlags, rules kvFlag, opponent, placer string) (g fitness.Game, soloOpponent fitness.Player, closeGame func(), err error) {
	info, err := program.lookup(ctx, e, name)
	if err != nil {
		return nil, nil, nil, err
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
	if spec != "" && solo.OpponentRule != "" {
		fitness.Close(g)
		rules = maps.Clone(rules) // the flags' own stay as given
		rules[solo.OpponentRule] = spec
		if g, err = info.New(rules); err != nil {
			return nil, nil, nil, asUsage(err)
		}
		spec = ""
	}
	if spec != "" {
		if soloOpponent, err = fitness.ParseSpec(g, solo.Opponent, spec); err != nil {
			fitness.Close(g)
			return nil, nil, nil, asUsage(err)
		}
	}
	return g, soloOpponent, func() { fitness.Close(g) }, nil
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
