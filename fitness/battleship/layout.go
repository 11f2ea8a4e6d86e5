package battleship

import "fmt"

// Layout is a fleet on the board: Ships[i] holds the cells of ship i of
// the rules' fleet.
type Layout struct {
	Ships []Bits
}

// Occupied returns every cell holding a ship.
func (l Layout) Occupied() Bits {
	var all Bits
	for _, s := range l.Ships {
		all = all.Or(s)
	}
	return all
}

// Check reports whether l is a legal layout of g's fleet: one ship per
// fleet entry, each a straight in-bounds placement of its length, no two
// overlapping. Touching is allowed.
func (g *Geometry) Check(l Layout) error {
	if len(l.Ships) != len(g.Fleet) {
		return fmt.Errorf("battleship: layout has %d ships, fleet has %d", len(l.Ships), len(g.Fleet))
	}
	var seen Bits
	for i, s := range l.Ships {
		ok := false
		for _, p := range g.Placements[g.Fleet[i]] {
			if p == s {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("battleship: ship %d (length %d) is not a straight in-bounds placement", i, g.Fleet[i])
		}
		if seen.Meets(s) {
			return fmt.Errorf("battleship: ship %d overlaps another", i)
		}
		seen = seen.Or(s)
	}
	return nil
}

// String draws the layout, ship i as the digit i, water as '.'.
func (g *Geometry) String(l Layout) string {
	b := make([]byte, 0, (g.W+1)*g.H)
	for r := range g.H {
		for c := range g.W {
			ch := byte('.')
			for i, s := range l.Ships {
				if s.Has(r*g.W + c) {
					ch = byte('0' + i%10)
				}
			}
			b = append(b, ch)
		}
		b = append(b, '\n')
	}
	return string(b)
}
