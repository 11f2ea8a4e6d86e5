package hadron

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
	full  set // every cell of the board
	// notFirst and notLast mask out the columns a sideways shift would
	// wrap into.
	notFirst, notLast set
	adj               [maxCells][4]int8 // orthogonal neighbours of a cell
	deg               [maxCells]int8    // how many of adj are used
	nbr               [maxCells]set     // adj as a set
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
			g.full = g.full.or(bit(i))
			if c != 0 {
				g.notFirst = g.notFirst.or(bit(i))
			}
			if c != n-1 {
				g.notLast = g.notLast.or(bit(i))
			}
			for _, d := range [4][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || rr >= n || cc < 0 || cc >= n {
					continue
				}
				j := rr*n + cc
				g.adj[i][g.deg[i]] = int8(j)
				g.deg[i]++
				g.nbr[i] = g.nbr[i].or(bit(j))
			}
		}
	}
	return g
}

// Shifts of a set to the cells next to it in one direction, masked so a
// row never wraps into the next and nothing leaves the board.
func (g *geom) east(a set) set  { return a.up(1).and(g.notFirst) }
func (g *geom) west(a set) set  { return a.down(1).and(g.notLast) }
func (g *geom) south(a set) set { return a.up(uint(g.n)).and(g.full) }
func (g *geom) north(a set) set { return a.down(uint(g.n)) }

// around returns the cells orthogonally next to some cell of a.
func (g *geom) around(a set) set {
	return g.east(a).or(g.west(a)).or(g.south(a)).or(g.north(a))
}
