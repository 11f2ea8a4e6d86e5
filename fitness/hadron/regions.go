package hadron

import (
	"sync"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

// Regions. A stone makes every legal cell next to it illegal and leaves
// the legal cells elsewhere alone; what else it does is unlock cells one
// stone off balance. Leaving the unlocks aside, play on the legal cells is
// node Kayles on the graph of orthogonally adjacent legal cells: a move
// takes a cell and its neighbours out. The graph falls apart into regions
// (connected components) that are played independently, so by the
// Sprague-Grundy theorem the side to move wins the sum exactly when the
// XOR of the regions' Grundy values (their nimbers) is not zero. A region
// of one cell, a safe move, has nimber 1, so counting such regions alone
// is Aenigma's parity.
//
// Nimbers are computed exactly, by the recursion over a region's moves,
// for regions of at most maxRegion cells, and kept in a cache by shape;
// a larger region (the open board of the early game) counts its size's
// parity, as Aenigma's parity does.

// maxRegion is the largest region whose nimber is computed. Regions of up
// to 12 cells are solved in well under a millisecond the first time; their
// shapes recur, so the cache answers nearly every look-up.
const maxRegion = 12

// region returns the connected component of s that holds s's first cell.
func (g *geom) region(s bits128.Bits) bits128.Bits {
	r := bits128.Cell(s.First())
	for {
		next := r.Or(g.around(r)).And(s)
		if next == r {
			return r
		}
		r = next
	}
}

// nimber is the node-Kayles nimber of the cell set s: the XOR of its
// regions' nimbers, regions larger than maxRegion counting their size's
// parity.
func (g *geom) nimber(s bits128.Bits, c *nimberCache) uint8 {
	var x uint8
	for !s.Empty() {
		r := g.region(s)
		s = s.AndNot(r)
		if n := r.Count(); n > maxRegion {
			x ^= uint8(n & 1)
			continue
		}
		x ^= c.region(g, g.normalize(r))
	}
	return x
}

// normalize moves a region to the top-left corner: shifted so its top row
// is row 0 and its leftmost column column 0, so that every translate of a
// shape has one cache entry. Shifting right by rows*n+cols keeps each
// cell's column offset since no cell lies left of the leftmost column.
// The leftmost column is the first cell of the rows folded onto row 0
// (or-ing the set shifted up by 1, 2, 4 and 8 rows).
func (g *geom) normalize(r bits128.Bits) bits128.Bits {
	top := r.First() / g.n
	folded := r
	for s := g.n; s < g.cells; s *= 2 {
		folded = folded.Or(folded.Shr(uint(s)))
	}
	return r.Shr(uint(top*g.n + folded.First()%g.n))
}

// nimberCache holds nimbers of normalized regions of one board size: a
// direct-mapped table, an entry replaced on a collision. Nimbers are
// facts about shapes, so a cache can serve any game of its size in any
// order without changing a result.
type nimberCache struct {
	size int
	e    [1 << nimberBits]nimberEntry
}

const nimberBits = 14

type nimberEntry struct {
	shape bits128.Bits
	value uint8 // nimber + 1; 0 for an empty slot
}

// region returns the nimber of the normalized connected region r.
func (c *nimberCache) region(g *geom, r bits128.Bits) uint8 {
	e := &c.e[fitness.Mix(r.Lo^r.Hi*0x9e3779b97f4a7c15)&(1<<nimberBits-1)]
	if e.value != 0 && e.shape == r {
		return e.value - 1
	}
	// mex of the nimbers after each move; a region of at most 12 cells
	// has a nimber below 13, so 32 bits hold the seen set.
	var seen uint32
	for m := r; !m.Empty(); m = m.Rest() {
		i := m.First()
		seen |= 1 << g.nimber(r.AndNot(bits128.Cell(i)).AndNot(g.nbr[i]), c)
	}
	var v uint8
	for seen&(1<<v) != 0 {
		v++
	}
	// The recursion may have reused this slot: write it now.
	*e = nimberEntry{shape: r, value: v + 1}
	return v
}

// nimberCaches recycles caches between games, one pool per board size.
var nimberCaches [MaxSize + 1]sync.Pool

func getNimberCache(size int) *nimberCache {
	if c, ok := nimberCaches[size].Get().(*nimberCache); ok {
		return c
	}
	return &nimberCache{size: size}
}

func putNimberCache(c *nimberCache) { nimberCaches[c.size].Put(c) }
