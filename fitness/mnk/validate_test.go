package mnk

import "testing"

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
