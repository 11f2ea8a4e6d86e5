package catalog

import (
	"context"

	"github.com/evotune/evotune/fitness"
)

// mustPlay plays one head-to-head game of g for tests whose players are
// built by g, so the game cannot fail; a failure is a bug and panics.
func mustPlay(g fitness.Game, a, b fitness.Player, seed uint64) fitness.Outcome {
	o, err := g.Play(context.Background(), a, b, seed)
	if err != nil {
		panic(err)
	}
	return o
}

// mustSolo is mustPlay for solo games: p of the game's first role
// against opp.
func mustSolo(g fitness.SoloGame, p, opp fitness.Player, seed uint64) float64 {
	cost, err := g.PlaySolo(context.Background(), p, opp, seed)
	if err != nil {
		panic(err)
	}
	return cost
}
