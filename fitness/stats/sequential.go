package stats

import "math"

// Sequential is what a sequential test's pairs say of A's strength once
// the test has stopped, allowing for its stopping: a test that ends as
// soon as the LLR crosses a bound ends more often on a lucky stretch, so
// the plain estimate of its pairs leans towards the bound it crossed.
// This is fishtest's (sprt.analytics): the LLR as a Brownian motion with
// drift, stopped at the bounds; Elo is the strength at which the test's
// outcome (where and when it stopped, or where it stood) is the median
// outcome, CI95 the strengths at which it is the 97.5% and 2.5% ones, and
// LOS the probability of a worse outcome at Elo 0. In the test's Model's
// Elo.
type Sequential struct {
	Elo Estimate `json:"elo"`
	LOS float64  `json:"los"`
	// Clamped: the LLR lay more than 3% past the bound it crossed, which
	// the Brownian model does not allow: the figures are less sure.
	Clamped bool `json:"clamped,omitempty"`
}

// Sequential estimates A's strength from the pairs counted, allowing
// for the test's stopping; ok is false without pairs.
func (t SPRT) Sequential(p Pentanomial) (s Sequential, ok bool) {
	if p.Pairs() == 0 {
		return s, false
	}
	n, pdf := p.pdf()
	mean, variance, _, _ := moments(pdf)
	// sigmaPG is a game's score deviation (a pair's variance is half a
	// game's), for normalised Elo.
	sigmaPG := math.Sqrt(2 * variance)
	score := func(elo float64) float64 {
		if t.Model == Normalized {
			return elo/neloPerNT*sigmaPG + 0.5
		}
		return ScoreOf(elo)
	}
	s0, s1 := score(t.Elo0), score(t.Elo1)
	// The LLR's drift and variance a pair when A's score is sc, the pairs'
	// variance as observed (fishtest's LLR_drift_variance_alt2).
	drift := func(sc float64) (mu, v float64) {
		return (sc - (s0+s1)/2) * (s1 - s0) / variance, (s1 - s0) * (s1 - s0) / variance
	}
	lower, upper := t.Bounds()
	mu, _ := drift(mean)
	llr, pairs := n*mu, n
	s.Clamped = llr > 1.03*upper || llr < 1.03*lower
	switch {
	case llr < lower:
		pairs, llr = lower/mu, lower
	case llr > upper:
		pairs, llr = upper/mu, upper
	}
	// worse is the probability of an outcome worse than the test's for a
	// player of logistic Elo elo: a faster fail, a slower pass, or a pass
	// turned into a fail.
	worse := func(elo float64) float64 {
		m, v := drift(ScoreOf(elo))
		return brownian{a: lower, b: upper, mu: m, sigma2: v}.outcomeCDF(pairs, llr)
	}
	// bound is the largest Elo at which the outcome has probability below
	// q of being bettered.
	bound := func(q float64) float64 {
		// fishtest's bracket: 30 times the hypotheses' distance about
		// their middle, doubled until it holds a root, within ±1000.
		mid, width := (t.Elo0+t.Elo1)/2, math.Abs(t.Elo1-t.Elo0)
		f := func(elo float64) float64 { return worse(elo) - (1 - q) }
		for k := 30.0; ; k *= 2 {
			lo, hi := math.Max(mid-k*width, -1000), math.Min(mid+k*width, 1000)
			flo, fhi := f(lo), f(hi)
			if flo*fhi <= 0 {
				return bisect(f, lo, hi, flo)
			}
			if lo == -1000 && hi == 1000 {
				if flo > 0 {
					return hi
				}
				return lo
			}
		}
	}
	elo := func(lelo float64) float64 {
		if t.Model != Normalized {
			return lelo
		}
		return (ScoreOf(lelo) - 0.5) / sigmaPG * neloPerNT
	}
	lo, hi := elo(bound(0.025)), elo(bound(0.975))
	s.LOS = worse(0)
	if t.Elo1 < t.Elo0 {
		// H1 below H0: a worse outcome (the LLR lower) is a stronger A.
		lo, hi = hi, lo
		s.LOS = 1 - s.LOS
	}
	s.Elo = Estimate{Value: elo(bound(0.5)), CI95: [2]float64{lo, hi}, N: p.Pairs()}
	return s, true
}

// bisect finds a root of f between lo and hi, where f changes sign (flo
// is f(lo)), to the last bits of a float64.
func bisect(f func(float64) float64, lo, hi, flo float64) float64 {
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		fm := f(mid)
		if (fm <= 0) == (flo <= 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// brownian is a Brownian motion of drift mu and variance sigma2 a unit
// of time, started at 0 and stopped at a < 0 or b > 0 (fishtest's
// Brownian).
type brownian struct{ a, b, mu, sigma2 float64 }

// outcomeCDF is the probability that the motion passes to the right of
// (t, y), time running down the page: it ends at b after t, or at a
// before it, or lies below y at t, for an outcome (t, y) of the test.
func (w brownian) outcomeCDF(t, y float64) float64 {
	gamma, width := w.mu/w.sigma2, w.b-w.a
	var p float64
	if w.sigma2*t/(width*width) < 1e-2 || math.Abs(gamma*width) > 15 {
		p = w.siegmund(t, y)
	} else {
		p = w.series(t, y)
	}
	return min(max(p, 0), 1)
}

// series is the exact probability, a sum over the modes of the strip.
func (w brownian) series(t, y float64) float64 {
	width := w.b - w.a
	x, yy := -w.a, y-w.a
	gamma := w.mu / w.sigma2
	lambda := func(n float64) float64 {
		return (n*math.Pi/width)*(n*math.Pi/width)*w.sigma2/2 + w.mu*w.mu/w.sigma2/2
	}
	// u is a primitive of e^(gamma y) sin(n pi y / width), times
	// 2/width e^(-gamma y).
	u := func(n float64) float64 {
		return (2*width*gamma*math.Sin(math.Pi*n*yy/width) - 2*math.Pi*n*math.Cos(math.Pi*n*yy/width)) /
			(width*width*gamma*gamma + math.Pi*math.Pi*n*n)
	}
	l1 := lambda(1)
	t0 := math.Exp(-l1*t - x*gamma + yy*gamma)
	var s float64
	for n := 1.0; n < 1e6; n++ {
		t1 := math.Exp(-(lambda(n) - l1) * t)
		t3 := u(n)
		s += t1 * t3 * math.Sin(n*math.Pi*x/width)
		if math.Abs(t0*t1*t3) <= 1e-9 {
			break
		}
	}
	var pre float64
	switch {
	case gamma*width > 30:
		pre = math.Exp(-2 * gamma * x)
	case math.Abs(gamma*width) < 1e-8:
		pre = (width - x) / width
	default:
		pre = (1 - math.Exp(2*gamma*(width-x))) / (1 - math.Exp(2*gamma*width))
	}
	return pre + t0*s
}

// siegmund is Siegmund's approximation, for where the series converges
// slowly, with the normal tail's asymptotic form where the exponentials
// would overflow.
func (w brownian) siegmund(t, y float64) float64 {
	denom := math.Sqrt(t * w.sigma2)
	offset := w.mu * t
	gamma := w.mu / w.sigma2
	z := (y - offset) / denom
	za := (-y + offset + 2*w.a) / denom
	zb := (y - offset - 2*w.b) / denom
	tail := func(z, g float64) float64 {
		if g >= 5 {
			return -math.Exp(-z*z/2+2*g) / math.Sqrt(2*math.Pi) * (1/z - 1/(z*z*z))
		}
		return math.Exp(2*g) * phi(z)
	}
	return phi(z) + tail(za, gamma*w.a) - tail(zb, gamma*w.b)
}

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
