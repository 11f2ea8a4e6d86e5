package hadron

import "github.com/evotune/evotune/internal/bits128"

// MinSize and MaxSize bound the board side. The upper bound is what the
// two-word bitboard holds: 11x11 = 121 cells of 128 bits.
const (
	MinSize = 3
	MaxSize = 11

	maxCells = MaxSize * MaxSize
)

// geom is everything about a board size that never changes during a game,
// computed once per size so the move loop only does table look-ups.
type geom struct {
	n     int
	cells int
	full  bits128.Bits // every cell of the board
	// notFirst and notLast mask out the columns a sideways shift would
	// wrap into.
	notFirst, notLast bits128.Bits
	adj               [maxCells][4]int8      // orthogonal neighbours of a cell
	deg               [maxCells]int8         // how many of adj are used
	nbr               [maxCells]bits128.Bits // adj as a set
}

var geoms [MaxSize + 1]*geom

func init() {
	for n := MinSize; n <= MaxSize; n++ {
		geoms[n] = newGeom(n)
	}
}

func newGeom(n int) *geom {
	g := &geom{n: n, cells: n * n}
	for r := range n {
		for c := range n {
			i := r*n + c
			g.full = g.full.Or(bits128.Cell(i))
			if c != 0 {
				g.notFirst = g.notFirst.Or(bits128.Cell(i))
			}
			if c != n-1 {
				g.notLast = g.notLast.Or(bits128.Cell(i))
			}
			for _, d := range [4][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || rr >= n || cc < 0 || cc >= n {
					continue
				}
				j := rr*n + cc
				g.adj[i][g.deg[i]] = int8(j)
				g.deg[i]++
				g.nbr[i] = g.nbr[i].Or(bits128.Cell(j))
			}
		}
	}
	return g
}

// Shifts of a set to the cells next to it in one direction, masked so a
// row never wraps into the next and nothing leaves the board.
func (g *geom) east(a bits128.Bits) bits128.Bits  { return a.Shl(1).And(g.notFirst) }
func (g *geom) west(a bits128.Bits) bits128.Bits  { return a.Shr(1).And(g.notLast) }
func (g *geom) south(a bits128.Bits) bits128.Bits { return a.Shl(uint(g.n)).And(g.full) }
func (g *geom) north(a bits128.Bits) bits128.Bits { return a.Shr(uint(g.n)) }

// around returns the cells orthogonally next to some cell of a.
func (g *geom) around(a bits128.Bits) bits128.Bits {
	return g.east(a).Or(g.west(a)).Or(g.south(a)).Or(g.north(a))
}
