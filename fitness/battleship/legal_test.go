package battleship

import (
	"fmt"
	"testing"
)

// legalLayout is the tests' own oracle for a layout, written apart from
// Geometry.Check: as many ships as the fleet, each ship its length in
// cells, all in one row or one column without gaps, and every pair of
// ships (not only neighbours in the fleet order) disjoint.
func legalLayout(g *Geometry, l Layout) error {
	if len(l.Ships) != len(g.Fleet) {
		return fmt.Errorf("%d ships, fleet of %d", len(l.Ships), len(g.Fleet))
	}
	for i, s := range l.Ships {
		cells := s.Cells(nil)
		if len(cells) != g.Fleet[i] {
			return fmt.Errorf("ship %d: %d cells, want %d", i, len(cells), g.Fleet[i])
		}
		for _, c := range cells {
			if c < 0 || c >= g.W*g.H {
				return fmt.Errorf("ship %d: cell %d off the board", i, c)
			}
		}
		r0, c0 := cells[0]/g.W, cells[0]%g.W
		horizontal, vertical := true, true
		for k, c := range cells {
			if c/g.W != r0 || c%g.W != c0+k {
				horizontal = false
			}
			if c%g.W != c0 || c/g.W != r0+k {
				vertical = false
			}
		}
		if !horizontal && !vertical {
			return fmt.Errorf("ship %d: cells %v are not a straight line", i, cells)
		}
	}
	for i := range l.Ships {
		for j := i + 1; j < len(l.Ships); j++ {
			if l.Ships[i].Meets(l.Ships[j]) {
				return fmt.Errorf("ships %d and %d overlap", i, j)
			}
		}
	}
	return nil
}

// fleetSize is the number of cells of r's fleet: no game can end in
// fewer shots.
func fleetSize(r Rules) int {
	n := 0
	for _, L := range r.Fleet {
		n += L
	}
	return n
}

// mustBeLegal fails the test unless both Geometry.Check and the tests'
// own oracle accept l.
func mustBeLegal(t testing.TB, g *Geometry, l Layout, what string) {
	t.Helper()
	if err := g.Check(l); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, g.String(l))
	}
	if err := legalLayout(g, l); err != nil {
		t.Fatalf("%s: Check accepts an illegal layout: %v\n%s", what, err, g.String(l))
	}
}

// TestLegalityOraclesAgree runs Check and the oracle over layouts that
// break one rule each, overlaps between ships far apart in the fleet
// order included.
func TestLegalityOraclesAgree(t *testing.T) {
	g := mustGeometry(t, Rules{W: 6, H: 6, Fleet: []int{3, 2, 2, 4}, Reveal: RevealSunk})
	row := func(r, c, n int) Bits {
		var b Bits
		for i := range n {
			b = b.Set(r*6 + c + i)
		}
		return b
	}
	col := func(r, c, n int) Bits {
		var b Bits
		for i := range n {
			b = b.Set((r+i)*6 + c)
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		ships []Bits
		legal bool
	}{
		{"legal, touching", []Bits{row(0, 0, 3), row(1, 0, 2), col(2, 0, 2), col(2, 5, 4)}, true},
		{"first and last overlap", []Bits{row(0, 0, 3), row(1, 0, 2), col(2, 0, 2), col(0, 2, 4)}, false},
		{"first and third overlap", []Bits{row(0, 0, 3), row(5, 0, 2), col(0, 1, 2), col(2, 5, 4)}, false},
		{"second and last overlap", []Bits{row(0, 0, 3), row(3, 4, 2), col(2, 0, 2), col(2, 5, 4)}, false},
		{"neighbours overlap", []Bits{row(0, 0, 3), row(0, 2, 2), col(2, 0, 2), col(2, 5, 4)}, false},
		{"bent", []Bits{row(0, 0, 3), row(1, 0, 2), col(2, 0, 2), row(5, 0, 3).Set(4*6 + 3)}, false},
		{"too short", []Bits{row(0, 0, 2), row(1, 0, 2), col(2, 0, 2), col(2, 5, 4)}, false},
		{"one ship missing", []Bits{row(0, 0, 3), row(1, 0, 2), col(2, 0, 2)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := Layout{Ships: tc.ships}
			checkErr, oracleErr := g.Check(l), legalLayout(g, l)
			if (checkErr == nil) != tc.legal || (oracleErr == nil) != tc.legal {
				t.Fatalf("Check: %v; oracle: %v; want legal %v\n%s", checkErr, oracleErr, tc.legal, g.String(l))
			}
		})
	}
}
