package chess

import (
	"slices"
	"testing"
)

// perftCases are published counts (chessprogramming.org, "Perft
// Results"): the start, Kiwipete (castling, en passant, pins), position
// 3 (en passant and checks in an endgame), position 4 and its mirror
// (promotions, under-promotions, castling rights lost to captures) and
// position 5. Counts beyond quick are played only without -short and
// without the race detector.
var perftCases = []struct {
	name, fen string
	counts    []uint64
	quick     int // depths played under -short
}{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609}, 4},
	{"kiwipete", kiwipete, []uint64{48, 2039, 97862, 4085603}, 3},
	{"position 3", perft3, []uint64{14, 191, 2812, 43238, 674624}, 4},
	{"position 4", perft4, []uint64{6, 264, 9467, 422333}, 3},
	{"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []uint64{6, 264, 9467, 422333}, 3},
	{"position 5", perft5, []uint64{44, 1486, 62379, 2103487}, 3},
	// Under-promotions next to a castling king, counted by Stockfish 15.1
	// (go perft): the library's own moves would forbid white's castling
	// after b1=N or b1=B, which a queen on b1 would check.
	{"under-promotions", "4k3/8/8/8/8/8/1p6/4K2R b K - 0 1", []uint64{9, 110, 1122, 17660}, 4},
	{"under-promotions, both castling", "r3k2r/8/8/8/8/8/1p6/R3K2R b KQkq - 0 1", []uint64{34, 639, 18892, 386841}, 3},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			depth := len(tc.counts)
			if testing.Short() || raceEnabled {
				depth = tc.quick
			}
			g, err := New(Options{FEN: tc.fen})
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Perft(depth); !slices.Equal(got, tc.counts[:depth]) {
				t.Errorf("perft %v, want %v", got, tc.counts[:depth])
			}
		})
	}
}

func TestPerftEdges(t *testing.T) {
	g, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Perft(0); len(got) != 0 {
		t.Errorf("perft(0) = %v, want none", got)
	}
	if got := g.Perft(-1); len(got) != 0 {
		t.Errorf("perft(-1) = %v, want none", got)
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, tc := range perftCases[:2] {
		b.Run(tc.name, func(b *testing.B) {
			g, err := New(Options{FEN: tc.fen})
			if err != nil {
				b.Fatal(err)
			}
			depth := tc.quick
			var nodes uint64
			for b.Loop() {
				nodes += g.Perft(depth)[depth-1]
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}
