package mnk

import (
	"context"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// seed003 are seed 003's rules: the 3x3 drop-the-chip game, three in a
// row wins.
var seed003 = Rules{M: 3, N: 3, K: 3, Gravity: true}

// TestSeed003 replays the transcript of seed 003. Its empty board offers
// three moves, one per column, which minimax rates (0 0 0), all draws, for
// the first player. Its AI (handle-computer) takes "the position of the
// maximum" among the ratings, the first of equally rated moves, so its
// first chip lands in cell 6 of the board #(0 0 0 0 0 0 1 0 0), the
// bottom-left corner, every time; the opponent's three replies then rate
// (1 1 0) for the AI: win, win, draw, in column order. perfect@ties=first
// is that AI: its own move, not a chip placed by hand, is played here.
func TestSeed003(t *testing.T) {
	gm := mustGame(t, seed003, Limits{})
	ai, err := fitness.ParseSpec(gm, fitness.Mover, "perfect@ties=first")
	if err != nil {
		t.Fatal(err)
	}
	s := gm.newSolverMover(fitness.NewRand(1))
	defer s.release()
	var p position
	// ratings are the perfect player's exact values of the legal moves,
	// left column first, for the first player (the seed's AI), next to
	// plain minimax on the naive board.
	ratings := func(b *naive) (perfect, minimax []int) {
		t.Helper()
		legal := gm.g.moves(&p)
		if legal.Count() != seed003.M {
			t.Fatalf("%d legal moves, want one per column:\n%s", legal.Count(), gm.g.format(&p))
		}
		sign := 1
		if p.toMove() == O {
			sign = -1
		}
		for col := range seed003.M {
			var at []int
			for row := range seed003.N {
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
	b := newNaive(seed003)
	if perfect, minimax := ratings(b); !slices.Equal(perfect, []int{0, 0, 0}) || !slices.Equal(minimax, []int{0, 0, 0}) {
		t.Fatalf("empty board: ratings %v (minimax %v), seed 003 says (0 0 0)", perfect, minimax)
	}
	// The AI moves, from any seed: the first of three equal moves.
	for seed := range uint64(20) {
		m := gm.start(gm.own(ai), seed)
		var view position // the empty board
		c, err := m.next(context.Background(), &view)
		m.release()
		if err != nil {
			t.Fatal(err)
		}
		if want := gm.g.bit(seed003.N-1, 0); c != want {
			row, col := gm.g.rowCol(c)
			t.Fatalf("seed %d: the AI's first chip went to row %d, column %d; seed 003's lands bottom-left", seed, row, col)
		}
		if seed > 0 {
			continue
		}
		if gm.g.play(&p, c) {
			t.Fatal("the first chip won")
		}
		b.set(6) // the naive board numbers cells as the transcript does
	}
	if got := gm.g.format(&p); got != "...\n...\nX..\n" {
		t.Fatalf("after the AI's move the board is\n%swant seed 003's #(0 0 0 0 0 0 1 0 0)", got)
	}
	if perfect, minimax := ratings(b); !slices.Equal(perfect, []int{1, 1, 0}) || !slices.Equal(minimax, []int{1, 1, 0}) {
		t.Errorf("after the AI's first chip: ratings %v (minimax %v), seed 003 says (1 1 0)", perfect, minimax)
	}
}

// TestSeed003TieRules: whole games of the seed's AI against itself are
// one game, whatever the seed; perfect at its default picks among the
// three equal first moves at random, so its games' first chips differ.
func TestSeed003TieRules(t *testing.T) {
	gm := mustGame(t, seed003, Limits{})
	first := map[string]map[int]bool{}
	for _, spec := range []string{"perfect@ties=first", "perfect", "perfect@ties=random"} {
		p, err := fitness.ParseSpec(gm, fitness.Mover, spec)
		if err != nil {
			t.Fatal(err)
		}
		first[spec] = map[int]bool{}
		for seed := range uint64(30) {
			_, moves, err := gm.playContext(context.Background(), p, p, seed, true)
			if err != nil {
				t.Fatal(err)
			}
			first[spec][moves[0]] = true
		}
	}
	if want := gm.g.bit(seed003.N-1, 0); len(first["perfect@ties=first"]) != 1 || !first["perfect@ties=first"][want] {
		t.Errorf("perfect@ties=first opened with %v, want only the bottom-left cell %d", first["perfect@ties=first"], want)
	}
	for _, spec := range []string{"perfect", "perfect@ties=random"} {
		if len(first[spec]) != 3 {
			t.Errorf("%s opened with %v over 30 seeds, want all three columns", spec, first[spec])
		}
	}
	if _, err := fitness.ParseSpec(gm, fitness.Mover, "perfect@ties=last"); err == nil || err.Error() != "mnk: perfect@ties=last: want random or first" {
		t.Errorf("perfect@ties=last: %v", err)
	}
}
