package hadron

import (
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

// Board is a Hadron position: the stones, the side to move, and the legal
// cells, which are kept up to date move by move rather than recomputed.
//
// A cell is legal when it is empty and its orthogonal neighbours hold as
// many white as black stones. Each cell keeps that balance (white minus
// black neighbours) in diff; a stone changes the balance of at most four
// cells, so a move touches at most five cells of the legal set.
//
// The zero Board is not usable; build one with NewBoard or ParseBoard. A
// Board is a value: copying it copies the position.
type Board struct {
	g      *geom
	stones [2]bits128.Bits // White, Black
	occ    bits128.Bits    // stones[0] | stones[1]
	legal  bits128.Bits
	// plus and minus are the empty cells whose balance is +1 and -1: one
	// stone away from legal. The special-move heuristic and the bulk
	// counts of perft read them.
	plus, minus bits128.Bits
	diff        [maxCells]int8
	hash        uint64
	toMove      Color
}

// zobrist holds a random key per colour and cell, derived from a fixed
// constant so hashes are the same in every run.
var zobrist [2][maxCells]uint64

func init() {
	for s := range zobrist {
		for i := range zobrist[s] {
			zobrist[s][i] = fitness.Derive(0x4861_6472_6f6e, uint64(s), uint64(i))
		}
	}
}

// NewBoard returns the empty board of the given size, White to move.
func NewBoard(size int) (*Board, error) {
	if err := checkSize(size); err != nil {
		return nil, err
	}
	b := newBoard(geoms[size])
	return &b, nil
}

func checkSize(size int) error {
	if size < MinSize {
		return fmt.Errorf("hadron: size %d: must be at least %d", size, MinSize)
	}
	if size > MaxSize {
		return fmt.Errorf("hadron: size %d: must be at most %d", size, MaxSize)
	}
	return nil
}

func newBoard(g *geom) Board {
	return Board{g: g, legal: g.full, toMove: White}
}

// Size is the number of rows (and columns).
func (b *Board) Size() int { return b.g.n }

// ToMove is the colour whose turn it is.
func (b *Board) ToMove() Color { return b.toMove }

// At returns what occupies c (Empty off the board).
func (b *Board) At(c Cell) Color {
	i, ok := b.index(c)
	switch {
	case !ok:
		return Empty
	case b.stones[0].Has(i):
		return White
	case b.stones[1].Has(i):
		return Black
	}
	return Empty
}

// NumLegal is the number of cells the side to move may play.
func (b *Board) NumLegal() int { return b.legal.Count() }

// Legal lists the cells the side to move may play, row by row.
func (b *Board) Legal() []Cell { return b.cellsOf(b.legal) }

// IsLegal reports whether the side to move may play c.
func (b *Board) IsLegal(c Cell) bool {
	i, ok := b.index(c)
	return ok && b.legal.Has(i)
}

// Over reports whether the side to move has no legal cell, and so has
// lost: Hadron has no passing and no draws.
func (b *Board) Over() bool { return b.legal.Empty() }

// Winner is the winner of a finished game, Empty while it goes on.
func (b *Board) Winner() Color {
	if b.Over() {
		return b.toMove.Other()
	}
	return Empty
}

// Play puts a stone of the side to move on c.
func (b *Board) Play(c Cell) error {
	i, ok := b.index(c)
	if !ok {
		return fmt.Errorf("hadron: %v: not on a %dx%d board", c, b.g.n, b.g.n)
	}
	if !b.legal.Has(i) {
		return fmt.Errorf("hadron: %v: not a legal cell for %v", c, b.toMove)
	}
	b.place(i)
	return nil
}

func (b *Board) index(c Cell) (int, bool) {
	n := b.g.n
	if c.Row < 0 || c.Row >= n || c.Col < 0 || c.Col >= n {
		return 0, false
	}
	return c.Row*n + c.Col, true
}

func (b *Board) cell(i int) Cell { return Cell{i / b.g.n, i % b.g.n} }

func (b *Board) cellsOf(s bits128.Bits) []Cell {
	var buf [maxCells]int8
	idx := bits128.AppendCells(buf[:0], s)
	out := make([]Cell, len(idx))
	for k, i := range idx {
		out[k] = b.cell(int(i))
	}
	return out
}

// place puts a stone of the side to move on the legal cell i.
func (b *Board) place(i int) {
	s := b.toMove
	m := bits128.Cell(i)
	b.stones[s.side()&1] = b.stones[s.side()&1].Or(m)
	b.occ = b.occ.Or(m)
	b.legal = b.legal.AndNot(m)
	b.hash ^= zobrist[s.side()&1][i]
	sg := s.sign()
	g := b.g
	for k := range g.deg[i] {
		j := int(g.adj[i][k])
		b.diff[j] += sg
		b.refresh(j)
	}
	b.toMove = s.Other()
}

// undo takes back place(i), the last move.
func (b *Board) undo(i int) {
	b.retract(i)
	g := b.g
	for k := range g.deg[i] {
		b.refresh(int(g.adj[i][k]))
	}
	b.refresh(i)
}

// retract takes back place(i) but for the legal, plus and minus sets:
// the stone, the hash, the balances and the side to move.
func (b *Board) retract(i int) {
	s := b.toMove.Other()
	b.toMove = s
	m := bits128.Cell(i)
	b.stones[s.side()&1] = b.stones[s.side()&1].AndNot(m)
	b.occ = b.occ.AndNot(m)
	b.hash ^= zobrist[s.side()&1][i]
	sg := s.sign()
	g := b.g
	for k := range g.deg[i] {
		b.diff[g.adj[i][k]] -= sg
	}
}

// derived are the sets place updates from the balances: a search saves
// them before a move and restores them after it (unplace) rather than
// recompute them.
type derived struct{ legal, plus, minus bits128.Bits }

func (b *Board) derived() derived { return derived{b.legal, b.plus, b.minus} }

// unplace takes back place(i), the last move, as undo does, restoring the
// derived sets d saved before the move instead of recomputing them:
// they are a function of the stones and balances, which come back
// exactly.
func (b *Board) unplace(i int, d derived) {
	b.retract(i)
	b.legal, b.plus, b.minus = d.legal, d.plus, d.minus
}

// refresh recomputes cell i's membership of legal, plus and minus from
// its balance.
func (b *Board) refresh(i int) {
	m := bits128.Cell(i)
	b.legal = b.legal.AndNot(m)
	b.plus = b.plus.AndNot(m)
	b.minus = b.minus.AndNot(m)
	if !b.occ.And(m).Empty() {
		return
	}
	switch b.diff[i] {
	case 0:
		b.legal = b.legal.Or(m)
	case 1:
		b.plus = b.plus.Or(m)
	case -1:
		b.minus = b.minus.Or(m)
	}
}

// reset rebuilds every derived field from the stones, for positions that
// were not reached by play (parsed boards).
func (b *Board) reset() {
	g := b.g
	b.occ = b.stones[0].Or(b.stones[1])
	b.hash = 0
	b.diff = [maxCells]int8{}
	for i := range g.cells {
		for s := range 2 {
			if b.stones[s].Has(i) {
				b.hash ^= zobrist[s][i]
				for k := range g.deg[i] {
					b.diff[g.adj[i][k]] += Color(s + 1).sign()
				}
			}
		}
	}
	for i := range g.cells {
		b.refresh(i)
	}
}

// afterCount is the number of legal cells the opponent has after the side
// to move plays the legal cell i, without playing it: i and its legal
// neighbours drop out, and the neighbours the stone brings back to
// balance come in.
func (b *Board) afterCount(i int) int {
	back := b.minus
	if b.toMove == Black {
		back = b.plus
	}
	nb := b.g.nbr[i]
	return b.legal.Count() - 1 - b.legal.And(nb).Count() + back.And(nb).Count()
}
