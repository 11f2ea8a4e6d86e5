package rating

import (
	"fmt"
	"math"
	"testing"
)

// levelGradient is the derivative of the prior's log-likelihood in the
// common level: sum over players of prior * (1/2 - P(player beats the
// reference)). It is 0 at the optimum shiftToOptimum places the level at.
func levelGradient(gamma []float64, prior float64) float64 {
	d := 0.0
	for _, g := range gamma {
		d += prior * (0.5 - g/(1+g))
	}
	return d
}

// TestShiftToOptimumInOneCall: one call places the common level at the
// prior's optimum (Newton's method to convergence, not one step of it):
// the gradient is 0 to rounding, a second call moves nothing, and the
// strengths keep their ratios. The levels are off by up to 2, about as
// far as a sweep leaves them (Newton's method on a logistic diverges
// from much further).
func TestShiftToOptimumInOneCall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		theta []float64
		prior float64
	}{
		{"all above", []float64{1.5, 1.5, 1.5}, 1},
		{"one below", []float64{-2}, 1},
		{"spread", []float64{-8, -1, 0.5, 5}, 1},
		{"spread, weak prior", []float64{-8, -1, 0.5, 5}, 0.25},
		{"spread, strong prior", []float64{-3, 2, 9}, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gamma := make([]float64, len(tc.theta))
			for i, x := range tc.theta {
				gamma[i] = math.Exp(x)
			}
			before := append([]float64(nil), gamma...)
			moved := shiftToOptimum(gamma, tc.prior)
			if g := levelGradient(gamma, tc.prior); !(math.Abs(g) <= 1e-12*tc.prior*float64(len(gamma))) {
				t.Fatalf("gradient %g after one call", g)
			}
			f := gamma[0] / before[0]
			if !(math.Abs(moved-math.Abs(f-1)) <= 1e-12*math.Max(1, f)) {
				t.Fatalf("returned %g, the factor was %g", moved, f)
			}
			for i := range gamma {
				if r := gamma[i] / before[i]; !(math.Abs(r-f) <= 1e-12*f) {
					t.Fatalf("player %d scaled by %g, player 0 by %g", i, r, f)
				}
			}
			if again := shiftToOptimum(gamma, tc.prior); !(again <= 1e-12) {
				t.Fatalf("a second call moved the level by %g", again)
			}
		})
	}
}

// TestFullCovarianceUpToTheLimit: the interval relative to the field
// comes from the full covariance up to fullMax players, and is the
// conditional one above: for n unplayed players under the default prior,
// 2 sqrt(1 - 1/n) against 2.
func TestFullCovarianceUpToTheLimit(t *testing.T) {
	for _, tc := range []struct {
		n, fullMax int
		want       float64
	}{
		{3, 3, 2 * math.Sqrt(2.0/3)},
		{3, 4, 2 * math.Sqrt(2.0/3)},
		{3, 2, 2},
		{4, 4, 2 * math.Sqrt(3.0/4)},
		{4, 3, 2},
	} {
		t.Run(fmt.Sprintf("%d players, limit %d", tc.n, tc.fullMax), func(t *testing.T) {
			se := relativeSE(make([]float64, tc.n), nil, 1, tc.fullMax)
			for i, x := range se {
				if !(math.Abs(x-tc.want) <= 1e-12) {
					t.Fatalf("player %d: SE %.15g, want %.15g", i, x, tc.want)
				}
			}
		})
	}
}

// TestExtremeRatingsConverge: players rated far from the reference, down
// to strengths of e^-9, are fitted as closely as the others: the
// stopping rule looks at relative moves, not absolute ones, so a weak
// player's small strength does not end the fit early. The likelihood
// equations (score = expected score, the prior's draws included) hold to
// a relative 1e-8 for every player.
func TestExtremeRatingsConverge(t *testing.T) {
	// A ladder: each player beats the next in 199 of 200 games.
	const n = 6
	var pairs []Pair
	for i := 0; i+1 < n; i++ {
		pairs = append(pairs, Pair{A: i, B: i + 1, Games: 200, Score: 199})
	}
	rs, err := Fit(n, pairs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !(rs[n-1].Theta < -9) {
		t.Fatalf("weakest rating %g: the ladder is not steep enough to test", rs[n-1].Theta)
	}
	for i := range n {
		score, expected := 0.5, Expected(rs[i].Theta, 0) // the prior: one draw against the reference
		for _, p := range pairs {
			switch i {
			case p.A:
				score += p.Score
				expected += p.Games * Expected(rs[p.A].Theta, rs[p.B].Theta)
			case p.B:
				score += p.Games - p.Score
				expected += p.Games * Expected(rs[p.B].Theta, rs[p.A].Theta)
			}
		}
		if !(math.Abs(expected-score) <= 1e-8*score) {
			t.Errorf("player %d (rating %.3f): score %g, expected %.12g", i, rs[i].Theta, score, expected)
		}
	}
}
