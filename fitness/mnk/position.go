package mnk

import (
	"github.com/evotune/evotune/internal/bits128"
	"github.com/evotune/evotune/internal/enum"
)

// side is a player's mark. X moves first.
type side uint8

// The sides.
const (
	X side = iota
	O
)

var sideNames = [...]string{X: "X", O: "O"}

func (s side) String() string { return enum.Name(sideNames[:], s, "side") }

// other is the opponent.
func (s side) other() side { return s ^ 1 }

// position is a board and, through ply, whose turn it is.
type position struct {
	marks [2]bits128.Bits // by side
	ply   int             // marks placed so far
}

// toMove is the side whose turn it is.
func (p *position) toMove() side { return side(p.ply & 1) }

func (p *position) occupied() bits128.Bits { return p.marks[X].Or(p.marks[O]) }

// free is the set of empty cells.
func (g *geom) free(p *position) bits128.Bits { return g.full.AndNot(p.occupied()) }

// moves is the set of cells the side to move may mark: every empty cell,
// or under gravity the lowest empty cell of each column that has one,
// which is an empty cell on the bottom row or right above a chip (row r is
// stride bits above row r+1).
func (g *geom) moves(p *position) bits128.Bits {
	free := g.free(p)
	if !g.Gravity {
		return free
	}
	return free.And(p.occupied().Shr(uint(g.stride)).Or(g.bottom))
}

// play puts the mover's mark on bit b, which must be free, and reports
// whether it made a line. The caller checks for a full board.
func (g *geom) play(p *position, b int) (won bool) {
	s := p.toMove()
	p.marks[s] = p.marks[s].Or(bits128.Cell(b))
	p.ply++
	return g.hasLine(p.marks[s])
}

// undo takes back the last mark, which was on bit b.
func (p *position) undo(b int) {
	p.ply--
	s := p.toMove()
	p.marks[s] = p.marks[s].AndNot(bits128.Cell(b))
}

// format draws the board as X, O and '.', row 0 on top.
func (g *geom) format(p *position) string {
	out := make([]byte, 0, (g.M+1)*g.N)
	for row := range g.N {
		for col := range g.M {
			b := g.bit(row, col)
			switch {
			case p.marks[X].Has(b):
				out = append(out, 'X')
			case p.marks[O].Has(b):
				out = append(out, 'O')
			default:
				out = append(out, '.')
			}
		}
		out = append(out, '\n')
	}
	return string(out)
}
