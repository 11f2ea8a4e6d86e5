// Package playtest plays single games for tests and benchmarks whose
// players the game built itself, so a game cannot fail: a failure is a
// bug in the game, and MustPlay and MustSolo panic on it.
package playtest

import (
	"context"

	"github.com/evotune/evotune/fitness"
)

// MustPlay plays one head-to-head game of g between a and b.
func MustPlay(g fitness.Game, a, b fitness.Player, seed uint64) fitness.Outcome {
	o, err := g.Play(context.Background(), a, b, seed)
	if err != nil {
		panic(err)
	}
	return o
}

// MustSolo plays one solo game of g: p of the game's first role against
// opp.
func MustSolo(g fitness.SoloGame, p, opp fitness.Player, seed uint64) float64 {
	cost, err := g.PlaySolo(context.Background(), p, opp, seed)
	if err != nil {
		panic(err)
	}
	return cost
}
