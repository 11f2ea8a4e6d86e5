package hadron

import "math/bits"

// set is a 128-bit bitboard: bit i is cell i = row*size + col. Two words
// hold boards up to 11x11 (121 cells). A struct of two words, not an array
// or a slice, because the compiler keeps small structs in registers and
// arrays in memory.
type set struct{ lo, hi uint64 }

// bit returns the set holding only cell i. Go defines a shift by 64 or
// more as 0, so the word that does not hold i comes out empty without a
// branch.
func bit(i int) set { return set{lo: 1 << uint(i), hi: 1 << uint(i-64)} }

func (a set) and(b set) set    { return set{a.lo & b.lo, a.hi & b.hi} }
func (a set) or(b set) set     { return set{a.lo | b.lo, a.hi | b.hi} }
func (a set) xor(b set) set    { return set{a.lo ^ b.lo, a.hi ^ b.hi} }
func (a set) andNot(b set) set { return set{a.lo &^ b.lo, a.hi &^ b.hi} }
func (a set) empty() bool      { return a.lo|a.hi == 0 }
func (a set) has(i int) bool   { return (a.lo>>uint(i)|a.hi>>uint(i-64))&1 != 0 }
func (a set) count() int       { return bits.OnesCount64(a.lo) + bits.OnesCount64(a.hi) }

// up moves every bit k places towards higher indexes (0 < k < 64).
func (a set) up(k uint) set { return set{a.lo << k, a.hi<<k | a.lo>>(64-k)} }

// down moves every bit k places towards lower indexes (0 < k < 64).
func (a set) down(k uint) set { return set{a.lo>>k | a.hi<<(64-k), a.hi >> k} }

// cells appends the indexes of a's cells in increasing order.
func (a set) cells(dst []int8) []int8 {
	for w := a.lo; w != 0; w &= w - 1 {
		dst = append(dst, int8(bits.TrailingZeros64(w)))
	}
	for w := a.hi; w != 0; w &= w - 1 {
		dst = append(dst, int8(64+bits.TrailingZeros64(w)))
	}
	return dst
}

// nth returns the index of a's k-th cell (0-based) in increasing order; k
// must be below a.count().
func (a set) nth(k int) int {
	if n := bits.OnesCount64(a.lo); k >= n {
		k -= n
		w := a.hi
		for ; k > 0; k-- {
			w &= w - 1
		}
		return 64 + bits.TrailingZeros64(w)
	}
	w := a.lo
	for ; k > 0; k-- {
		w &= w - 1
	}
	return bits.TrailingZeros64(w)
}
