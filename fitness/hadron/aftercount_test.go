package hadron

import "testing"

// TestAfterCountIsLegalCellsAfterPlay: afterCount(i) is the opponent's
// number of legal cells once the side to move plays i, read without
// playing; the greedy player's ranking and perft's bulk count rest on it,
// so it is checked against playing the cell, for both sides to move.
func TestAfterCountIsLegalCellsAfterPlay(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
	}{
		{"min", MinSize},
		{"7x7", 7},
		{"9x9", 9},
		{"max", MaxSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, start := range goldenPositions(tc.size, 12) {
				for _, c := range start.Legal() {
					i, _ := start.index(c)
					b := start
					want := b.afterCount(i)
					b.place(i)
					if got := b.NumLegal(); got != want {
						t.Fatalf("%v to move, %v in\n%v: afterCount %d, %d legal after playing it",
							start.ToMove(), c, start.String(), want, got)
					}
				}
			}
		})
	}
}
