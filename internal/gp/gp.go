// Package gp is Gaussian-process regression over a normalised parameter
// space, [0, 1]^d, for a Bayesian-optimisation model: the surrogate
// chess-tuning-tools fits over the Elo surface, with the choices its
// authors and the literature make for noisy game results.
//
//   - The kernel is Matern 5/2 with one length scale per dimension (ARD)
//     times a signal variance.
//   - Every observation carries its own noise variance, taken from its
//     games (heteroscedastic), plus a fitted nugget for what those
//     variances miss. Observations that shared deals (a generation's, by
//     common random numbers) may be put in one Group: they share a random
//     offset whose variance is fitted, so the model compares them paired
//     while predicting the game-free surface.
//   - Hyperparameters maximise the log marginal likelihood, by gonum's
//     L-BFGS with the exact gradient, from a given start and from
//     restarts drawn from the caller's seeded stream.
//   - A batch is proposed by Thompson sampling on a candidate set
//     (Thompson), and the point to recommend is the best lower confidence
//     bound of the mean, chess-tuning-tools' "pessimistic optimum", with
//     its interval (Recommend).
//
// Observations are higher-is-better: negate a cost. The package models at
// most MaxDims dimensions and MaxPoints observations; it imports nothing
// of evotune. A model is a pure function of its points, its start and
// its random stream, so a checkpoint needs only the points told and the
// last Hyper (which marshals to JSON bit for bit).
package gp

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Limits on what the package models. Beyond about 20 dimensions a
// Gaussian process on a few hundred noisy points learns little, and the
// fit's cost grows as the cube of the points.
const (
	MaxDims   = 20
	MaxPoints = 2000
)

// Point is one observation.
type Point struct {
	X   []float64 // the point, every coordinate in [0, 1]
	Y   float64   // its figure, higher is better
	Var float64   // the variance of Y from its games, >= 0
	// Group, when not 0, names the deals the point was measured on:
	// points of one group share a random offset (see the package doc).
	// Groups count only when some group holds two points or more.
	Group int
}

// Hyper is a model's hyperparameters, on the scale of the standardised
// figures (Y less its mean, over its standard deviation).
type Hyper struct {
	Signal   float64   `json:"signal"`    // the kernel's variance
	Lengths  []float64 `json:"lengths"`   // one length scale per dimension
	Nugget   float64   `json:"nugget"`    // noise variance beyond the points' own
	GroupVar float64   `json:"group_var"` // variance of a group's shared offset
}

// data is a checked set of points, standardised.
type data struct {
	x      [][]float64
	y      []float64 // standardised
	v      []float64 // standardised noise variances
	group  []int
	groups bool // some group holds two points or more
	d      int
	mean   float64 // of the raw Y
	scale  float64 // standard deviation of the raw Y, or 1
}

func newData(points []Point) (*data, error) {
	n := len(points)
	if n == 0 {
		return nil, errors.New("gp: no points")
	}
	if n > MaxPoints {
		return nil, fmt.Errorf("gp: %d points; the model takes at most %d", n, MaxPoints)
	}
	d := len(points[0].X)
	if d == 0 {
		return nil, errors.New("gp: points of no dimension")
	}
	if d > MaxDims {
		return nil, fmt.Errorf("gp: %d dimensions; a Gaussian process here models at most %d", d, MaxDims)
	}
	dt := &data{x: make([][]float64, n), y: make([]float64, n), v: make([]float64, n), group: make([]int, n), d: d}
	seen := map[int]bool{}
	for i, p := range points {
		if len(p.X) != d {
			return nil, fmt.Errorf("gp: point %d has %d coordinates, point 0 has %d", i, len(p.X), d)
		}
		for j, x := range p.X {
			if !(x >= 0 && x <= 1) {
				return nil, fmt.Errorf("gp: point %d: coordinate %d is %v, outside [0, 1]", i, j, x)
			}
		}
		if math.IsNaN(p.Y) || math.IsInf(p.Y, 0) {
			return nil, fmt.Errorf("gp: point %d: figure %v", i, p.Y)
		}
		if !(p.Var >= 0) || math.IsInf(p.Var, 0) {
			return nil, fmt.Errorf("gp: point %d: variance %v is not a finite number >= 0", i, p.Var)
		}
		dt.x[i] = slices.Clone(p.X)
		dt.group[i] = p.Group
		if p.Group != 0 {
			dt.groups = dt.groups || seen[p.Group]
			seen[p.Group] = true
		}
	}
	for _, p := range points {
		dt.mean += p.Y
	}
	dt.mean /= float64(n)
	var ss float64
	for _, p := range points {
		ss += (p.Y - dt.mean) * (p.Y - dt.mean)
	}
	dt.scale = 1
	if sd := math.Sqrt(ss / float64(n)); n > 1 && sd > 0 {
		dt.scale = sd
	}
	for i, p := range points {
		dt.y[i] = (p.Y - dt.mean) / dt.scale
		dt.v[i] = p.Var / (dt.scale * dt.scale)
	}
	return dt, nil
}

// matern52 is the Matern 5/2 correlation at scaled distance r.
func matern52(r float64) float64 {
	s := math.Sqrt(5) * r
	return (1 + s + s*s/3) * math.Exp(-s)
}

// scaledDist is the distance of a and b with every dimension divided by
// its length scale.
func scaledDist(a, b, lengths []float64) float64 {
	var r2 float64
	for p := range a {
		t := (a[p] - b[p]) / lengths[p]
		r2 += t * t
	}
	return math.Sqrt(r2)
}

// cov is the kernel between two points.
func (h *Hyper) cov(a, b []float64) float64 {
	return h.Signal * matern52(scaledDist(a, b, h.Lengths))
}

// Check refuses hyperparameters no model of d dimensions can use.
func (h *Hyper) Check(d int) error {
	if len(h.Lengths) != d {
		return fmt.Errorf("gp: %d length scales for %d dimensions", len(h.Lengths), d)
	}
	ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	for _, l := range h.Lengths {
		if !ok(l) {
			return fmt.Errorf("gp: length scale %v is not a finite number > 0", l)
		}
	}
	if !ok(h.Signal) || !ok(h.Nugget) || !(h.GroupVar >= 0) || math.IsInf(h.GroupVar, 0) {
		return fmt.Errorf("gp: signal %v, nugget %v, group variance %v: want finite, > 0 (group >= 0)",
			h.Signal, h.Nugget, h.GroupVar)
	}
	return nil
}

// covMatrix is the covariance of the observed figures: kernel, plus each
// point's noise and the nugget on the diagonal, plus the group variance
// between points of one group (and on the diagonal of a grouped point).
// Groups count only when one holds two points or more: an offset seen
// once cannot be told from noise.
func (dt *data) covMatrix(h *Hyper) *mat.SymDense {
	n := len(dt.y)
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			c := h.cov(dt.x[i], dt.x[j])
			if dt.groups && dt.group[i] != 0 && dt.group[i] == dt.group[j] {
				c += h.GroupVar
			}
			if i == j {
				c += dt.v[i] + h.Nugget
			}
			k.SetSym(i, j, c)
		}
	}
	return k
}

// Model is a Gaussian process fitted to points.
type Model struct {
	dt    *data
	h     Hyper
	chol  mat.Cholesky
	l     mat.TriDense // the lower Cholesky factor
	alpha []float64    // K^-1 y
	lml   float64
}

// errNotPD reports a covariance the factorisation refused.
var errNotPD = errors.New("gp: the covariance is not positive definite")

// NewModel conditions a Gaussian process with hyperparameters h on the
// points, without fitting h.
func NewModel(points []Point, h Hyper) (*Model, error) {
	dt, err := newData(points)
	if err != nil {
		return nil, err
	}
	return dt.model(h)
}

func (dt *data) model(h Hyper) (*Model, error) {
	if err := h.Check(dt.d); err != nil {
		return nil, err
	}
	h.Lengths = slices.Clone(h.Lengths)
	m := &Model{dt: dt, h: h}
	if !m.chol.Factorize(dt.covMatrix(&h)) {
		return nil, errNotPD
	}
	m.chol.LTo(&m.l)
	a := mat.NewVecDense(len(dt.y), nil)
	// A Condition error only warns that K is ill-conditioned; the nugget's
	// lower bound keeps it far from singular.
	_ = m.chol.SolveVecTo(a, mat.NewVecDense(len(dt.y), dt.y))
	m.alpha = a.RawVector().Data
	var fit float64
	for i, y := range dt.y {
		fit += y * m.alpha[i]
	}
	m.lml = -0.5*fit - 0.5*m.chol.LogDet() - 0.5*float64(len(dt.y))*math.Log(2*math.Pi)
	return m, nil
}

// Hyper is the model's hyperparameters.
func (m *Model) Hyper() Hyper {
	h := m.h
	h.Lengths = slices.Clone(h.Lengths)
	return h
}

// Dims is the number of dimensions the model was fitted on.
func (m *Model) Dims() int { return m.dt.d }

// LogMarginalLikelihood is the log density of the standardised figures
// under the model: -y'K^-1y/2 - log|K|/2 - n log(2 pi)/2.
func (m *Model) LogMarginalLikelihood() float64 { return m.lml }

// Predict is the posterior of the game-free surface at x, in the
// figures' units: its mean and its variance (of the mean surface, not of
// a new noisy figure; no group's offset). x must have Dims coordinates:
// another length panics, as a programmer error.
func (m *Model) Predict(x []float64) (mean, variance float64) {
	mu, v := m.predictStd([][]float64{x})
	return m.dt.mean + m.dt.scale*mu[0], m.dt.scale * m.dt.scale * v[0]
}

// crossCov is the kernel between every observed point and every x, n by
// len(xs).
func (m *Model) crossCov(xs [][]float64) *mat.Dense {
	ks := mat.NewDense(len(m.dt.y), len(xs), nil)
	for i, xi := range m.dt.x {
		for j, x := range xs {
			ks.Set(i, j, m.h.cov(xi, x))
		}
	}
	return ks
}

// predictStd is the posterior mean and variance of the surface at xs on
// the standardised scale.
func (m *Model) predictStd(xs [][]float64) (mu, variance []float64) {
	for _, x := range xs {
		if len(x) != m.dt.d {
			panic(fmt.Sprintf("gp: a point of %d coordinates for a model of %d", len(x), m.dt.d))
		}
	}
	ks := m.crossCov(xs)
	var v mat.Dense
	_ = m.l.SolveTo(&v, false, ks) // L v = k*
	mu = make([]float64, len(xs))
	variance = make([]float64, len(xs))
	for j := range xs {
		var s, q float64
		for i := range m.dt.y {
			s += ks.At(i, j) * m.alpha[i]
			q += v.At(i, j) * v.At(i, j)
		}
		mu[j] = s
		variance[j] = math.Max(m.h.Signal-q, 0)
	}
	return mu, variance
}
