// Package bits128 is the 128-bit set of board cells that the games'
// bitboards share: Battleship's ships and shots, Hadron's stones and legal
// moves, the m,n,k family's marks. Cell i is bit i (row*width + col, or a
// game's padded layout); two words hold boards up to 128 cells.
//
// Bits is a struct of two words, not an array or a slice, because the
// compiler keeps small structs in registers, and every method is small
// enough to inline: the searches copy and combine sets at every node, and
// a set costs what two uint64s cost.
package bits128

import "math/bits"

// Size is the number of cells a set can hold.
const Size = 128

// Bits is a set of cells 0 to 127. The zero value is the empty set.
type Bits struct{ Lo, Hi uint64 }

// Cell returns the set holding only cell i, or the empty set when i is
// outside [0, 128).
func Cell(i int) Bits {
	if i < 64 {
		return Bits{Lo: 1 << uint(i)}
	}
	return Bits{Hi: 1 << uint(i-64)}
}

// Has reports whether cell i is in the set (false outside [0, 128)).
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

// Xor returns the cells in exactly one of b and c.
func (b Bits) Xor(c Bits) Bits { return Bits{b.Lo ^ c.Lo, b.Hi ^ c.Hi} }

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

// Rest returns the set without its lowest cell; with First it walks the
// cells in increasing order:
//
//	for s := b; !s.Empty(); s = s.Rest() { use(s.First()) }
func (b Bits) Rest() Bits {
	if b.Lo != 0 {
		return Bits{b.Lo & (b.Lo - 1), b.Hi}
	}
	return Bits{0, b.Hi & (b.Hi - 1)}
}

// Nth returns the n-th lowest cell (from 0); n must be below Count.
func (b Bits) Nth(n int) int {
	w, base := b.Lo, 0
	if lo := bits.OnesCount64(b.Lo); n >= lo {
		w, base, n = b.Hi, 64, n-lo
	}
	for ; n > 0; n-- {
		w &= w - 1
	}
	return base + bits.TrailingZeros64(w)
}

// Cells appends the cells of b in increasing order to dst.
func (b Bits) Cells(dst []int) []int { return AppendCells(dst, b) }

// AppendCells appends the cells of b in increasing order to dst, as
// whatever integer type the caller indexes its cells with.
func AppendCells[T ~int | ~int8 | ~int16 | ~int32](dst []T, b Bits) []T {
	for w := b.Lo; w != 0; w &= w - 1 {
		dst = append(dst, T(bits.TrailingZeros64(w)))
	}
	for w := b.Hi; w != 0; w &= w - 1 {
		dst = append(dst, T(64+bits.TrailingZeros64(w)))
	}
	return dst
}

// Shl moves every cell up by n (cell i becomes cell i+n); cells pushed
// past 127 drop out.
func (b Bits) Shl(n uint) Bits {
	if n >= 64 {
		return Bits{0, b.Lo << (n - 64)}
	}
	return Bits{b.Lo << n, b.Hi<<n | b.Lo>>(64-n)}
}

// Shr moves every cell down by n (cell i becomes cell i-n); cells pushed
// below 0 drop out.
func (b Bits) Shr(n uint) Bits {
	if n >= 64 {
		return Bits{b.Hi >> (n - 64), 0}
	}
	return Bits{b.Lo>>n | b.Hi<<(64-n), b.Hi >> n}
}
