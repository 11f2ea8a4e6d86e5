package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Thompson proposes a batch of q distinct candidates by Thompson
// sampling: it draws q surfaces from the posterior jointly over the
// candidates and takes each draw's best candidate not already taken (the
// lowest index among equals). Every draw comes from rng.
//
// Why Thompson sampling and not q-EI by fantasies: the batch is a whole
// generation (dozens of points), every figure is noisy, and the
// probability that a point is the best is what deserves games. A
// Thompson batch is a sample of that probability, diverse by itself, for
// any q at the cost of one factorisation over the candidates; expected
// improvement needs an incumbent, which noise makes a lucky figure, and
// its fantasies (kriging believer) grow more arbitrary with every point
// of a large batch (Kandasamy et al. 2018, "Parallelised Bayesian
// optimisation via Thompson sampling").
func (m *Model) Thompson(cands [][]float64, q int, rng *rand.Rand) ([]int, error) {
	if err := m.checkCands(cands); err != nil {
		return nil, err
	}
	if q < 1 || q > len(cands) {
		return nil, fmt.Errorf("gp: a batch of %d from %d candidates", q, len(cands))
	}
	draws, err := m.sampleJoint(cands, q, rng)
	if err != nil {
		return nil, err
	}
	taken := make([]bool, len(cands))
	out := make([]int, 0, q)
	for _, f := range draws {
		best := -1
		for j, v := range f {
			if !taken[j] && (best < 0 || v > f[best]) {
				best = j
			}
		}
		taken[best] = true
		out = append(out, best)
	}
	return out, nil
}

func (m *Model) checkCands(cands [][]float64) error {
	if len(cands) == 0 {
		return errors.New("gp: no candidates")
	}
	for i, c := range cands {
		if len(c) != m.dt.d {
			return fmt.Errorf("gp: candidate %d has %d coordinates, the model %d", i, len(c), m.dt.d)
		}
		for j, x := range c {
			if !(x >= 0 && x <= 1) {
				return fmt.Errorf("gp: candidate %d: coordinate %d is %v, outside [0, 1]", i, j, x)
			}
		}
	}
	return nil
}

// sampleJoint draws count surfaces from the posterior at the candidates,
// on the standardised scale: mu + L z with L L' the posterior covariance
// (plus the least jitter that factorises it) and z standard normal.
func (m *Model) sampleJoint(cands [][]float64, count int, rng *rand.Rand) ([][]float64, error) {
	nc := len(cands)
	mu, _ := m.predictStd(cands)
	ks := m.crossCov(cands)
	var v mat.Dense
	_ = m.l.SolveTo(&v, false, ks) // L v = k*
	post := mat.NewSymDense(nc, nil)
	for i := range nc {
		for j := i; j < nc; j++ {
			post.SetSym(i, j, m.h.cov(cands[i], cands[j]))
		}
	}
	post.SymRankK(post, -1, v.T()) // K** - v'v
	var chol mat.Cholesky
	ok := false
	for jitter := 1e-10 * m.h.Signal; !ok && jitter < m.h.Signal; jitter *= 10 {
		for i := range nc {
			post.SetSym(i, i, post.At(i, i)+jitter)
		}
		ok = chol.Factorize(post)
	}
	if !ok {
		return nil, errors.New("gp: the posterior over the candidates does not factorise")
	}
	var l mat.TriDense
	chol.LTo(&l)
	draws := make([][]float64, count)
	z := mat.NewVecDense(nc, nil)
	f := mat.NewVecDense(nc, nil)
	for s := range draws {
		for i := range nc {
			z.SetVec(i, rng.NormFloat64())
		}
		f.MulVec(&l, z)
		draws[s] = make([]float64, nc)
		for i := range nc {
			draws[s][i] = mu[i] + f.AtVec(i)
		}
	}
	return draws, nil
}

// Recommendation is the point a model recommends and what it believes of
// it, in the figures' units.
type Recommendation struct {
	Index     int       // among the candidates
	X         []float64 // the candidate
	Mean, SD  float64   // the posterior of the surface there
	Low, High float64   // Mean -+ z*SD: Low is the bound it was chosen by
}

// Recommend returns the candidate with the best lower confidence bound of
// the surface, Mean - z*SD (the lowest index among equals): the
// "pessimistic optimum" chess-tuning-tools plots and its tuning server
// reports (argmin of mean + 1.96 sd of its minimised figure), here over
// a candidate set that should include the points observed. z = 1.96 is
// a 95% bound; z = 0 is the best mean. The interval is the model's, and
// is optimistic for the point it chose: measure that point afresh before
// quoting its strength.
func (m *Model) Recommend(cands [][]float64, z float64) (Recommendation, error) {
	if err := m.checkCands(cands); err != nil {
		return Recommendation{}, err
	}
	if !(z >= 0) || math.IsInf(z, 0) {
		return Recommendation{}, fmt.Errorf("gp: a bound of %v standard deviations", z)
	}
	mu, v := m.predictStd(cands)
	best, bestLow := -1, math.Inf(-1)
	for j := range cands {
		if low := mu[j] - z*math.Sqrt(v[j]); best < 0 || low > bestLow {
			best, bestLow = j, low
		}
	}
	mean := m.dt.mean + m.dt.scale*mu[best]
	sd := m.dt.scale * math.Sqrt(v[best])
	return Recommendation{Index: best, X: slices.Clone(cands[best]), Mean: mean, SD: sd,
		Low: mean - z*sd, High: mean + z*sd}, nil
}

// Candidates draws m points of [0, 1]^d to propose and recommend from:
// every other one uniform, the rest Gaussian steps of standard deviation
// spread from the centres in turn (the best points so far, say), clipped
// to the cube; with no centres, all uniform. Uniform points explore; the
// local ones resolve the neighbourhood of the best, which uniform points
// in a dozen dimensions rarely reach. The caller snaps discrete genes
// (genome.Space.Project) before using them.
func Candidates(m, d int, centres [][]float64, spread float64, rng *rand.Rand) [][]float64 {
	out := make([][]float64, m)
	local := 0
	for i := range out {
		x := make([]float64, d)
		if i%2 == 1 && len(centres) > 0 {
			c := centres[local%len(centres)]
			local++
			for p := range x {
				x[p] = math.Min(math.Max(c[p]+spread*rng.NormFloat64(), 0), 1)
			}
		} else {
			for p := range x {
				x[p] = rng.Float64()
			}
		}
		out[i] = x
	}
	return out
}
