package battleship

import "math/rand/v2"

// blockHalfPlacer is seed 002's placer (the CS 32 Mediocre and Good
// players place alike). Up to blockHalfTries times: block a random half of
// the board, then place the fleet in order by recursive backtracking: for
// each cell in row-major order, try the current ship horizontally and
// then vertically with its first cell there; if it fits (in bounds, on no
// blocked cell and no ship), place the rest of the fleet recursively, and
// on failure take it back and go on. The blocked cells are then unblocked
// (they were never part of the layout).
//
// "A random half" is, as in the CS 32 assignment's Board::block, every
// cell blocked independently with probability 1/2, so about half the
// board. Because the search takes the first fit in row-major order, the
// fleet crowds toward the top rows, more so the earlier a ship comes in
// the fleet; the blocking is all that spreads it.
//
// A try fails when the blocked board has no room for the fleet, or when the
// search has tried blockHalfBudget ship positions without completing it
// (a guard against exponential backtracking on boards nearly full; on the
// classic board it is hit rarely). After blockHalfTries failed tries the
// original gave up; here the fleet is laid by the random placer instead,
// so that a legal layout always comes back. Dense fleets, whose ships
// cannot fit on half a board, always end that way.
type blockHalfPlacer struct{}

const (
	blockHalfTries  = 50
	blockHalfBudget = 20000
)

func (blockHalfPlacer) Name() string { return "blockhalf" }

func (blockHalfPlacer) Place(g *Geometry, rng *rand.Rand) Layout {
	b := blockHalfSearch{g: g, ships: make([]Bits, len(g.Fleet)), starts: lineStarts(g)}
	for range blockHalfTries {
		blocked := Bits{Lo: rng.Uint64(), Hi: rng.Uint64()}.And(g.All)
		b.budget = blockHalfBudget
		if b.place(0, blocked) {
			return Layout{Ships: b.ships}
		}
	}
	return placeUniform(g, rng)
}

// lineStarts indexes every placement of each ship length by its first cell
// and orientation: starts[L][0][c] is the horizontal one starting at c, [1]
// the vertical one; empty where the ship would leave the board.
func lineStarts(g *Geometry) map[int]*[2][]Bits {
	out := make(map[int]*[2][]Bits, len(g.Lengths))
	for _, L := range g.Lengths {
		s := &[2][]Bits{make([]Bits, g.Cells), make([]Bits, g.Cells)}
		for _, p := range g.Placements[L] {
			first := p.First()
			orient := 0
			if L > 1 && !p.Has(first+1) { // a horizontal ship holds first+1
				orient = 1
			}
			s[orient][first] = p
		}
		out[L] = s
	}
	return out
}

type blockHalfSearch struct {
	g      *Geometry
	ships  []Bits
	starts map[int]*[2][]Bits
	budget int
}

// place lays ships i.. of the fleet on cells not in taken.
func (b *blockHalfSearch) place(i int, taken Bits) bool {
	if i == len(b.ships) {
		return true
	}
	st := b.starts[b.g.Fleet[i]]
	for c := range b.g.Cells {
		for orient := range st {
			p := st[orient][c]
			if p.Empty() || p.Meets(taken) {
				continue
			}
			if b.budget--; b.budget < 0 {
				return false
			}
			b.ships[i] = p
			if b.place(i+1, taken.Or(p)) {
				return true
			}
		}
	}
	return false
}
