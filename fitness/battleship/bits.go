package battleship

import "math/bits"

// MaxCells is the largest board the bitboards hold.
const MaxCells = 128

// Bits is a set of board cells, cell i = row*W + col, in two words.
type Bits struct{ Lo, Hi uint64 }

// Cell returns the set holding only cell i.
func Cell(i int) Bits {
	if i < 64 {
		return Bits{Lo: 1 << uint(i)}
	}
	return Bits{Hi: 1 << uint(i-64)}
}

// Has reports whether cell i is in the set.
func (b Bits) Has(i int) bool {
	if i < 64 {
		return b.Lo>>uint(i)&1 != 0
	}
	return b.Hi>>uint(i-64)&1 != 0
}

// Set returns b with cell i added.
func (b Bits) Set(i int) Bits { return b.Or(Cell(i)) }

// Or returns the union.
func (b Bits) Or(c Bits) Bits { return Bits{b.Lo | c.Lo, b.Hi | c.Hi} }

// And returns the intersection.
func (b Bits) And(c Bits) Bits { return Bits{b.Lo & c.Lo, b.Hi & c.Hi} }

// AndNot returns the cells of b not in c.
func (b Bits) AndNot(c Bits) Bits { return Bits{b.Lo &^ c.Lo, b.Hi &^ c.Hi} }

// Empty reports whether the set is empty.
func (b Bits) Empty() bool { return b.Lo|b.Hi == 0 }

// Meets reports whether b and c share a cell.
func (b Bits) Meets(c Bits) bool { return b.Lo&c.Lo|b.Hi&c.Hi != 0 }

// Count returns the number of cells.
func (b Bits) Count() int { return bits.OnesCount64(b.Lo) + bits.OnesCount64(b.Hi) }

// First returns the lowest cell, or -1 for the empty set.
func (b Bits) First() int {
	if b.Lo != 0 {
		return bits.TrailingZeros64(b.Lo)
	}
	if b.Hi != 0 {
		return 64 + bits.TrailingZeros64(b.Hi)
	}
	return -1
}

// Nth returns the n-th lowest cell (from 0); n must be below Count.
func (b Bits) Nth(n int) int {
	lo := bits.OnesCount64(b.Lo)
	w, base := b.Lo, 0
	if n >= lo {
		w, base, n = b.Hi, 64, n-lo
	}
	for ; n > 0; n-- {
		w &= w - 1
	}
	return base + bits.TrailingZeros64(w)
}

// Cells appends the cells of b in increasing order to dst.
func (b Bits) Cells(dst []int) []int {
	for w := b.Lo; w != 0; w &= w - 1 {
		dst = append(dst, bits.TrailingZeros64(w))
	}
	for w := b.Hi; w != 0; w &= w - 1 {
		dst = append(dst, 64+bits.TrailingZeros64(w))
	}
	return dst
}
