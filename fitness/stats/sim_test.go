package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A synthetic head-to-head game of known strength: a player scores s per
// game on average, but the first seat is worth seat points of win
// probability, so a seat-swapped pair's two games are far from the
// independent games a per-game interval assumes. Draws happen with
// probability draws in either seat.
type synthetic struct {
	s, draws, seat float64
}

// game is the outcome distribution (loss, draw, win) of one game in the
// first seat or the second.
func (g synthetic) game(first bool) [3]float64 {
	w := g.s - g.draws/2
	if first {
		w += g.seat
	} else {
		w -= g.seat
	}
	return [3]float64{1 - g.draws - w, g.draws, w}
}

// pentanomial is the exact distribution of a pair's score (k/2).
func (g synthetic) pentanomial() [5]float64 {
	a, b := g.game(true), g.game(false)
	var p [5]float64
	for i := range a {
		for j := range b {
			p[i+j] += a[i] * b[j]
		}
	}
	return p
}

// nelo is the true normalised Elo of the game.
func (g synthetic) nelo() float64 {
	mean, v, _, _ := moments(g.pentanomial())
	return neloPerNT / math.Sqrt2 * (mean - 0.5) / math.Sqrt(v)
}

// play counts n pairs.
func (g synthetic) play(rng *rand.Rand, n int, into *Pentanomial) {
	p := g.pentanomial()
	for range n {
		u := rng.Float64()
		k := 0
		for k < 4 && u >= p[k] {
			u -= p[k]
			k++
		}
		into[k]++
	}
}

// coverage is the share of reps intervals that hold the truth.
func coverage(reps int, interval func(rng *rand.Rand) Estimate, truth float64) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	hit := 0
	for range reps {
		if interval(rng).Contains(truth) {
			hit++
		}
	}
	return float64(hit) / float64(reps)
}

// A 95% interval holds the truth in 95% of samples; over 2,000 samples
// the share's standard error is 0.5%, so 93.5% to 96.5% is three of them
// either way.
const covLow, covHigh = 0.935, 0.965

func TestPentanomialIntervalsCover(t *testing.T) {
	const reps, pairs = 2000, 200
	games := []struct {
		name string
		g    synthetic
	}{
		{"even, strong first seat", synthetic{s: 0.5, draws: 0.2, seat: 0.3}},
		{"stronger, many draws", synthetic{s: 0.56, draws: 0.5, seat: 0.1}},
		{"weaker, no draws, no seat", synthetic{s: 0.45, draws: 0, seat: 0}},
		{"stronger, no draws, strong seat", synthetic{s: 0.6, draws: 0, seat: 0.35}},
	}
	for _, tc := range games {
		t.Run(tc.name, func(t *testing.T) {
			sample := func(rng *rand.Rand) Pentanomial {
				var p Pentanomial
				tc.g.play(rng, pairs, &p)
				return p
			}
			for _, f := range []struct {
				what  string
				est   func(Pentanomial) Estimate
				truth float64
			}{
				{"score", Pentanomial.Score, tc.g.s},
				{"elo", Pentanomial.Elo, EloOf(tc.g.s)},
				{"normalized elo", Pentanomial.NormalizedElo, tc.g.nelo()},
			} {
				c := coverage(reps, func(rng *rand.Rand) Estimate { return f.est(sample(rng)) }, f.truth)
				t.Logf("%s: coverage %.1f%%", f.what, 100*c)
				if c < covLow || c > covHigh {
					t.Errorf("%s: the 95%% interval held the truth %v in %.1f%% of %d samples of %d pairs", f.what, f.truth, 100*c, reps, pairs)
				}
			}
		})
	}
}

// A synthetic solo game: deals differ a lot (a deal's difficulty spreads
// costs by sd 8), players little (each adds noise of sd 2), and player A
// needs delta less than B on average.
func soloDeals(rng *rand.Rand, n int, delta float64) (a, b []float64) {
	a, b = make([]float64, n), make([]float64, n)
	for i := range a {
		deal := 45 + 8*rng.NormFloat64()
		a[i] = deal - delta + 2*rng.NormFloat64()
		b[i] = deal + 2*rng.NormFloat64()
	}
	return a, b
}

func TestPairedDifferenceCovers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		deals int
		delta float64
	}{{"few deals", 12, 0.5}, {"many deals", 400, 0.3}, {"no difference", 50, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			c := coverage(2000, func(rng *rand.Rand) Estimate {
				a, b := soloDeals(rng, tc.deals, tc.delta)
				return PairedDifference(a, b)
			}, -tc.delta)
			t.Logf("coverage %.1f%%", 100*c)
			if c < covLow || c > covHigh {
				t.Errorf("the paired difference's interval held the truth in %.1f%% of samples", 100*c)
			}
			// The paired interval is the narrower by far: the deals' spread cancels.
			rng := rand.New(rand.NewPCG(3, 4))
			a, b := soloDeals(rng, tc.deals, tc.delta)
			d, ma, mb := PairedDifference(a, b), Mean(a), Mean(b)
			if paired, unpaired := d.CI95[1]-d.CI95[0], math.Hypot(ma.CI95[1]-ma.CI95[0], mb.CI95[1]-mb.CI95[0]); paired > unpaired/2 {
				t.Errorf("paired interval %.3g wide, the two means' %.3g: pairing should cancel the deals", paired, unpaired)
			}
		})
	}
}

func TestMeanCovers(t *testing.T) {
	c := coverage(2000, func(rng *rand.Rand) Estimate {
		xs := make([]float64, 8)
		for i := range xs {
			xs[i] = 3 + rng.NormFloat64()
		}
		return Mean(xs)
	}, 3)
	if c < covLow || c > covHigh {
		t.Errorf("Student's interval of 8 values held the mean in %.1f%% of samples", 100*c)
	}
}

func TestWilsonCovers(t *testing.T) {
	for _, p := range []float64{0.5, 0.3, 0.1} {
		c := coverage(2000, func(rng *rand.Rand) Estimate {
			wins := 0
			for range 150 {
				if rng.Float64() < p {
					wins++
				}
			}
			s := float64(wins) / 150
			return Estimate{Value: s, CI95: Wilson(s, 150)}
		}, p)
		// Wilson's interval is not exact: its coverage wanders around
		// 95% with p and n, by about a point at 150 games.
		if c < 0.925 || c > 0.975 {
			t.Errorf("p %v: Wilson's interval held it in %.1f%% of samples", p, 100*c)
		}
	}
}

// runSPRT plays a test to its verdict in batches of batch pairs and
// returns the verdict and the games it took.
func runSPRT(rng *rand.Rand, test SPRT, g synthetic, batch, maxPairs int) (Verdict, int) {
	var p Pentanomial
	for p.Pairs() < maxPairs {
		g.play(rng, batch, &p)
		if v := test.Decide(p); v != Continue {
			return v, p.Games()
		}
	}
	return Continue, p.Games()
}

// gameAt is a synthetic game whose strength, in the test's model, is elo.
func gameAt(model EloModel, elo, draws, seat float64) synthetic {
	if model == Logistic {
		return synthetic{s: ScoreOf(elo), draws: draws, seat: seat}
	}
	lo, hi := 0.3, 0.7 // normalised Elo rises with s: bisect
	for range 100 {
		m := (lo + hi) / 2
		if (synthetic{s: m, draws: draws, seat: seat}).nelo() < elo {
			lo = m
		} else {
			hi = m
		}
	}
	return synthetic{s: (lo + hi) / 2, draws: draws, seat: seat}
}

// TestSPRTErrorRates runs 1,000 tests with the truth at each bound: at
// Elo0 it must accept H1 at most alpha of the time, at Elo1 accept H0 at
// most beta of the time, up to three standard errors of 1,000 tests; and
// the games it takes must be those its plan expects, within a quarter
// (the plan neglects the overshoot of batches).
func TestSPRTErrorRates(t *testing.T) {
	const tests, batch = 1000, 4
	for _, tc := range []struct {
		name        string
		sprt        SPRT
		draws, seat float64
	}{
		{"logistic", SPRT{Alpha: 0.05, Beta: 0.05, Elo0: 0, Elo1: 40, Model: Logistic}, 0.3, 0.2},
		{"logistic, unequal errors", SPRT{Alpha: 0.1, Beta: 0.02, Elo0: -10, Elo1: 30, Model: Logistic}, 0.1, 0.3},
		{"normalized", SPRT{Alpha: 0.05, Beta: 0.05, Elo0: 0, Elo1: 50, Model: Normalized}, 0.5, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, at := range []struct {
				elo   float64
				wrong Verdict
				rate  float64
			}{{tc.sprt.Elo0, AcceptH1, tc.sprt.Alpha}, {tc.sprt.Elo1, AcceptH0, tc.sprt.Beta}} {
				g := gameAt(tc.sprt.Model, at.elo, tc.draws, tc.seat)
				rng := rand.New(rand.NewPCG(uint64(at.elo*1000+7), 11))
				wrong, games := 0, 0
				for range tests {
					v, n := runSPRT(rng, tc.sprt, g, batch, 1_000_000)
					if v == at.wrong {
						wrong++
					}
					games += n
				}
				rate := float64(wrong) / tests
				t.Logf("truth at %v: %v in %.1f%%, %.0f games a test", at.elo, at.wrong, 100*rate, float64(games)/tests)
				se := math.Sqrt(at.rate * (1 - at.rate) / tests)
				if rate > at.rate+3*se || rate < at.rate/4 {
					t.Errorf("truth at %v Elo: %v in %.1f%% of %d tests, want about %.1f%%", at.elo, at.wrong, 100*rate, tests, 100*at.rate)
				}
				mean, _, _, _ := moments(g.pentanomial())
				var elo float64 = EloOf(mean)
				plan := tc.sprt.Expected(elo, 2*variance(g.pentanomial()))
				if avg := float64(games) / tests; math.Abs(avg-plan.Games) > plan.Games/4 {
					t.Errorf("truth at %v Elo: %.0f games a test, the plan expects %.0f", at.elo, avg, plan.Games)
				}
			}
		})
	}
}

func variance(pdf [5]float64) float64 {
	_, v, _, _ := moments(pdf)
	return v
}

// TestNormalSPRTErrorRates does the same for the test on paired costs.
func TestNormalSPRTErrorRates(t *testing.T) {
	const tests, batch, sd = 1000, 10, 3.0
	test := NormalSPRT{Alpha: 0.05, Beta: 0.05, Mu0: 0, Mu1: 0.5}
	for _, at := range []struct {
		mu    float64
		wrong Verdict
	}{{test.Mu0, AcceptH1}, {test.Mu1, AcceptH0}} {
		rng := rand.New(rand.NewPCG(uint64(at.mu*10+1), 5))
		wrong, games := 0, 0
		for range tests {
			var xs []float64
			for {
				for range batch {
					xs = append(xs, at.mu+sd*rng.NormFloat64())
				}
				m := Mean(xs)
				_, s := MeanSD(xs)
				lo, hi := test.Bounds()
				v := Decide(test.LLR(len(xs), m.Value, s*s), lo, hi)
				if v != Continue {
					if v == at.wrong {
						wrong++
					}
					break
				}
			}
			games += len(xs)
		}
		rate := float64(wrong) / tests
		t.Logf("truth %v: %v in %.1f%%, %.0f deals a test", at.mu, at.wrong, 100*rate, float64(games)/tests)
		if se := math.Sqrt(0.05 * 0.95 / tests); rate > 0.05+3*se || rate < 0.05/4 {
			t.Errorf("truth %v: %v in %.1f%% of %d tests, want about 5%%", at.mu, at.wrong, 100*rate, tests)
		}
		plan := test.Expected(at.mu, sd)
		if avg := float64(games) / tests; math.Abs(avg-plan.Games) > plan.Games/4 {
			t.Errorf("truth %v: %.0f deals a test, the plan expects %.0f", at.mu, avg, plan.Games)
		}
	}
}

// TestSequentialEstimateAfterStopping runs 1,000 tests with the truth
// between the bounds and at each, and compares what each says of A's
// strength once it stops: the sequential estimate's 95% interval must
// hold the truth about 95% of the time, and its median estimate lie
// near the truth (half the tests above it), where the pairs' own
// estimate, taken at the moment a bound is crossed, leans towards it.
func TestSequentialEstimateAfterStopping(t *testing.T) {
	const tests, batch = 1000, 4
	test := SPRT{Alpha: 0.05, Beta: 0.05, Elo0: 0, Elo1: 20, Model: Logistic}
	for _, truth := range []float64{0, 10, 20} {
		g := gameAt(Logistic, truth, 0.3, 0.2)
		rng := rand.New(rand.NewPCG(uint64(truth*1000+3), 17))
		var seqIn, plainIn, seqAbove, plainAbove int
		for range tests {
			var p Pentanomial
			for test.Decide(p) == Continue {
				g.play(rng, batch, &p)
			}
			s, _ := test.Sequential(p)
			e := p.Elo()
			if s.Elo.CI95[0] <= truth && truth <= s.Elo.CI95[1] {
				seqIn++
			}
			if e.CI95[0] <= truth && truth <= e.CI95[1] {
				plainIn++
			}
			if s.Elo.Value > truth {
				seqAbove++
			}
			if e.Value > truth {
				plainAbove++
			}
		}
		t.Logf("truth %v Elo: sequential interval holds it in %.1f%%, above it %.1f%%; the pairs' own %.1f%%, above it %.1f%%",
			truth, 100*float64(seqIn)/tests, 100*float64(seqAbove)/tests, 100*float64(plainIn)/tests, 100*float64(plainAbove)/tests)
		// Three standard errors of 1,000 tests: 2.1 points at 95%, 4.7 at
		// half.
		if in := float64(seqIn) / tests; in < 0.929 || in > 0.985 {
			t.Errorf("truth %v Elo: the sequential interval holds it in %.1f%% of the tests, want about 95%%", truth, 100*in)
		}
		if above := float64(seqAbove) / tests; math.Abs(above-0.5) > 0.047 {
			t.Errorf("truth %v Elo: the sequential estimate above it in %.1f%% of the tests, want about half", truth, 100*above)
		}
		if plainIn >= seqIn {
			t.Errorf("truth %v Elo: the pairs' own interval holds it as often (%d) as the sequential one (%d): the test shows nothing", truth, plainIn, seqIn)
		}
	}
}
