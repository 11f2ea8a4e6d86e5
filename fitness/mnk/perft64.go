package mnk

import "math/bits"

// board64 is the layout of geom for boards whose padded cells fit in one
// machine word ((M+1)*N <= 64: Connect Four's 7x6 takes 56 bits), for the
// fast perft. Move generation is a few word operations: under gravity the
// playable cells are the empty ones on the bottom row or right above a
// chip, and a whole column of children is counted from the parent without
// being played (see perft).
type board64 struct {
	full, bottom uint64
	stride       uint
	dirs         [4]uint
	k            int
	gravity      bool
	cells        int
}

// maxK64 is the longest line the one-word path handles; longer ones,
// found only on boards one row or column wide, take the general path.
const maxK64 = 8

// board64 returns the one-word layout of g, if it fits.
func (g *geom) board64() (board64, bool) {
	if g.stride*g.N > 64 || g.K > maxK64 {
		return board64{}, false
	}
	b := board64{full: g.full.Lo, bottom: g.bottom.Lo, stride: uint(g.stride), k: g.K, gravity: g.Gravity, cells: g.cells}
	b.dirs = g.dirs
	return b, true
}

// moves is geom.moves on one word.
func (b *board64) moves(occ uint64) uint64 {
	free := b.full &^ occ
	if !b.gravity {
		return free
	}
	return free & (occ>>b.stride | b.bottom)
}

// wins is geom.wins on one word: the cells of cand that give marks K in a
// row. ahead and behind hold, per direction, the cells whose next j cells
// one way are all marked; a cell completes a line when the runs on its two
// sides add up to K-1.
func (b *board64) wins(marks, cand uint64) uint64 {
	var out uint64
	var ahead, behind [maxK64]uint64 // fixed size: no allocation, little to clear
	for _, d := range b.dirs {
		ahead[0], behind[0] = ^uint64(0), ^uint64(0)
		for j := 1; j < b.k; j++ {
			ahead[j] = (marks & ahead[j-1]) >> d
			behind[j] = (marks & behind[j-1]) << d
		}
		for i := range b.k {
			out |= ahead[i] & behind[b.k-1-i]
		}
	}
	return out & cand
}

// perft adds the children of the unfinished position (mover's marks me,
// the other's you, ply marks placed) to counts[ply], and their children
// below them. One ply above the leaves it counts in bulk: each child that
// neither wins nor fills the board has as many moves as its parent less
// the one played, plus, under gravity, the cell above it if there is one.
func (b *board64) perft(me, you uint64, ply int, counts []uint64) {
	occ := me | you
	moves := b.moves(occ)
	n := uint64(bits.OnesCount64(moves))
	counts[ply] += n
	if ply == len(counts)-1 || n == 0 {
		return
	}
	open := moves &^ b.wins(me, moves) // children that go on
	if ply+1 == b.cells {
		return // the last cell fills the board
	}
	if ply == len(counts)-2 {
		c := uint64(bits.OnesCount64(open)) * (n - 1)
		if b.gravity {
			c += uint64(bits.OnesCount64(open >> b.stride & b.full &^ occ))
		}
		counts[ply+1] += c
		return
	}
	for m := open; m != 0; m &= m - 1 {
		b.perft(you, me|m&-m, ply+1, counts)
	}
}
