package hadron

import (
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/search"
)

// TestSearchDelaysLosses gives the search lost 4x4 positions and checks it
// plays a move that keeps the game going longest: a loss found with more
// plies of search left scores lower (Settle), so the search prefers slow
// losses, which give a fallible opponent the most chances to go wrong.
// naiveLength is the reference: exhaustive search for the game's length
// under play that wins fastest and loses slowest.
func TestSearchDelaysLosses(t *testing.T) {
	rng := fitness.NewRand(17)
	tested, choices := 0, 0
	for game := 0; tested < scale(40, 10) && game < 400; game++ {
		b := mustBoard(t, 4)
		for range 5 + rng.IntN(4) {
			if b.Over() {
				break
			}
			legal := b.Legal()
			_ = b.Play(legal[rng.IntN(len(legal))])
		}
		v := naiveOf(b)
		if b.Over() || v.wins() {
			continue
		}
		tested++
		longest, lengths := 0, map[int]int{}
		for _, i := range v.moves() {
			v.play(i)
			_, n := naiveLength(v)
			v.unplay(i)
			lengths[i] = n + 1
			longest = max(longest, n+1)
		}
		for _, n := range lengths {
			if n != longest {
				choices++ // a position where the choice matters
				break
			}
		}
		s := searcher{b: *b, w: Aenigma, salt: uint64(game), tt: make(table, 1<<ttBits), depth: 16}
		if m := s.move(b); lengths[m] != longest {
			t.Fatalf("%v loses in %d plies; the slowest loss takes %d\n%v", b.cell(m), lengths[m], longest, b)
		}
	}
	if tested < scale(20, 5) || choices < scale(5, 2) {
		t.Fatalf("only %d lost positions tested, %d with losses of different lengths", tested, choices)
	}
}

// naiveLength returns whether the side to move wins with perfect play and
// the plies left when the winner hastens the end and the loser delays it.
func naiveLength(v *naive) (wins bool, plies int) {
	best, found := 0, false
	for _, i := range v.moves() {
		v.play(i)
		w, n := naiveLength(v)
		v.unplay(i)
		switch {
		case !w && (!found || !wins || n+1 < best):
			wins, best, found = true, n+1, true
		case w && !wins && n+1 > best:
			best, found = n+1, true
		}
	}
	return wins, best
}

// TestCutoffKeepsTwoKillers checks the killer slots of a ply: a refuting
// move becomes the first killer and the old first moves to second, and a
// move that is already first does not push the second out.
func TestCutoffKeepsTwoKillers(t *testing.T) {
	tests := []struct {
		name string
		cuts []search.Move
		want [2]int8
	}{
		{name: "none", want: [2]int8{-1, -1}},
		{name: "one", cuts: []search.Move{5}, want: [2]int8{5, -1}},
		{name: "two", cuts: []search.Move{5, 7}, want: [2]int8{7, 5}},
		{name: "three, the oldest forgotten", cuts: []search.Move{5, 7, 9}, want: [2]int8{9, 7}},
		{name: "first again keeps the second", cuts: []search.Move{5, 7, 7}, want: [2]int8{7, 5}},
		{name: "second again becomes first", cuts: []search.Move{5, 7, 5}, want: [2]int8{5, 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s searcher
			for i := range s.killer {
				s.killer[i] = [2]int8{-1, -1}
			}
			for _, m := range tc.cuts {
				s.Cutoff(m, 3)
			}
			if s.killer[3] != tc.want {
				t.Errorf("killers %v, want %v", s.killer[3], tc.want)
			}
			if s.killer[2] != [2]int8{-1, -1} || s.killer[4] != [2]int8{-1, -1} {
				t.Errorf("a cutoff at ply 3 changed ply 2 or 4: %v, %v", s.killer[2], s.killer[4])
			}
		})
	}
}
