package mnk

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
