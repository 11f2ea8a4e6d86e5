package mnk

import (
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestSeed003 replays the transcript of seed 003, the 3x3 drop-the-chip
// game (three in a row wins): its empty board offers three moves, one per
// column, which minimax rates (0 0 0), all draws, for the first player;
// the first of them drops the chip to cell 6 of the board #(0 0 0 0 0 0 1
// 0 0), the bottom-left corner; the opponent's three replies then rate
// (1 1 0) for the first player: win, win, draw, in column order.
func TestSeed003(t *testing.T) {
	r := Rules{M: 3, N: 3, K: 3, Gravity: true}
	gm := mustGame(t, r, Limits{})
	s := gm.newSolverMover(fitness.NewRand(1))
	defer s.release()
	var p position
	// ratings are the perfect player's exact values of the legal moves,
	// left column first, for the first player (the seed's AI), next to
	// plain minimax on the naive board.
	ratings := func(b *naive) (perfect, minimax []int) {
		t.Helper()
		legal := gm.g.moves(&p)
		if legal.Count() != r.M {
			t.Fatalf("%d legal moves, want one per column:\n%s", legal.Count(), gm.g.format(&p))
		}
		sign := 1
		if p.toMove() == O {
			sign = -1
		}
		for col := range r.M {
			var at []int
			for row := range r.N {
				if legal.Has(gm.g.bit(row, col)) {
					at = append(at, gm.g.bit(row, col))
				}
			}
			if len(at) != 1 {
				t.Fatalf("column %d has %d legal cells, want 1", col, len(at))
			}
			perfect = append(perfect, sign*int(s.moveValue(&p, at[0])))
		}
		for _, i := range b.moves() {
			over, won := b.set(i)
			v := 0
			switch {
			case won:
				v = 1
			case !over:
				v = -b.value()
			}
			b.unset(i)
			minimax = append(minimax, sign*v)
		}
		return perfect, minimax
	}
	b := newNaive(r)
	for _, step := range []struct {
		name  string
		board string // after the move, row 0 on top
		want  []int
	}{
		{"empty board", "...\n...\n...\n", []int{0, 0, 0}},
		{"first chip in the left column", "...\n...\nX..\n", []int{1, 1, 0}},
	} {
		if step.name != "empty board" {
			won := gm.g.play(&p, gm.g.bit(r.N-1, 0)) // the chip lands on the bottom row
			b.set((r.N-1)*r.M + 0)
			if won {
				t.Fatal("the first chip won")
			}
		}
		if got := gm.g.format(&p); got != step.board {
			t.Fatalf("%s: board\n%swant\n%s", step.name, got, step.board)
		}
		perfect, minimax := ratings(b)
		if !slices.Equal(perfect, step.want) || !slices.Equal(minimax, step.want) {
			t.Errorf("%s: ratings %v (minimax %v), seed 003 says %v", step.name, perfect, minimax, step.want)
		}
	}
}
