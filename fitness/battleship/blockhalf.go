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
	b := blockHalfSearch{g: g, ships: make([]Bits, len(g.Fleet))}
	for range blockHalfTries {
		blocked := Bits{Lo: rng.Uint64(), Hi: rng.Uint64()}.And(g.All)
		b.budget = blockHalfBudget
		if b.place(0, blocked) {
			return Layout{Ships: b.ships}
		}
	}
	return placeUniform(g, rng)
}

type blockHalfSearch struct {
	g      *Geometry
	ships  []Bits
	budget int
}

// place lays ships i.. of the fleet on cells not in taken.
func (b *blockHalfSearch) place(i int, taken Bits) bool {
	if i == len(b.ships) {
		return true
	}
	// Prune: a ship with no free placement now has none deeper either.
	// This only cuts branches without a solution, so the layout found is
	// the same first fit, but hopeless tries end at once.
	for _, L := range b.g.Fleet[i:] {
		if !b.fits(L, taken) {
			return false
		}
	}
	// Geometry.Placements lists the horizontal placements, then the
	// vertical ones, each in row-major order of the first cell: merging
	// the two lists visits every cell in turn, horizontal first.
	L := b.g.Fleet[i]
	ps := b.g.Placements[L]
	nh := len(ps)
	if L > 1 {
		nh = b.g.H * max(0, b.g.W-L+1)
	}
	hor, ver := ps[:nh], ps[nh:]
	for len(hor) > 0 || len(ver) > 0 {
		var p Bits
		if len(ver) == 0 || len(hor) > 0 && hor[0].First() <= ver[0].First() {
			p, hor = hor[0], hor[1:]
		} else {
			p, ver = ver[0], ver[1:]
		}
		if p.Meets(taken) {
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
	return false
}

// fits reports whether some placement of length L avoids taken.
func (b *blockHalfSearch) fits(L int, taken Bits) bool {
	for _, p := range b.g.Placements[L] {
		if !p.Meets(taken) {
			return true
		}
	}
	return false
}
