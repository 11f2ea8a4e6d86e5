package hadron

import "math/bits"

// Perft counts the distinct legal move sequences of exactly depth moves
// from the position. A sequence that reaches a position with no legal
// cell before depth moves ends the game and is not counted. Perft(0) is 1.
func (b *Board) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	c := *b // the walk plays and takes back moves on a private copy
	return c.perft(depth)
}

func (b *Board) perft(d int) uint64 {
	switch d {
	case 1:
		return uint64(b.legal.Count())
	case 2:
		return b.perft2()
	}
	var total uint64
	l := b.legal
	for w := l.Lo; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		b.place(i)
		total += b.perft(d - 1)
		b.undo(i)
	}
	for w := l.Hi; w != 0; w &= w - 1 {
		i := 64 + bits.TrailingZeros64(w)
		b.place(i)
		total += b.perft(d - 1)
		b.undo(i)
	}
	return total
}

// perft2 counts the two-move sequences without playing any move: the sum
// over legal cells i of afterCount(i), done for all i at once with
// shifts. Each move removes itself and its legal neighbours and brings in
// its neighbours one stone short of balance the mover's way, so
//
//	sum_i afterCount(i) = L(L-1) - #(legal, legal adjacent pairs, ordered)
//	                             + #(legal i, back j adjacent, ordered).
func (b *Board) perft2() uint64 {
	g := b.g
	l := b.legal
	back := b.minus
	if b.toMove == Black {
		back = b.plus
	}
	n := l.Count()
	e, s := g.east(l), g.south(l)
	pairs := 2 * (l.And(e).Count() + l.And(s).Count())
	gained := back.And(e).Count() + back.And(s).Count() + back.And(g.west(l)).Count() + back.And(g.north(l)).Count()
	return uint64(n*(n-1) - pairs + gained)
}
