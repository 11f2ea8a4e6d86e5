package stats

import (
	"fmt"
	"math"
)

// Verdict is where a sequential test stands.
type Verdict uint8

// The verdicts.
const (
	Continue Verdict = iota // neither bound crossed: play on
	AcceptH0                // the log-likelihood ratio fell to the lower bound
	AcceptH1                // it rose to the upper bound
)

func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// WaldBounds are the bounds of the log-likelihood ratio for error rates
// alpha (accepting H1 when H0 holds) and beta (accepting H0 when H1
// holds): ln(beta/(1-alpha)) and ln((1-beta)/alpha).
func WaldBounds(alpha, beta float64) (lower, upper float64) {
	return math.Log(beta / (1 - alpha)), math.Log((1 - beta) / alpha)
}

// Decide compares a log-likelihood ratio with the bounds.
func Decide(llr, lower, upper float64) Verdict {
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// EloModel is the scale of an SPRT's Elo bounds.
type EloModel uint8

// The Elo models.
const (
	// Logistic Elo: a difference d means an expected score of
	// 1/(1+10^(-d/400)).
	Logistic EloModel = iota
	// Normalized Elo: the expected score's distance from 1/2 in standard
	// deviations of a game's score, times 800/ln 10; its bounds ask for
	// the same number of games whatever the draw ratio.
	Normalized
)

func (m EloModel) String() string {
	if m == Normalized {
		return "normalized"
	}
	return "logistic"
}

// ParseEloModel reads "logistic" or "normalized".
func ParseEloModel(s string) (EloModel, error) {
	switch s {
	case "logistic":
		return Logistic, nil
	case "normalized", "normalised":
		return Normalized, nil
	}
	return 0, fmt.Errorf("stats: elo model %q: want logistic or normalized", s)
}

// SPRT is the generalised sequential probability ratio test of fishtest
// on pentanomial counts: H0 is a strength of Elo0, H1 of Elo1, in the
// Model's Elo. LLR is the generalised log-likelihood ratio, in which each
// hypothesis is the distribution nearest the observed one (maximum
// likelihood) among those of its strength (Van den Bergh's GSPRT).
type SPRT struct {
	Alpha, Beta float64
	Elo0, Elo1  float64
	Model       EloModel
}

// Bounds are the test's Wald bounds.
func (t SPRT) Bounds() (lower, upper float64) { return WaldBounds(t.Alpha, t.Beta) }

// LLR is the generalised log-likelihood ratio of H1 against H0 over the
// pairs counted, as fishtest's LLRcalc.LLR_logistic and LLR_normalized
// compute it (zero counts regularised to 1e-3). No pairs: 0.
func (t SPRT) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	n, pdf := p.pdf()
	var p0, p1 [5]float64
	switch t.Model {
	case Normalized:
		// A pair's t-value is sqrt 2 times a game's.
		t0, t1 := t.Elo0/neloPerNT*math.Sqrt2, t.Elo1/neloPerNT*math.Sqrt2
		p0, p1 = mleTValue(pdf, 0.5, t0), mleTValue(pdf, 0.5, t1)
	default:
		p0, p1 = mleExpected(pdf, ScoreOf(t.Elo0)), mleExpected(pdf, ScoreOf(t.Elo1))
	}
	var llr float64
	for i, q := range pdf {
		llr += q * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr
}

// Decide is the verdict after the pairs counted.
func (t SPRT) Decide(p Pentanomial) Verdict {
	lo, hi := t.Bounds()
	return Decide(t.LLR(p), lo, hi)
}

// Plan is what a sequential test is expected to do against a player of a
// given strength: the probability that it accepts H1 and the expected
// number of games it plays (pairs count two), by the Brownian
// approximation of the log-likelihood ratio (overshoot neglected), as
// fishtest's SPRT calculator (static/js/sprt.js) computes them.
type Plan struct {
	PassProbability float64 `json:"pass_probability"`
	Games           float64 `json:"games"`
}

// brownianPlan is the probability that a Brownian motion with drift
// crosses upper before lower, and its expected crossing time in units of
// (drift^2/variance)^-1, for the drift ratio h (fishtest's PT).
func brownianPlan(lower, upper, h float64) (p, t float64) {
	if math.Abs(h*(lower-upper)) < 1e-6 {
		return -lower / (upper - lower), -lower * upper
	}
	ea, eb := math.Exp(-h*lower), math.Exp(-h*upper)
	p = (1 - ea) / (eb - ea)
	return p, 2 / h * (upper*p + lower*(1-p))
}

// Expected plans the test against a player of logistic Elo elo, given a
// game's score variance; FishtestVariance gives that variance from a draw
// ratio and an RMS bias as fishtest's calculator assumes it.
func (t SPRT) Expected(elo, variance float64) Plan {
	if !(variance > 0) {
		return Plan{PassProbability: math.NaN(), Games: math.NaN()}
	}
	s0, s1 := ScoreOf(t.Elo0), ScoreOf(t.Elo1)
	if t.Model == Normalized {
		sd := math.Sqrt(variance)
		s0, s1 = t.Elo0/neloPerNT*sd+0.5, t.Elo1/neloPerNT*sd+0.5
	}
	lower, upper := t.Bounds()
	h := (2*ScoreOf(elo) - (s0 + s1)) / (s1 - s0)
	p, tm := brownianPlan(lower, upper, h)
	return Plan{PassProbability: p, Games: tm / ((s1 - s0) * (s1 - s0) / variance)}
}

// FishtestVariance is a game's score variance at a score near 1/2 for a
// draw ratio and an RMS bias in Elo (the spread of the openings' or
// deals' advantage, which seat-swapped pairs cancel): (1-draws)/4 -
// (L(bias) - 1/2)^2. NaN when the two are incompatible.
func FishtestVariance(drawRatio, rmsBias float64) float64 {
	b := ScoreOf(rmsBias) - 0.5
	v := (1-drawRatio)/4 - b*b
	if v <= 0 {
		return math.NaN()
	}
	return v
}

// PairVariance is a game's score variance as the pairs show it: twice
// the variance of a pair's mean score, the figure Expected wants.
func (p Pentanomial) PairVariance() float64 {
	_, pdf := p.pdf()
	_, v, _, _ := moments(pdf)
	return 2 * v
}

// secular solves sum_i p_i a_i / (1 + x a_i) = 0 for x in (-1/max a,
// -1/min a), where the sum falls from +inf to -inf, by bisection to the
// last bit (fishtest's secular uses Brent's method to 1e-12).
func secular(a, p [5]float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range a {
		lo, hi = min(lo, x), max(hi, x)
	}
	const eps = 1e-9
	l, u := -1/hi+eps, -1/lo-eps
	f := func(x float64) float64 {
		var s float64
		for i := range a {
			s += p[i] * a[i] / (1 + x*a[i])
		}
		return s
	}
	for range 200 {
		m := l + (u-l)/2
		if m <= l || m >= u {
			break
		}
		if f(m) > 0 {
			l = m
		} else {
			u = m
		}
	}
	return l + (u-l)/2
}

// mleExpected is the distribution over pairValues nearest pdf (maximum
// likelihood) whose mean is s (fishtest's MLE_expected).
func mleExpected(pdf [5]float64, s float64) [5]float64 {
	var a [5]float64
	for i := range a {
		a[i] = pairValues[i] - s
	}
	x := secular(a, pdf)
	var out [5]float64
	for i := range out {
		out[i] = pdf[i] / (1 + x*a[i])
	}
	return out
}

// mleTValue is the distribution over pairValues nearest pdf whose t-value
// (mean - ref)/sd is t, by fishtest's fixed-point iteration (MLE_t_value:
// at most 10 steps from the uniform distribution).
func mleTValue(pdf [5]float64, ref, t float64) [5]float64 {
	var cur [5]float64
	for i := range cur {
		cur[i] = 1.0 / 5
	}
	for range 10 {
		prev := cur
		var mu, v float64
		for i, q := range cur {
			mu += q * pairValues[i]
		}
		for i, q := range cur {
			v += q * (pairValues[i] - mu) * (pairValues[i] - mu)
		}
		sigma := math.Sqrt(v)
		var a [5]float64
		for i, ai := range pairValues {
			z := (mu - ai) / sigma
			a[i] = ai - ref - t*sigma*(1+z*z)/2
		}
		x := secular(a, pdf)
		change := 0.0
		for i := range cur {
			cur[i] = pdf[i] / (1 + x*a[i])
			change = max(change, math.Abs(prev[i]-cur[i]))
		}
		if change < 1e-9 {
			break
		}
	}
	return cur
}

// NormalSPRT is the sequential test on a paired difference of costs: each
// observation is one deal's difference (B's cost minus A's, so positive
// means A is better), H0 its mean is Mu0, H1 Mu1. LLR is the generalised
// log-likelihood ratio of a normal sample of unknown variance:
// n/2 ln((v + (m-Mu0)^2) / (v + (m-Mu1)^2)), m and v the sample's mean
// and (maximum-likelihood) variance, fishtest's LLR_alt applied to
// continuous outcomes.
type NormalSPRT struct {
	Alpha, Beta float64
	Mu0, Mu1    float64
}

// Bounds are the test's Wald bounds.
func (t NormalSPRT) Bounds() (lower, upper float64) { return WaldBounds(t.Alpha, t.Beta) }

// LLR is the log-likelihood ratio of n observations of mean m and
// sample variance v (the n-1 form, as Mean reports it). Fewer than two
// observations say nothing: 0. A sample without scatter that lies on a
// hypothesis (two players that play every deal alike, against H0 0)
// would make it infinite: the variance is read as at least
// normalVarianceFloor of (Mu1-Mu0)^2, as fishtest reads an empty
// pentanomial count as 1e-3, so the LLR stays a number, far past its
// bound (-13.8 an observation), that reports and files can hold.
func (t NormalSPRT) LLR(n int, m, v float64) float64 {
	if n < 2 {
		return 0
	}
	nf := float64(n)
	v *= (nf - 1) / nf // the maximum-likelihood variance
	v = max(v, normalVarianceFloor*(t.Mu1-t.Mu0)*(t.Mu1-t.Mu0))
	r0 := v + (m-t.Mu0)*(m-t.Mu0)
	r1 := v + (m-t.Mu1)*(m-t.Mu1)
	if r0 == 0 && r1 == 0 {
		return 0
	}
	return nf / 2 * math.Log(r0/r1)
}

// normalVarianceFloor is the least variance NormalSPRT reads, as a share
// of the squared distance between its hypotheses: far below any sample
// that scatters at all, so it moves no LLR but that of a sample without
// scatter.
const normalVarianceFloor = 1e-12

// Expected plans the test against a true mean difference mu with
// per-deal standard deviation sd, by the same Brownian approximation as
// SPRT.Expected: the games (deals) it is expected to play.
func (t NormalSPRT) Expected(mu, sd float64) Plan {
	if !(sd > 0) {
		return Plan{PassProbability: math.NaN(), Games: math.NaN()}
	}
	lower, upper := t.Bounds()
	h := (2*mu - (t.Mu0 + t.Mu1)) / (t.Mu1 - t.Mu0)
	p, tm := brownianPlan(lower, upper, h)
	return Plan{PassProbability: p, Games: tm / ((t.Mu1 - t.Mu0) * (t.Mu1 - t.Mu0) / (sd * sd))}
}
