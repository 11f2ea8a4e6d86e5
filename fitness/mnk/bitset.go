package mnk

import "math/bits"

// bitset is a set of up to 128 cells, one bit per cell of the padded board
// (see geom). Two words rather than a slice keep it a value type that costs
// nothing to copy, which the searches do at every node.
type bitset struct{ lo, hi uint64 }

// cell returns the set holding only bit i.
func cell(i int) bitset {
	if i < 64 {
		return bitset{lo: 1 << uint(i)}
	}
	return bitset{hi: 1 << uint(i-64)}
}

func (a bitset) and(b bitset) bitset    { return bitset{a.lo & b.lo, a.hi & b.hi} }
func (a bitset) or(b bitset) bitset     { return bitset{a.lo | b.lo, a.hi | b.hi} }
func (a bitset) andNot(b bitset) bitset { return bitset{a.lo &^ b.lo, a.hi &^ b.hi} }
func (a bitset) empty() bool            { return a.lo|a.hi == 0 }
func (a bitset) count() int             { return bits.OnesCount64(a.lo) + bits.OnesCount64(a.hi) }

func (a bitset) has(i int) bool {
	if i < 64 {
		return a.lo>>uint(i)&1 != 0
	}
	return a.hi>>uint(i-64)&1 != 0
}

// first returns the lowest member; the set must not be empty.
func (a bitset) first() int {
	if a.lo != 0 {
		return bits.TrailingZeros64(a.lo)
	}
	return 64 + bits.TrailingZeros64(a.hi)
}

// rest returns the set without its lowest member.
func (a bitset) rest() bitset {
	if a.lo != 0 {
		return bitset{a.lo & (a.lo - 1), a.hi}
	}
	return bitset{0, a.hi & (a.hi - 1)}
}

// nth returns the n-th lowest member (from 0); n must be below count().
func (a bitset) nth(n int) int {
	if c := bits.OnesCount64(a.lo); n >= c {
		n -= c
		a.lo = 0
	}
	for range n {
		a = a.rest()
	}
	return a.first()
}

// shl moves every member up by n cells; members pushed past bit 127 drop.
func (a bitset) shl(n uint) bitset {
	if n >= 64 {
		return bitset{0, a.lo << (n - 64)}
	}
	return bitset{a.lo << n, a.hi<<n | a.lo>>(64-n)}
}

// shr moves every member down by n cells; members pushed below bit 0 drop.
func (a bitset) shr(n uint) bitset {
	if n >= 64 {
		return bitset{a.hi >> (n - 64), 0}
	}
	return bitset{a.lo>>n | a.hi<<(64-n), a.hi >> n}
}
