package stats

import (
	"math"
	"testing"
)

// TestNormalSPRTLLR: the normal test's LLR by hand, on hypotheses that
// are not symmetric about 0, so that swapping them, or the sample's
// variance for its maximum-likelihood form, shows.
func TestNormalSPRTLLR(t *testing.T) {
	test := NormalSPRT{Alpha: 0.05, Beta: 0.05, Mu0: 1, Mu1: -0.5}
	for _, tc := range []struct {
		name    string
		n       int
		m, v    float64
		want    float64
		verdict Verdict
	}{
		// v (n-1 form) 4 over 5 deals: 3.2 the ML form; r0 = 3.2 + 1,
		// r1 = 3.2 + 0.25: 5/2 ln(4.2/3.45).
		{"between", 5, 0, 4, 2.5 * math.Log(4.2/3.45), Continue},
		// 40 deals at -0.5, v 1: ML 0.975; 20 ln((0.975+2.25)/0.975).
		{"at H1", 40, -0.5, 1, 20 * math.Log(3.225/0.975), AcceptH1},
		{"at H0", 40, 1, 1, 20 * math.Log(0.975/3.225), AcceptH0},
		{"one deal says nothing", 1, -10, 0, 0, Continue},
		{"none", 0, math.NaN(), 0, 0, Continue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := test.LLR(tc.n, tc.m, tc.v)
			if !near(got, tc.want, 1e-12) {
				t.Fatalf("LLR %.15g, want %.15g", got, tc.want)
			}
			lo, hi := test.Bounds()
			if v := Decide(got, lo, hi); v != tc.verdict {
				t.Fatalf("LLR %v in [%v, %v]: %v, want %v", got, lo, hi, v, tc.verdict)
			}
		})
	}
}

// TestNormalSPRTWithoutScatter: two players that play every deal alike
// give differences of 0 with no scatter. Against H0 0 the LLR was -Inf,
// which --json and --output could not write (sprt exited 1, its state
// file left "in progress"); it is a number far past the bound it
// crosses, -13.8 a deal, either way round.
func TestNormalSPRTWithoutScatter(t *testing.T) {
	for _, tc := range []struct {
		name    string
		test    NormalSPRT
		m       float64
		want    Verdict
		perDeal float64
	}{
		{"on H0", NormalSPRT{Alpha: 0.05, Beta: 0.05, Mu0: 0, Mu1: -1}, 0, AcceptH0, 0.5 * math.Log(1e-12/(1+1e-12))},
		{"on H1", NormalSPRT{Alpha: 0.05, Beta: 0.05, Mu0: 0.2, Mu1: 0}, 0, AcceptH1, -0.5 * math.Log(1e-12/(1+1e-12))},
		{"between, nearer H0", NormalSPRT{Alpha: 0.05, Beta: 0.05, Mu0: 0, Mu1: -1}, -0.25, AcceptH0, 0.5 * math.Log(0.0625/0.5625)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{2, 20, 100_000} {
				got := tc.test.LLR(n, tc.m, 0)
				lo, hi := tc.test.Bounds()
				if math.IsInf(got, 0) || math.IsNaN(got) || !near(got, float64(n)*tc.perDeal, 1e-9) {
					t.Fatalf("%d deals: LLR %v, want %v", n, got, float64(n)*tc.perDeal)
				}
				if v := Decide(got, lo, hi); v != tc.want && n >= 20 {
					t.Fatalf("%d deals: LLR %v: %v, want %v", n, got, v, tc.want)
				}
			}
		})
	}
	// The floor moves nothing that scatters: a variance of a millionth
	// of the hypotheses' distance squared is read as it is.
	test := NormalSPRT{Alpha: 0.05, Beta: 0.05, Mu0: 0, Mu1: 1}
	v := 1e-6 * 2 / 1 // n-1 form of 2 deals whose ML variance is 1e-6
	if got, want := test.LLR(2, 0, v), math.Log(1e-6/(1e-6+1)); !near(got, want, 1e-12) {
		t.Fatalf("LLR %v, want %v", got, want)
	}
}

// TestWaldBoundsOfUnequalErrors: alpha bounds the upper crossing (H1
// accepted when H0 holds) and beta the lower: the two are not the same
// bound read twice.
func TestWaldBoundsOfUnequalErrors(t *testing.T) {
	lo, hi := WaldBounds(0.01, 0.2)
	if !near(lo, math.Log(0.2/0.99), 1e-15) || !near(hi, math.Log(0.8/0.01), 1e-15) {
		t.Fatalf("bounds [%v, %v], want [ln(0.2/0.99), ln(0.8/0.01)] = [%v, %v]", lo, hi, math.Log(0.2/0.99), math.Log(0.8/0.01))
	}
	for _, tc := range []struct {
		llr  float64
		want Verdict
	}{{hi, AcceptH1}, {math.Nextafter(hi, 0), Continue}, {lo, AcceptH0}, {math.Nextafter(lo, 0), Continue}, {0, Continue}} {
		if got := Decide(tc.llr, lo, hi); got != tc.want {
			t.Errorf("Decide(%v) in [%v, %v]: %v, want %v", tc.llr, lo, hi, got, tc.want)
		}
	}
	for _, s := range []SPRT{{Alpha: 0.01, Beta: 0.2}} {
		if l, h := s.Bounds(); l != lo || h != hi {
			t.Errorf("SPRT bounds [%v, %v], want [%v, %v]", l, h, lo, hi)
		}
	}
	if l, h := (NormalSPRT{Alpha: 0.01, Beta: 0.2}).Bounds(); l != lo || h != hi {
		t.Errorf("NormalSPRT bounds [%v, %v], want [%v, %v]", l, h, lo, hi)
	}
}

// TestPlansAtTheHypotheses: a test's plan (the Brownian approximation,
// Wald's bounds) passes a player at H0 with probability alpha and one at
// H1 with probability 1 - beta, exactly, whichever way round the
// hypotheses lie; with alpha and beta apart, a plan that read one for
// the other, or a drift of the wrong sign, shows.
func TestPlansAtTheHypotheses(t *testing.T) {
	const alpha, beta = 0.01, 0.2
	for _, tc := range []struct {
		name      string
		at0, at1  Plan
		lowerIsH1 bool
	}{
		{"normal, H1 below H0", NormalSPRT{Alpha: alpha, Beta: beta, Mu0: 0, Mu1: -1}.Expected(0, 3), NormalSPRT{Alpha: alpha, Beta: beta, Mu0: 0, Mu1: -1}.Expected(-1, 3), true},
		{"normal, H1 above H0", NormalSPRT{Alpha: alpha, Beta: beta, Mu0: 0.2, Mu1: 0.5}.Expected(0.2, 1), NormalSPRT{Alpha: alpha, Beta: beta, Mu0: 0.2, Mu1: 0.5}.Expected(0.5, 1), false},
		{"logistic", SPRT{Alpha: alpha, Beta: beta, Elo0: 0, Elo1: 10}.Expected(0, 0.2), SPRT{Alpha: alpha, Beta: beta, Elo0: 0, Elo1: 10}.Expected(10, 0.2), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !near(tc.at0.PassProbability, alpha, 1e-9) || !near(tc.at1.PassProbability, 1-beta, 1e-9) {
				t.Fatalf("passes at H0 %v, at H1 %v; want alpha %v and 1-beta %v", tc.at0.PassProbability, tc.at1.PassProbability, alpha, 1-beta)
			}
			if !(tc.at0.Games > 0 && tc.at1.Games > 0) {
				t.Fatalf("games %v, %v", tc.at0.Games, tc.at1.Games)
			}
		})
	}
}

// TestEloOfAScoreOfOne: a clean sweep's score is clamped to 0.999 as
// fishtest's stat_util.elo does: 1199.6 Elo, not infinite and not the
// 797.9 a clamp to 0.99 would give.
func TestEloOfAScoreOfOne(t *testing.T) {
	want := -400 * math.Log10(1/0.999-1)
	if got := EloOf(1); !near(got, want, 1e-12) || !near(EloOf(0), -want, 1e-12) {
		t.Fatalf("EloOf(1) %v, EloOf(0) %v; want %v and its negation", got, EloOf(0), want)
	}
	if got := (Pentanomial{0, 0, 0, 0, 10}).Elo().Value; !near(got, want, 1e-12) {
		t.Fatalf("ten pairs won both games: Elo %v, want %v", got, want)
	}
	if got := EloOf(0.9995); !near(got, want, 1e-12) {
		t.Fatalf("EloOf(0.9995) %v: past the clamp, want %v", got, want)
	}
	if got := EloOf(0.75); !near(got, -400*math.Log10(1/0.75-1), 1e-12) {
		t.Fatalf("EloOf(0.75) %v", got)
	}
}

// TestPairVarianceIsAGames: pairs of independent games show a game's own
// variance, (1-draws)/4 at an even score (FishtestVariance with no
// bias), not half of it (a pair mean's); pairs whose seat decides every
// game (always split 1-1) show next to none.
func TestPairVarianceIsAGames(t *testing.T) {
	cases := []struct {
		name   string
		counts Pentanomial
		want   float64
		rel    float64
	}{
		// Each game won, drawn or lost 3:4:3, independently: a pair's
		// k/4 is the sum of two such, 9, 24, 34, 24, 9 in a hundred.
		{"independent, 40% draws", Pentanomial{900, 2400, 3400, 2400, 900}, FishtestVariance(0.4, 0), 1e-12},
		// Won or lost 1:1: two losses, a split, two wins 1:2:1 (the zero
		// counts regularised move it by less than 1e-6).
		{"independent, no draws", Pentanomial{1000, 0, 2000, 0, 1000}, FishtestVariance(0, 0), 1e-6},
		{"the seat decides", Pentanomial{0, 0, 1000, 0, 0}, 0, 1e-5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.counts.PairVariance(); !near(got, tc.want, tc.rel) {
				t.Fatalf("PairVariance of %v = %.12g, want %.12g", tc.counts, got, tc.want)
			}
		})
	}
}
