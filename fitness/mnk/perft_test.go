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
		{"one cell", Rules{1, 1, 1}, 2},
		{"3x3 k=1", Rules{3, 3, 1}, 3},
		{"3x3 k=2", Rules{3, 3, 2}, 9},
		{"4x3 k=3", Rules{4, 3, 3}, 6},
		{"4x4 k=3", Rules{4, 4, 3}, 5},
		{"3x4 k=2", Rules{3, 4, 2}, 6},
		{"5x1 k=3", Rules{5, 1, 3}, 5},
		{"1x5 k=3", Rules{1, 5, 3}, 5},
		{"10x10 k=5", Rules{10, 10, 5}, 2},
		{"15x7 k=7", Rules{15, 7, 7}, 2},
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

func TestTreeCount(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		want  *Tree // nil: whatever the naive enumeration finds
	}{
		// 255168 games and 5478 positions: the classic tic-tac-toe figures.
		{"tic-tac-toe", TicTacToe, &Tree{XWins: 131184, OWins: 77904, Draws: 46080, Positions: 5478}},
		{"one cell", Rules{1, 1, 1}, &Tree{XWins: 1, Positions: 2}},
		{"3x3 k=2", Rules{3, 3, 2}, nil},
		{"2x2 k=2", Rules{2, 2, 2}, nil},
		{"4x2 k=3", Rules{4, 2, 3}, nil},
		{"3x2 k=3", Rules{3, 2, 3}, nil},
		{"5x1 k=3", Rules{5, 1, 3}, nil},
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
		{"too many cells", Rules{4, 4, 3}, "mnk: tree count of 4x4: at most 12 cells"},
		{"bad rules", Rules{3, 3, 4}, "mnk: k 4 exceeds the board 3x3"},
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
