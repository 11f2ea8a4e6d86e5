package mnk

import (
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestRulesValidate checks the edges of Rules.Validate with exact
// messages: k from 1 up to the longer side is playable, a side of length 1
// still bounds k, and a board with no cells reports only its size (k
// cannot exceed a board that is not there).
func TestRulesValidate(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		want  string // the joined errors; "" for none
	}{
		{name: "k one", rules: Rules{M: 3, N: 3, K: 1}},
		{name: "k the longer side", rules: Rules{M: 4, N: 3, K: 4}},
		{name: "k the longer side, rows", rules: Rules{M: 3, N: 4, K: 4}},
		{name: "k past the longer side", rules: Rules{M: 4, N: 3, K: 5}, want: "mnk: k 5 exceeds the board 4x3"},
		{name: "one column", rules: Rules{M: 1, N: 3, K: 4}, want: "mnk: k 4 exceeds the board 1x3"},
		{name: "one row", rules: Rules{M: 3, N: 1, K: 4}, want: "mnk: k 4 exceeds the board 3x1"},
		{name: "one cell", rules: Rules{M: 1, N: 1, K: 1}},
		{name: "one column of 64", rules: Rules{M: 1, N: 64, K: 3}},
		{name: "one column of 65", rules: Rules{M: 1, N: 65, K: 3}, want: "mnk: board 1x65 is too large: (m+1)*n must be at most 128 (10x10 fits)"},
		{name: "one row of 127", rules: Rules{M: 127, N: 1, K: 3}},
		{name: "one row of 128", rules: Rules{M: 128, N: 1, K: 3}, want: "mnk: board 128x1 is too large: (m+1)*n must be at most 128 (10x10 fits)"},
		{name: "k zero", rules: Rules{M: 3, N: 3, K: 0}, want: "mnk: k 0: at least one mark must make a line"},
		{name: "no columns", rules: Rules{M: 0, N: 3, K: 9}, want: "mnk: m 0: the board needs at least one column"},
		{name: "no rows", rules: Rules{M: 3, N: 0, K: 9}, want: "mnk: n 0: the board needs at least one row"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if err := tc.rules.Validate(); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Validate(%v) = %q, want %q", tc.rules, got, tc.want)
			}
		})
	}
}

// TestPerfectBoardLimit solves boards of up to maxPerfectCells cells and
// refuses the next size.
func TestPerfectBoardLimit(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		want  string // the error; "" when accepted
	}{
		{name: "5x4, 20 cells", rules: Rules{M: 5, N: 4, K: 4}},
		{name: "7x3, 21 cells", rules: Rules{M: 7, N: 3, K: 3}, want: "mnk: perfect: board 7x3 has 21 cells, more than the 20 it can solve"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mustGame(t, tc.rules, Limits{}).NewPlayer(fitness.Mover, "perfect", genome.Values{})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("error %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNodeLimitEdge accepts a node budget of exactly the largest allowed.
func TestNodeLimitEdge(t *testing.T) {
	if _, err := Info.New(map[string]string{"nodes": strconv.Itoa(maxNodes)}); err != nil {
		t.Errorf("nodes %d: %v", maxNodes, err)
	}
}

// TestStrategyNames checks the names of the players, the zero strategy and
// the first value past the last: no name, so no player is called "".
func TestStrategyNames(t *testing.T) {
	tests := []struct {
		s    strategy
		want string
	}{
		{randomPlay, "random"},
		{tunedPlay, "tuned"},
		{0, "strategy(0)"},
		{strategy(len(strategies)), "strategy(" + strconv.Itoa(len(strategies)) + ")"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.s.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
	if s, ok := parseStrategy(""); ok {
		t.Errorf(`parseStrategy("") = %v, true; want no strategy`, s)
	}
}

// TestWinsOnLongLines finds the winning cell of a run of k-1 where k
// reaches the stack buffers of geom.wins (16) and passes them (17).
func TestWinsOnLongLines(t *testing.T) {
	for _, k := range []int{15, 16, 17} {
		t.Run(strconv.Itoa(k), func(t *testing.T) {
			gm := mustGame(t, Rules{M: k, N: 2, K: k}, Limits{})
			p := parseBoard(t, gm.g, strings.Repeat("X", k-1)+".", strings.Repeat("O", k-1)+".")
			got := gm.g.wins(p.marks[X], gm.g.moves(&p))
			if want := gm.g.bit(0, k-1); got.Count() != 1 || got.First() != want {
				t.Errorf("wins %v, want the one cell %d", got, want)
			}
		})
	}
}
