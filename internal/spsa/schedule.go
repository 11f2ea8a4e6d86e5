package spsa

import (
	"errors"
	"fmt"
	"math"
)

// Schedule is the gain sequences of a run, stated as fishtest states them:
// the budget, Spall's exponents and stability constant, and for every gene
// the perturbation c and the relative apply factor R it should have
// reached by the budget's last pair (c_end and r_end). From them
//
//	c_j = CEnd_j * Pairs^Gamma
//	a_j = REnd_j * CEnd_j^2 * (A + Pairs)^Alpha,  A = floor(ARatio * Pairs)
//
// and the iteration that starts after k pairs perturbs gene j by
//
//	c_kj = c_j / (k+1)^Gamma
//
// and moves it by R_kj * c_kj per unit of result, R_kj = a_j / (A+k+1)^Alpha / c_kj^2
// (Kiiski's relative apply factor, a_k = R_k * c_k^2). So c_kj = CEnd_j
// and R_kj = REnd_j at k+1 = Pairs. Alpha = Gamma = ARatio = 0 gives
// constant gains, which is what Autoselect plans.
//
// Gains are in genome units: CEnd is a fraction of a gene's [0, 1], and
// REnd is per unit of the result a pair reports (see Result).
type Schedule struct {
	// Pairs is the planned budget in pairs, fishtest's num_iter.
	Pairs int `json:"pairs"`
	// ARatio is Spall's stability constant A as a fraction of Pairs.
	ARatio float64 `json:"a_ratio"`
	// Alpha and Gamma are the decay exponents of a_k and c_k.
	Alpha float64 `json:"alpha"`
	Gamma float64 `json:"gamma"`
	// CEnd and REnd hold one value per gene.
	CEnd []float64 `json:"c_end"`
	REnd []float64 `json:"r_end"`
}

// Spall's recommended exponents and stability ratio (Spall 1998), the
// defaults of fishtest's and OpenBench's forms.
const (
	DefaultAlpha  = 0.602
	DefaultGamma  = 0.101
	DefaultARatio = 0.1
)

// Stockfish's tuning macro (src/tune.cpp) prints c_end = (max-min)/20
// and r_end = 0.0020 for every parameter, ready to paste into fishtest;
// in genome units that c_end is 1/20. Its r_end is per game of W-L.
const (
	StockfishCEnd = 1.0 / 20
	StockfishREnd = 0.0020
)

// NewSchedule is a schedule of n genes with Spall's exponents and
// stability ratio and the same c_end and r_end for every gene.
func NewSchedule(n, pairs int, cEnd, rEnd float64) Schedule {
	s := Schedule{Pairs: pairs, ARatio: DefaultARatio, Alpha: DefaultAlpha, Gamma: DefaultGamma,
		CEnd: make([]float64, n), REnd: make([]float64, n)}
	for j := range n {
		s.CEnd[j], s.REnd[j] = cEnd, rEnd
	}
	return s
}

// Validate reports the first thing that makes the schedule unusable: a
// budget under one pair, a negative or non-finite exponent or ratio,
// c_end outside (0, 1], r_end negative or not finite, lists of different
// lengths, or values each in range whose gains are not numbers.
func (s Schedule) Validate() error {
	if s.Pairs < 1 {
		return fmt.Errorf("spsa: a budget of %d pairs (want at least 1)", s.Pairs)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"a_ratio", s.ARatio}, {"alpha", s.Alpha}, {"gamma", s.Gamma}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("spsa: %s %v is not a finite number >= 0", f.name, f.v)
		}
	}
	if len(s.CEnd) != len(s.REnd) {
		return fmt.Errorf("spsa: %d values of c_end but %d of r_end", len(s.CEnd), len(s.REnd))
	}
	if len(s.CEnd) == 0 {
		return errors.New("spsa: no genes")
	}
	for j, c := range s.CEnd {
		if !(c > 0 && c <= 1) {
			return fmt.Errorf("spsa: gene %d: c_end %v is outside (0, 1]", j, c)
		}
	}
	for j, r := range s.REnd {
		if !(r >= 0) || math.IsInf(r, 0) {
			return fmt.Errorf("spsa: gene %d: r_end %v is not a finite number >= 0", j, r)
		}
	}
	// Values each in range may still make gains that are not numbers
	// (an exponent of 1e308, a c_end of 1e-320 whose square is 0): the
	// first iteration's must be finite, c_k above 0.
	g := s.gains()
	for j := range s.CEnd {
		c, r := g.at(j, 0)
		if !(c > 0 && c*c > 0) || math.IsInf(c, 0) || !(r >= 0) || math.IsInf(r, 0) || math.IsInf(g.a[j], 0) {
			return fmt.Errorf("spsa: gene %d: c_end %v, r_end %v, a_ratio %v, alpha %v, gamma %v over %d pairs make gains that are not numbers (c %v, R %v)",
				j, s.CEnd[j], s.REnd[j], s.ARatio, s.Alpha, s.Gamma, s.Pairs, c, r)
		}
	}
	return nil
}

// gains are a checked schedule's constants: fishtest's param["c"],
// param["a"] and spsa["A"].
type gains struct {
	bigA  float64
	alpha float64
	gamma float64
	c, a  []float64
}

func (s Schedule) gains() gains {
	n := float64(s.Pairs)
	g := gains{bigA: math.Floor(s.ARatio * n), alpha: s.Alpha, gamma: s.Gamma,
		c: make([]float64, len(s.CEnd)), a: make([]float64, len(s.CEnd))}
	for j := range s.CEnd {
		g.c[j] = s.CEnd[j] * math.Pow(n, s.Gamma)
		g.a[j] = s.REnd[j] * s.CEnd[j] * s.CEnd[j] * math.Pow(g.bigA+n, s.Alpha)
	}
	return g
}

// at returns c_kj and R_kj of gene j for the iteration that starts after
// k pairs, computed in fishtest's order of operations.
func (g gains) at(j, k int) (c, r float64) {
	local := float64(k) + 1
	c = g.c[j] / math.Pow(local, g.gamma)
	r = g.a[j] / math.Pow(g.bigA+local, g.alpha) / (c * c)
	return c, r
}
