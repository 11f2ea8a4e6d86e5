package mnk

import (
	"context"

	"github.com/evotune/evotune/fitness"
)

// The games and moves of the tests that never cancel one.

// play is playContext without a context that could be cancelled.
func (gm *Game) play(a, b fitness.Player, seed uint64, record bool) (fitness.Outcome, []int) {
	out, moves, err := gm.playContext(context.Background(), a, b, seed, record)
	if err != nil {
		panic(err) // only a cancelled context fails a game
	}
	return out, moves
}

func (s *searcher) move(p *position) int { return mustNext(s, p) }

func mustNext(m mover, p *position) int {
	c, err := m.next(context.Background(), p)
	if err != nil {
		panic(err)
	}
	return c
}
