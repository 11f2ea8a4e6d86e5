package mnk

import (
	"slices"
	"testing"
)

func TestPerftMatchesNaive(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		depth int
	}{
		{"tic-tac-toe", TicTacToe, 9},
		{"tic-tac-toe, one ply", TicTacToe, 1},
		{"8x7 k=8: the longest line of the one-word path", Rules{M: 8, N: 7, K: 8}, 3},
		{"one cell", Rules{M: 1, N: 1, K: 1}, 2},
		{"3x3 k=1", Rules{M: 3, N: 3, K: 1}, 3},
		{"3x3 k=2", Rules{M: 3, N: 3, K: 2}, 9},
		{"4x3 k=3", Rules{M: 4, N: 3, K: 3}, 6},
		{"4x4 k=3", Rules{M: 4, N: 4, K: 3}, 5},
		{"3x4 k=2", Rules{M: 3, N: 4, K: 2}, 6},
		{"5x1 k=3", Rules{M: 5, N: 1, K: 3}, 5},
		{"1x5 k=3", Rules{M: 1, N: 5, K: 3}, 5},
		{"10x10 k=5", Rules{M: 10, N: 10, K: 5}, 2},
		{"15x7 k=7", Rules{M: 15, N: 7, K: 7}, 2},
		{"seed 003: 3x3 gravity", Rules{M: 3, N: 3, K: 3, Gravity: true}, 10},
		{"4x4 k=3 gravity", Rules{M: 4, N: 4, K: 3, Gravity: true}, 16},
		{"5x4 k=4 gravity", Rules{M: 5, N: 4, K: 4, Gravity: true}, 9},
		{"1x5 k=3 gravity", Rules{M: 1, N: 5, K: 3, Gravity: true}, 5},
		{"connect four", ConnectFour, 8},
		{"10x10 k=5 gravity (general path)", Rules{M: 10, N: 10, K: 5, Gravity: true}, 4},
		{"15x7 k=4 gravity (general path)", Rules{M: 15, N: 7, K: 4, Gravity: true}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustGame(t, tc.rules, Limits{}).Perft(tc.depth)
			want := newNaive(tc.rules).perft(tc.depth)
			if !slices.Equal(got, want) {
				t.Errorf("Perft(%d) = %v, naive enumeration gives %v", tc.depth, got, want)
			}
		})
	}
}

// TestPerftTicTacToe pins the well-known tic-tac-toe counts (which
// TestPerftMatchesNaive checks against the naive enumeration) and the
// edges of the depth range.
func TestPerftTicTacToe(t *testing.T) {
	want := []uint64{9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872}
	gm := mustGame(t, TicTacToe, Limits{})
	if got := gm.Perft(9); !slices.Equal(got, want) {
		t.Errorf("Perft(9) = %v, want %v", got, want)
	}
	if got := gm.Perft(11); !slices.Equal(got, append(want, 0, 0)) {
		t.Errorf("Perft(11) = %v, want %v and two zeros: no game is longer than 9", got, want)
	}
	if got := gm.Perft(0); len(got) != 0 {
		t.Errorf("Perft(0) = %v, want nothing", got)
	}
}

// TestPerftConnectFour pins Connect Four's counts, which
// TestPerftMatchesNaive checks to depth 8 against the naive enumeration
// (they are OEIS A212693); depth 9 is checked against the general path.
func TestPerftConnectFour(t *testing.T) {
	want := []uint64{7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572}
	g := mustGame(t, ConnectFour, Limits{}).g
	depth := len(want)
	if testing.Short() || raceEnabled {
		depth = 8
	}
	if got := g.perft(depth); !slices.Equal(got, want[:depth]) {
		t.Errorf("Perft(%d) = %v, want %v", depth, got, want[:depth])
	}
	if depth == 9 {
		var p position
		counts := make([]uint64, 9)
		g.perftFrom(&p, counts)
		if !slices.Equal(counts, want) {
			t.Errorf("general path: %v, want %v", counts, want)
		}
	}
}

// TestPerftPathsAgree checks the one-word perft against the general path
// on every board shape small enough for both, with and without gravity.
func TestPerftPathsAgree(t *testing.T) {
	for _, r := range []Rules{TicTacToe, {M: 4, N: 4, K: 3}, {M: 5, N: 5, K: 4}, {M: 7, N: 6, K: 4}, {M: 7, N: 7, K: 5},
		{M: 2, N: 6, K: 2}, {M: 6, N: 2, K: 2}, {M: 3, N: 3, K: 1}, {M: 63, N: 1, K: 5}, {M: 1, N: 32, K: 4}} {
		for _, gravity := range []bool{false, true} {
			r.Gravity = gravity
			t.Run(r.String(), func(t *testing.T) {
				g := mustGame(t, r, Limits{}).g
				b, ok := g.board64()
				if !ok {
					t.Fatalf("%v does not fit one word", r)
				}
				depth := 4
				if gravity && r.M <= 8 {
					depth = 7 // at most 8 moves a ply
				}
				depth = min(depth, g.cells)
				fast := make([]uint64, depth)
				b.perft(0, 0, 0, fast)
				var p position
				general := make([]uint64, depth)
				g.perftFrom(&p, general)
				if !slices.Equal(fast, general) {
					t.Errorf("one word %v, general %v", fast, general)
				}
			})
		}
	}
	if _, ok := mustGame(t, Rules{M: 8, N: 8, K: 4, Gravity: true}, Limits{}).g.board64(); ok {
		t.Error("8x8 (72 padded bits) claims to fit one word")
	}
}

func TestTreeCount(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		want  *Tree // nil: whatever the naive enumeration finds
	}{
		// 255168 games and 5478 positions: the classic tic-tac-toe figures.
		{"tic-tac-toe", TicTacToe, &Tree{XWins: 131184, OWins: 77904, Draws: 46080, Positions: 5478}},
		{"one cell", Rules{M: 1, N: 1, K: 1}, &Tree{XWins: 1, Positions: 2}},
		{"3x3 k=2", Rules{M: 3, N: 3, K: 2}, nil},
		{"2x2 k=2", Rules{M: 2, N: 2, K: 2}, nil},
		{"4x2 k=3", Rules{M: 4, N: 2, K: 3}, nil},
		{"3x2 k=3", Rules{M: 3, N: 2, K: 3}, nil},
		{"5x1 k=3", Rules{M: 5, N: 1, K: 3}, nil},
		// Seed 003's drop-the-chip game; the counts are in the README.
		{"seed 003: 3x3 gravity", Rules{M: 3, N: 3, K: 3, Gravity: true}, &Tree{XWins: 616, OWins: 386, Draws: 308, Positions: 694}},
		{"4x3 k=3 gravity", Rules{M: 4, N: 3, K: 3, Gravity: true}, nil},
		{"3x4 k=3 gravity", Rules{M: 3, N: 4, K: 3, Gravity: true}, nil},
		{"2x2 k=2 gravity", Rules{M: 2, N: 2, K: 2, Gravity: true}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			naive := newNaive(tc.rules).tree()
			if tc.want != nil && naive != *tc.want {
				t.Fatalf("naive enumeration = %+v, want %+v", naive, *tc.want)
			}
			got, err := TreeCount(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			if got != naive {
				t.Errorf("TreeCount = %+v, naive enumeration gives %+v", got, naive)
			}
			if tc.rules == TicTacToe && got.Games() != 255168 {
				t.Errorf("Games() = %d, want 255168", got.Games())
			}
		})
	}
}

func TestTreeCountRefuses(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		want  string
	}{
		{"too many cells", Rules{M: 4, N: 4, K: 3}, "mnk: tree count of 4x4: at most 12 cells"},
		{"bad rules", Rules{M: 3, N: 3, K: 4}, "mnk: k 4 exceeds the board 3x3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := TreeCount(tc.rules)
			if err == nil || err.Error() != tc.want {
				t.Errorf("TreeCount(%v) error = %v, want %q", tc.rules, err, tc.want)
			}
		})
	}
}
