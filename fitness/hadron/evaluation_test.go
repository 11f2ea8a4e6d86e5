package hadron

import (
	"fmt"
	"math"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/bits128"
)

// kayles is node Kayles by the definition: the mex over the moves of the
// value after each, a move taking a cell and its neighbours out; no
// regions, no normalisation, no cache, no size cap.
func kayles(g *geom, s bits128.Bits) int {
	seen := map[int]bool{}
	for m := s; !m.Empty(); m = m.Rest() {
		i := m.First()
		seen[kayles(g, s.AndNot(bits128.Cell(i)).AndNot(g.nbr[i]))] = true
	}
	v := 0
	for seen[v] {
		v++
	}
	return v
}

// TestNimbersAreNodeKayles compares the region-wise, cached nimbers with
// node Kayles by the definition on random cell sets of every board size,
// through one cache so that entries written for one set serve the next.
func TestNimbersAreNodeKayles(t *testing.T) {
	rng := fitness.NewRand(3)
	for size := MinSize; size <= MaxSize; size++ {
		g := geoms[size]
		c := &nimberCache{size: size}
		for range scale(60, 15) {
			// A set of up to 11 cells, so the definition stays quick; a
			// region of it may reach across the board.
			var s bits128.Bits
			for range 1 + rng.IntN(11) {
				s = s.Set(rng.IntN(g.cells))
			}
			if got, want := g.nimber(s, c), kayles(g, s); int(got) != want {
				t.Fatalf("%dx%d, cells %v: nimber %d, node Kayles %d", size, size, members(s), got, want)
			}
		}
	}
	// Paths of n cells have the node-Kayles values 1, 1, 2, 0, 3, 1, 1, 0
	// (Dawson's Kayles shifted by one); a region past maxRegion counts its
	// parity.
	g := geoms[MaxSize]
	c := &nimberCache{size: MaxSize}
	var path bits128.Bits
	for n, want := range []uint8{1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2} {
		path = path.Set(n)
		if got := g.nimber(path, c); got != want {
			t.Errorf("path of %d cells: nimber %d, want %d", n+1, got, want)
		}
	}
	var big bits128.Bits
	for i := range maxRegion + 1 {
		big = big.Set(i / 11 * 11).Set(i)
	}
	if n := big.Count(); g.nimber(big, c) != uint8(n&1) {
		t.Errorf("a region of %d cells: nimber %d, want its parity", n, g.nimber(big, c))
	}
}

func members(s bits128.Bits) []int {
	var out []int
	for ; !s.Empty(); s = s.Rest() {
		out = append(out, s.First())
	}
	return out
}

// TestExtraTermsOnADrawnPosition checks each term beyond Aenigma's on a
// position worked out by hand: testdata/positions/corners.txt, Black to
// move on 3x3 with one white stone on A2.
//
//	. W .    legal: B1, B3, C1, C2, C3 (5); A1, A3, B2 lean white (+1)
//	w . w    specials: B1 and B3, White's (each the only legal
//	. . .    neighbour of the corner above it): hSpecialMoves = 0-2
//
// Mobility is 5. Lead is -1 (Black trails in specials). Unlock: a black
// stone brings a +1 cell to balance, and each of A1, A3 and B2 has a
// legal neighbour to play: 3 for Black, none for White. Regions: the
// non-special legal cells C1-C2-C3 are a path of three, node-Kayles
// value 2, not zero: +1.
func TestExtraTermsOnADrawnPosition(t *testing.T) {
	b := loadPosition(t, "testdata/positions/corners.txt").board
	if b.ToMove() != Black {
		t.Fatal("corners.txt: want Black to move")
	}
	for _, tc := range []struct {
		extra Extra
		want  float64 // in units of Unit
	}{
		{Extra{Mobility: 0.1}, 0.1 * 5},
		{Extra{Lead: 0.5}, 0.5 * -1},
		{Extra{Unlock: 0.25}, 0.25 * 3},
		{Extra{Regions: 0.5}, 0.5 * 1},
		{Extra{Mobility: 0.1, Lead: 0.5, Unlock: 0.25, Regions: 0.5}, 0.1*5 + 0.5*-1 + 0.25*3 + 0.5*1},
	} {
		s := searcher{b: *b, w: Weights{T: 0, Early: tc.extra}}
		s.useWeights()
		// Aenigma's part: w1 = w2 = 0 here, so eval is the extra terms.
		if got := s.eval(); math.Abs(got-Unit*tc.want) > 1e-9 {
			t.Errorf("%+v: %v, want %v", tc.extra, got, Unit*tc.want)
		}
		// The late phase's weights are read once fewer than T cells are legal.
		s = searcher{b: *b, w: Weights{T: 6, Late: tc.extra}}
		s.useWeights()
		if got := s.eval(); math.Abs(got-Unit*tc.want) > 1e-9 {
			t.Errorf("late %+v: %v, want %v", tc.extra, got, Unit*tc.want)
		}
	}
	// With the tie gate the regions term and parity count only where the
	// specials tie, which they do not here.
	s := searcher{b: *b, w: Weights{T: 0, W2Early: 1, Early: Extra{Regions: 0.5}, TiedParity: true}}
	s.useWeights()
	if got := s.eval(); got != 0 {
		t.Errorf("tied parity with specials 0-2: %v, want 0", got)
	}
}

// TestTunedIsAenigmaGameForGame: the tuned player at Aenigma's values,
// every term beyond them off, plays every game as aenigma does, from
// random openings, in both seats, against players that search and that
// do not, at two depths; and each term beyond Aenigma's, switched on,
// changes games (the knobs are live).
func TestTunedIsAenigmaGameForGame(t *testing.T) {
	for _, depth := range []int{2, 3} {
		g := mustGame(t, Options{Size: 7, Depth: depth, Opening: 3})
		aen := newPlayer(t, g, "aenigma", genome.Values{})
		tun := newPlayer(t, g, "tuned", Schema(7).Defaults())
		deeper, err := fitness.ParseSpec(g, fitness.Mover, fmt.Sprintf("aenigma@depth=%d", depth+1))
		if err != nil {
			t.Fatal(err)
		}
		for _, opp := range []fitness.Player{newPlayer(t, g, "greedy", genome.Values{}), aen, deeper} {
			for seed := range uint64(scale(10, 2)) {
				if a, b := record(t, g, aen, opp, seed), record(t, g, tun, opp, seed); a.String() != b.String() {
					t.Fatalf("depth %d, as White against %s, seed %d:\naenigma %v\ntuned   %v", depth, opp.Name(), seed, a, b)
				}
				if a, b := record(t, g, opp, aen, seed), record(t, g, opp, tun, seed); a.String() != b.String() {
					t.Fatalf("depth %d, as Black against %s, seed %d:\naenigma %v\ntuned   %v", depth, opp.Name(), seed, a, b)
				}
			}
		}
	}
	g := mustGame(t, Options{Size: 7, Depth: 2, Opening: 3})
	aen := newPlayer(t, g, "aenigma", genome.Values{})
	opp := newPlayer(t, g, "greedy", genome.Values{})
	on := map[string]genome.Value{ParamTiedParity: {Num: 1}}
	for _, p := range extraParams {
		on[p.name] = genome.Value{Num: p.max / 2}
	}
	for name, v := range on {
		vals, err := Schema(7).Defaults().With(name, v)
		if err != nil {
			t.Fatal(err)
		}
		other := newPlayer(t, g, "tuned", vals)
		differ := false
		for seed := uint64(0); seed < 20 && !differ; seed++ {
			differ = record(t, g, aen, opp, seed).String() != record(t, g, other, opp, seed).String()
		}
		if !differ {
			t.Errorf("%s = %v played every game as aenigma", name, v)
		}
	}
}
