package mnk

import (
	"cmp"
	"math"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

// geom is everything about a board that the rules fix: the bit layout,
// line detection, hashing keys and the lines the evaluation scans. It is
// built once per game and only read afterwards, so games share it freely
// between goroutines.
//
// Cell (row r, column c) is bit r*stride + c, where stride = M+1: every row
// carries one spare column that is always empty. A shift by one cell or by
// one row then moves a run along a row, a column or a diagonal, and the
// spare column stops runs from wrapping from the end of one row into the
// start of the next (the shift-and trick of bitboard Connect Four).
type geom struct {
	Rules
	stride int
	cells  int          // M*N
	full   bits128.Bits // every real cell
	bottom bits128.Bits // the bottom row, where a chip lands in an empty column
	odd    bits128.Bits // rows 1, 3, 5... counted from the bottom (Connect Four's odd threats)
	dirs   [4]uint      // bit steps along a row, a column and the two diagonals
	zob    [2][]uint64  // hashing keys by side and bit
	centre []float64    // by bit: 1 at the centre falling to 0 at the edge
	order  []int        // real cells, the richest in possible lines first
	lines  [][]int      // every row, column and diagonal that can hold K marks
	lineAt [][4]linePos // by bit and direction: where the cell is in lines
}

// linePos places a cell in a line: lines[line][pos]. line is -1 when the
// cell's line in that direction is too short to hold K.
type linePos struct{ line, pos int }

// zobristSeed names the stream of the hashing keys. They are part of the
// rules, not of a match, so every game of the same rules shares them.
const zobristSeed = 0x6d6e6b5a6f62 // "mnkZob"

func newGeom(r Rules) *geom {
	g := &geom{Rules: r, stride: r.M + 1, cells: r.M * r.N}
	s := g.stride
	g.dirs = [4]uint{1, uint(s), uint(s + 1), uint(s - 1)}
	bitsUsed := s * r.N
	g.zob = [2][]uint64{make([]uint64, bitsUsed), make([]uint64, bitsUsed)}
	g.centre = make([]float64, bitsUsed)
	g.lineAt = make([][4]linePos, bitsUsed)
	windows := make([]int, bitsUsed) // k-cell windows through each cell
	for b := range g.lineAt {
		g.lineAt[b] = [4]linePos{{-1, 0}, {-1, 0}, {-1, 0}, {-1, 0}}
	}
	cr, cc := float64(r.N-1)/2, float64(r.M-1)/2
	for row := range r.N {
		for col := range r.M {
			b := g.bit(row, col)
			g.full = g.full.Or(bits128.Cell(b))
			if row == r.N-1 {
				g.bottom = g.bottom.Or(bits128.Cell(b))
			}
			if (r.N-row)%2 == 1 {
				g.odd = g.odd.Or(bits128.Cell(b))
			}
			g.order = append(g.order, b)
			for side := range 2 {
				g.zob[side][b] = fitness.Derive(zobristSeed, uint64(side), uint64(b))
			}
			g.centre[b] = 1 - max(spread(float64(row), cr), spread(float64(col), cc))
		}
	}
	// Lines: walk each direction from every cell that has no predecessor.
	steps := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} // (drow, dcol)
	for d, st := range steps {
		for row := range r.N {
			for col := range r.M {
				if g.inside(row-st[0], col-st[1]) {
					continue // not the start of a line
				}
				var line []int
				for rr, c := row, col; g.inside(rr, c); rr, c = rr+st[0], c+st[1] {
					line = append(line, g.bit(rr, c))
				}
				for i := 0; i+r.K <= len(line); i++ {
					for _, b := range line[i : i+r.K] {
						windows[b]++
					}
				}
				if len(line) < r.K {
					continue // no room for a win: the evaluation ignores it
				}
				for i, b := range line {
					g.lineAt[b][d] = linePos{line: len(g.lines), pos: i}
				}
				g.lines = append(g.lines, line)
			}
		}
	}
	// The perfect player tries cells in this order: a cell on many
	// possible lines both threatens and blocks the most.
	slices.SortStableFunc(g.order, func(a, b int) int {
		if c := cmp.Compare(windows[b], windows[a]); c != 0 {
			return c
		}
		return cmp.Compare(g.centre[b], g.centre[a])
	})
	return g
}

// spread is how far x is from the middle m of its axis, from 0 to 1.
func spread(x, m float64) float64 {
	if m == 0 {
		return 0
	}
	return math.Abs(x-m) / m
}

func (g *geom) bit(row, col int) int { return row*g.stride + col }

func (g *geom) inside(row, col int) bool { return row >= 0 && row < g.N && col >= 0 && col < g.M }

// rowCol is the inverse of bit.
func (g *geom) rowCol(b int) (row, col int) { return b / g.stride, b % g.stride }

// hasLine reports whether marks hold K or more in a row. Per direction, d
// rounds of x &= x>>(n*step) with doubling n leave the cells that start a
// run of 2^d; one more shift by what is missing reaches K.
func (g *geom) hasLine(marks bits128.Bits) bool {
	k := g.K
	for _, step := range g.dirs {
		x, n := marks, 1
		for 2*n <= k && !x.Empty() {
			x = x.And(x.Shr(uint(n) * step))
			n *= 2
		}
		if n < k {
			x = x.And(x.Shr(uint(k-n) * step))
		}
		if !x.Empty() {
			return true
		}
	}
	return false
}

// wins returns the free cells where one more mark would give marks K in a
// row. For each direction, ahead[j] holds the cells whose next j cells in
// that direction are marked, behind[j] the same looking back; a cell
// completes a line when ahead[i] and behind[K-1-i] both hold it.
func (g *geom) wins(marks, free bits128.Bits) bits128.Bits {
	var out bits128.Bits
	// Lines longer than 16 exist only on long thin boards; they pay for
	// an allocation, the rest keep the runs on the stack.
	var aheadBuf, behindBuf [16]bits128.Bits
	ahead, behind := aheadBuf[:], behindBuf[:]
	if g.K > len(ahead) {
		ahead, behind = make([]bits128.Bits, g.K), make([]bits128.Bits, g.K)
	}
	all := bits128.Bits{Lo: ^uint64(0), Hi: ^uint64(0)}
	for _, step := range g.dirs {
		ahead[0], behind[0] = all, all
		for j := 1; j < g.K; j++ {
			ahead[j] = marks.And(ahead[j-1]).Shr(step)
			behind[j] = marks.And(behind[j-1]).Shl(step)
			if ahead[j].Empty() && behind[j].Empty() {
				// Longer runs are empty too; only the splits with short
				// runs on both sides remain possible, and for those one
				// side needs at least (K-1)/2 marks.
				for ; j < g.K; j++ {
					ahead[j], behind[j] = bits128.Bits{}, bits128.Bits{}
				}
			}
		}
		for i := range g.K {
			out = out.Or(ahead[i].And(behind[g.K-1-i]))
		}
	}
	return out.And(free)
}

// live reports whether marks' side can still make a line somewhere: some
// K-cell window holds none of the opponent's marks (open = cells that are
// not the opponent's).
func (g *geom) live(open bits128.Bits) bool { return g.hasLine(open.And(g.full)) }
