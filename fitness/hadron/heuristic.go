package hadron

import "github.com/evotune/evotune/internal/bits128"

// Features are the quantities Aenigma's heuristic reads off a position
// (see the package doc for the definitions).
type Features struct {
	Legal        int // legal cells
	SpecialWhite int // legal cells that are special moves owned by White
	SpecialBlack int // ... owned by Black
	NonSpecial   int // legal cells that are special for neither colour
}

// Specials is hSpecialMoves: the special moves owned by c minus those
// owned by its opponent.
func (f Features) Specials(c Color) int {
	if c == Black {
		return f.SpecialBlack - f.SpecialWhite
	}
	return f.SpecialWhite - f.SpecialBlack
}

// Parity is hParity: +1 when the number of non-special legal cells is
// odd (the side to move takes the last of them), -1 when it is even.
func (f Features) Parity() int {
	if f.NonSpecial%2 == 1 {
		return 1
	}
	return -1
}

// Features computes the heuristic's inputs for the position.
func (b *Board) Features() Features {
	w, k := b.specials()
	return Features{
		Legal:        b.legal.Count(),
		SpecialWhite: w.Count(),
		SpecialBlack: k.Count(),
		NonSpecial:   b.legal.AndNot(w.Or(k)).Count(),
	}
}

// SpecialCells lists the special moves owned by White and by Black. A
// cell may be in both lists when it guards two cells of opposite
// balance.
func (b *Board) SpecialCells() (white, black []Cell) {
	w, k := b.specials()
	return b.cellsOf(w), b.cellsOf(k)
}

// specials finds the special moves with bitboards. A cell P that is empty
// and one stone short of balance (plus or minus) is settled by whoever
// plays its neighbour R when every other neighbour of P is already settled:
// occupied by a stone, or empty and not playable. Then the colour P leans
// to keeps it unplayable by playing R and the other colour unlocks it, so
// R, if legal, is a special move owned by the colour P leans to. As in
// Aenigma (seed 004, section 1.3), "not playable" is read at the first ring
// only: an empty neighbour that is not legal now counts as settled, whatever
// later moves could do to it (no chains). Since R itself must be legal,
// this is: P has exactly one legal neighbour, and that neighbour is R.
func (b *Board) specials() (white, black bits128.Bits) {
	g := b.g
	legal := b.legal
	e, w, s, n := g.east(legal), g.west(legal), g.south(legal), g.north(legal)
	odd := e.Xor(w).Xor(s).Xor(n)
	pairs := e.And(w).Or(s.And(n)).Or(e.Xor(w).And(s.Xor(n)))
	one := odd.AndNot(pairs) // exactly one legal neighbour
	white = g.around(b.plus.And(one)).And(legal)
	black = g.around(b.minus.And(one)).And(legal)
	return white, black
}
