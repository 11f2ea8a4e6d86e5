package spsa

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Target is what Autoselect plans for, in the units of a pair's result
// (see Result): fishtest's autoselect with Elo replaced by those units.
//
// The model behind it (van den Bergh's, whose formulas fishtest's
// autoselect evaluates): near the optimum the expected result of a pair is
// v(Plus) - v(Minus) for a value v that falls quadratically from the
// optimum, by EdgeLoss at half a gene's range from it, and a pair's result
// has variance Variance around that.
type Target struct {
	// Genes is the number of genes tuned at once.
	Genes int
	// Precision is how far below the optimum's value the final theta may
	// be, with probability Confidence (fishtest: 0.5 Elo).
	Precision float64
	// EdgeLoss is the value lost half a gene's range from the optimum
	// (fishtest: 2 Elo over each parameter's interval).
	EdgeLoss float64
	// Variance is the variance of one pair's result between nearly equal
	// points (fishtest, per game of W-L: 1 - draw ratio, from a "virtual"
	// draw ratio 1 - 4*(pentanomial variance per game)).
	Variance float64
	// Confidence is the probability of ending within Precision; if it is
	// 0, 0.95 is used.
	Confidence float64
	// CRatio is c as a fraction of a gene's range; if it is 0, 1/6 is used.
	CRatio float64
	// LambdaRatio is the budget in relaxation times (the pairs it takes to
	// divide the value lost by e^2); if it is 0, 3 is used.
	LambdaRatio float64
}

// Autoselect's defaults, those of fishtest's spsa_new.js.
const (
	DefaultConfidence  = 0.95
	DefaultCRatio      = 1.0 / 6
	DefaultLambdaRatio = 3
)

// Plan is what Autoselect decides.
type Plan struct {
	// Schedule has constant gains (ARatio = Alpha = Gamma = 0, as
	// fishtest's form sets them), c_end = CRatio and r_end = R for every
	// gene, and the budget in Pairs.
	Schedule Schedule
	// R is the relative apply factor: the stationary spread of theta it
	// leaves costs Precision at the Confidence quantile.
	R float64
	// Lambda is the relaxation time in pairs: a start's excess loss falls
	// as exp(-2*pairs/Lambda).
	Lambda float64
}

// Autoselect plans constant gains and a budget for a stated precision,
// with fishtest's formulas (server/fishtest/static/js/spsa_new.js,
// spsaCompute), the Elo constant 800/ln 10 dropped because the target is
// already in result units:
//
//	r      = 8 * Precision / (Variance * chi2_Confidence(Genes))
//	c      = CRatio                      (of a gene's range, 1 in genome units)
//	lambda = 1 / (4 * r * c^2 * e),      e = 4 * EdgeLoss  (the quadratic's curvature)
//	pairs  = round(LambdaRatio * lambda)
//
// With constant gains theta is an Ornstein-Uhlenbeck process around the
// optimum: its mean decays with time constant lambda, and its stationary
// spread costs r * Variance / 8 times a chi-square variable with Genes
// degrees of freedom, whence r. In fishtest's units (one game of W-L,
// Precision 0.5/C, EdgeLoss 2/C, Variance 1-0.739, C = 800/ln 10) it plans
// 102,117 games for one parameter and 486,655 for ten.
func Autoselect(t Target) (Plan, error) {
	if t.Confidence == 0 {
		t.Confidence = DefaultConfidence
	}
	if t.CRatio == 0 {
		t.CRatio = DefaultCRatio
	}
	if t.LambdaRatio == 0 {
		t.LambdaRatio = DefaultLambdaRatio
	}
	var errs []error
	if t.Genes < 1 {
		errs = append(errs, fmt.Errorf("spsa: autoselect for %d genes", t.Genes))
	}
	positive := func(name string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("spsa: autoselect: %s %v is not a finite number > 0", name, v))
		}
	}
	positive("precision", t.Precision)
	positive("edge loss", t.EdgeLoss)
	positive("variance", t.Variance)
	positive("lambda ratio", t.LambdaRatio)
	if !(t.Confidence > 0 && t.Confidence < 1) {
		errs = append(errs, fmt.Errorf("spsa: autoselect: confidence %v is outside (0, 1)", t.Confidence))
	}
	if !(t.CRatio > 0 && t.CRatio <= 1) {
		errs = append(errs, fmt.Errorf("spsa: autoselect: c ratio %v is outside (0, 1]", t.CRatio))
	}
	if err := errors.Join(errs...); err != nil {
		return Plan{}, err
	}
	chi2 := distuv.ChiSquared{K: float64(t.Genes)}.Quantile(t.Confidence)
	r := 8 * t.Precision / (t.Variance * chi2)
	lambda := 1 / (4 * r * t.CRatio * t.CRatio * 4 * t.EdgeLoss)
	pairs := math.Round(t.LambdaRatio * lambda)
	if !(pairs >= 1 && pairs <= math.MaxInt32) {
		return Plan{}, fmt.Errorf("spsa: autoselect plans %v pairs, outside [1, %d]", pairs, math.MaxInt32)
	}
	s := Schedule{Pairs: int(pairs), CEnd: make([]float64, t.Genes), REnd: make([]float64, t.Genes)}
	for j := range t.Genes {
		s.CEnd[j], s.REnd[j] = t.CRatio, r
	}
	return Plan{Schedule: s, R: r, Lambda: lambda}, nil
}
