// Package stats holds the statistics evotune reports about players: means
// with Student's t intervals, paired differences of two players measured
// on the same deals, the pentanomial figures of seat-swapped game pairs
// (score, logistic Elo and normalised Elo, each with an interval from the
// variance of the pairs), the Wilson interval of unpaired games, and the
// sequential probability ratio tests of `evotune sprt`: the generalised
// SPRT on the pentanomial model as fishtest computes it, and its normal
// counterpart for a paired difference of costs.
//
// docs/statistics.md states every formula with its references. The
// package imports nothing of evotune: its inputs are counts and numbers.
package stats
