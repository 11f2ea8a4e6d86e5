package hadron

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
		Legal:        b.legal.count(),
		SpecialWhite: w.count(),
		SpecialBlack: k.count(),
		NonSpecial:   b.legal.andNot(w.or(k)).count(),
	}
}

// SpecialCells lists the special moves owned by White and by Black. A
// cell may be in both lists when it guards two cells of opposite
// balance.
func (b *Board) SpecialCells() (white, black []Cell) {
	w, k := b.specials()
	return b.cellsOf(w), b.cellsOf(k)
}

// specials finds the special moves with bitboards. A cell P that is empty,
// one stone short of balance (plus or minus) and has exactly one empty
// neighbour R is settled by whoever plays R: the colour P already leans to
// keeps it unplayable, the other colour unlocks it. So R, if legal, is a
// special move owned by the colour P leans to. Like the original, this
// looks at the first ring of neighbours only: the weak form.
func (b *Board) specials() (white, black set) {
	g := b.g
	free := g.full.andNot(b.occ)
	e, w, s, n := g.east(free), g.west(free), g.south(free), g.north(free)
	odd := e.xor(w).xor(s).xor(n)
	pairs := e.and(w).or(s.and(n)).or(e.xor(w).and(s.xor(n)))
	one := odd.andNot(pairs) // exactly one free neighbour
	white = g.around(b.plus.and(one)).and(b.legal)
	black = g.around(b.minus.and(one)).and(b.legal)
	return white, black
}
