package battleship

import "math/bits"

// This file is the posterior shooter's two-shot lookahead (fire:
// lookahead). Firing at the likeliest cell maximises the chance of a hit
// now and nothing else; a shot also tells where the next one should go.
// The lookahead fires at the cell c that maximises the expected hits of
// two shots, c and then the likeliest cell given c's result:
//
//	P(c) + P(c) max_d P(d | c hit) + P(not c) max_d P(d | c missed)
//	= P(c) + max_d P(c, d) + max_d (P(d) - P(c, d)),
//
// d ranging over the open cells other than c. The joint P(c, d) is the
// weight of the layouts that cover both, tallied from the same weighted
// layouts as the marginals (sampled or enumerated), so it costs one pass
// over each layout's pairs of open ship cells: at most 17 x 17 a layout
// on the classic fleet. A hit's sunk notice is not told apart from a
// plain hit: the second shot's choice is approximated by the marginals
// given hit or miss alone.

// pairTally is the weighted count of layouts covering both of two cells,
// dense over the board's cells.
type pairTally struct {
	n int       // cells a side
	w []float64 // w[c*n+d]
}

func newPairTally(cells int) *pairTally {
	return &pairTally{n: cells, w: make([]float64, cells*cells)}
}

func (t *pairTally) reset() { clear(t.w) }

// add tallies one layout whose open ship cells are open, with weight w.
func (t *pairTally) add(open Bits, w float64) {
	var cells [MaxCells]int
	m := 0
	for wi, x := range [2]uint64{open.Lo, open.Hi} {
		for ; x != 0; x &= x - 1 {
			cells[m] = wi<<6 | bits.TrailingZeros64(x)
			m++
		}
	}
	for _, c := range cells[:m] {
		row := t.w[c*t.n : (c+1)*t.n]
		for _, d := range cells[:m] {
			row[d] += w
		}
	}
}

// scale multiplies every count by s (1/total weight: counts become
// probabilities).
func (t *pairTally) scale(s float64) {
	for i := range t.w {
		t.w[i] *= s
	}
}

// lookahead returns the open cell with the most expected hits in two
// shots, given the marginals prob and the joint probabilities in t; the
// likelier cell, then the lowest, on a tie.
func (t *pairTally) lookahead(prob *[MaxCells]float64, open Bits) int {
	var cells [MaxCells]int
	m := 0
	for wi, x := range [2]uint64{open.Lo, open.Hi} {
		for ; x != 0; x &= x - 1 {
			cells[m] = wi<<6 | bits.TrailingZeros64(x)
			m++
		}
	}
	best, bestV := open.First(), -1.0
	for _, c := range cells[:m] {
		row := t.w[c*t.n : (c+1)*t.n]
		hit, miss := 0.0, 0.0
		for _, d := range cells[:m] {
			if d == c {
				continue
			}
			hit = max(hit, row[d])
			miss = max(miss, prob[d]-row[d])
		}
		v := prob[c] + hit + miss
		if v > bestV || v == bestV && prob[c] > prob[best] {
			best, bestV = c, v
		}
	}
	return best
}
