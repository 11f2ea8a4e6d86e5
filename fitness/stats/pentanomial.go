package stats

import (
	"fmt"
	"math"
)

// Pentanomial counts seat-swapped game pairs by what one player scored
// over the pair (win 1, draw 1/2, loss 0): index k counts the pairs that
// scored k/2, so [0] two losses, [1] a loss and a draw, [2] a win and a
// loss or two draws, [3] a win and a draw, [4] two wins. The two games of
// a pair share a deal, so they are not independent: a seat that favours
// its player shows as pairs that split 1-1, and the variance of the pairs
// is what the figures below take, not that of single games.
type Pentanomial [5]int

// Add counts one pair from the scores of its two games (each 0, 1/2 or
// 1), seen from the same player.
func (p *Pentanomial) Add(first, second float64) {
	p[int(math.Round(2*(first+second)))]++
}

// Merge adds another count.
func (p *Pentanomial) Merge(q Pentanomial) {
	for i := range p {
		p[i] += q[i]
	}
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Games is the number of games counted, two a pair.
func (p Pentanomial) Games() int { return 2 * p.Pairs() }

// regularizedEpsilon stands in for a count of 0, as fishtest does
// (LLRcalc.regularize), so that logarithms and the secular equation stay
// finite; it moves no figure by more than 1e-3 of a pair.
const regularizedEpsilon = 1e-3

// pdf is the empirical distribution of a pair's mean score (k/4), zero
// counts regularised, and the regularised number of pairs.
func (p Pentanomial) pdf() (n float64, pdf [5]float64) {
	var c [5]float64
	for i, k := range p {
		c[i] = float64(k)
		if k == 0 {
			c[i] = regularizedEpsilon
		}
		n += c[i]
	}
	for i := range c {
		pdf[i] = c[i] / n
	}
	return n, pdf
}

// pairValues are a pair's mean scores by index.
var pairValues = [5]float64{0, 0.25, 0.5, 0.75, 1}

// moments of a distribution over pairValues: mean, variance, skewness,
// excess kurtosis.
func moments(pdf [5]float64) (mean, variance, skew, exkurt float64) {
	for i, q := range pdf {
		mean += q * pairValues[i]
	}
	var m3, m4 float64
	for i, q := range pdf {
		d := pairValues[i] - mean
		variance += q * d * d
		m3 += q * d * d * d
		m4 += q * d * d * d * d
	}
	return mean, variance, m3 / math.Pow(variance, 1.5), m4/(variance*variance) - 3
}

// Score is the mean score per game with its 95% normal interval from the
// variance of the pairs' mean scores, as fishtest's get_elo computes it:
// mean +- z * sqrt(var_pair / pairs), the variance that of the
// regularised counts, clipped to [0, 1]. The mean is the counts' own, not
// the regularised one (which moves it by less than 1e-3 of a pair), so it
// is the score the games made.
func (p Pentanomial) Score() Estimate {
	pairs := p.Pairs()
	if pairs == 0 {
		return Estimate{Value: math.NaN(), CI95: [2]float64{0, 1}}
	}
	n, pdf := p.pdf()
	_, variance, _, _ := moments(pdf)
	var sum float64
	for i, k := range p {
		sum += float64(k) * pairValues[i]
	}
	mean := sum / float64(pairs)
	half := Z95 * math.Sqrt(variance/n)
	return Estimate{Value: mean, CI95: [2]float64{max(0, mean-half), min(1, mean+half)}, N: pairs}
}

// Elo is the logistic Elo difference of the score, -400 log10(1/s - 1),
// its interval the Elo of the score's bounds. A score of 0 or 1 has no
// finite Elo: scores are clamped to [0.001, 0.999] first, as fishtest's
// stat_util.elo does, so the figure never passes +-1200.
func (p Pentanomial) Elo() Estimate {
	s := p.Score()
	if p.Pairs() == 0 {
		return Estimate{Value: math.NaN(), CI95: [2]float64{math.Inf(-1), math.Inf(1)}}
	}
	return Estimate{Value: EloOf(s.Value), CI95: [2]float64{EloOf(s.CI95[0]), EloOf(s.CI95[1])}, N: s.N}
}

// NormalizedElo is the normalised Elo of the pairs: the score's distance
// from 1/2 in standard deviations of a game's score, scaled by 800/ln 10
// so that it equals logistic Elo for small differences without draws.
// Its interval is that of the t-value (mean - 1/2)/sd under the
// distribution's skewness and kurtosis, as fishtest's raw statistics
// compute it (var_t = 1 - t*skew + t^2 (exkurt + 2) / 4).
func (p Pentanomial) NormalizedElo() Estimate {
	if p.Pairs() == 0 {
		return Estimate{Value: math.NaN(), CI95: [2]float64{math.Inf(-1), math.Inf(1)}}
	}
	n, pdf := p.pdf()
	mean, variance, skew, exkurt := moments(pdf)
	t := (mean - 0.5) / math.Sqrt(variance)
	varT := max(0, 1-t*skew+0.25*t*t*(exkurt+2))
	half := Z95 * math.Sqrt(varT/n)
	// A pair's mean score has half a game's variance when the games are
	// independent: per game, t is divided by sqrt 2.
	scale := neloPerNT / math.Sqrt2
	return Estimate{Value: scale * t, CI95: [2]float64{scale * (t - half), scale * (t + half)}, N: p.Pairs()}
}

// String is "[a, b, c, d, e]": the counts from two losses up.
func (p Pentanomial) String() string {
	return fmt.Sprintf("[%d, %d, %d, %d, %d]", p[0], p[1], p[2], p[3], p[4])
}

// neloPerNT converts a normalised t-value to normalised Elo: 800/ln 10.
var neloPerNT = 800 / math.Ln10

// eloClamp is the score fishtest's stat_util.elo clamps to.
const eloClamp = 1e-3

// EloOf is the logistic Elo difference at which the expected score is s,
// s clamped to [0.001, 0.999].
func EloOf(s float64) float64 {
	s = min(max(s, eloClamp), 1-eloClamp)
	return -400 * math.Log10(1/s-1)
}

// ScoreOf is the expected score at a logistic Elo difference.
func ScoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }
