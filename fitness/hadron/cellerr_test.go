package hadron

import "testing"

// TestParseCellErrorMessages: a refused cell is reported with the board's
// own range, A1 to its last cell, so the user sees what is on the board.
func TestParseCellErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		size     int
		want     string
	}{
		{"too short", "A", 9, `hadron: cell "A": want a row letter and a column number, like A1`},
		{"row past 9x9", "J1", 9, `hadron: cell "J1": not on a 9x9 board (A1..I9)`},
		{"column past 3x3", "C4", 3, `hadron: cell "C4": not on a 3x3 board (A1..C3)`},
		{"row past 11x11", "L1", 11, `hadron: cell "L1": not on a 11x11 board (A1..K11)`},
		{"not a number", "Ex", 5, `hadron: cell "Ex": not on a 5x5 board (A1..E5)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCell(tc.in, tc.size)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("ParseCell(%q, %d): %v, want %s", tc.in, tc.size, err, tc.want)
			}
		})
	}
}
