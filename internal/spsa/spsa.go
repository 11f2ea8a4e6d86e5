// Package spsa is simultaneous perturbation stochastic approximation as
// chess engines are tuned with it (fishtest, OpenBench): each iteration
// perturbs every gene of the current point theta at once by +c or -c,
// plays theta+ against theta- (or both on shared deals), and moves theta
// along the perturbation by the result. It works in genome units, every
// gene in [0, 1], and rounds the discrete genes of the points it asks for
// through a Lattice (a *genome.Space is one).
//
// A State holds theta, the pairs told so far and the Schedule of gains;
// it marshals to JSON for checkpoints and back bit for bit. Perturb and
// Update are pure: every draw comes from the *rand.Rand the caller passes
// in. Autoselect plans constant gains and a budget for a stated precision,
// as fishtest's autoselect does. The point to recommend is theta itself,
// the mean the iterations moved, never the luckiest perturbed point.
//
// The package imports nothing of evotune; the engine's spsa model drives
// it (docs/research/wiring-plan.md).
package spsa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// A Lattice turns a perturbed gene, any number in [0, 1], into a value
// the gene can take, given a uniform u in [0, 1): *genome.Space.Round,
// stochastic rounding for int, bool and choice genes. Rounding with one u
// must keep order, so that theta+ and theta- never cross.
type Lattice interface {
	Round(gene int, x, u float64) float64
}

// Continuous is the Lattice of genes that take every value in [0, 1].
type Continuous struct{}

// Round returns x.
func (Continuous) Round(_ int, x, _ float64) float64 { return x }

// State is an SPSA run between iterations. Its zero value is not usable;
// make one with New or by unmarshalling a checkpoint.
type State struct {
	schedule Schedule
	g        gains
	theta    []float64
	k        int
}

// New starts a run at theta (genes in [0, 1]) with the given schedule.
func New(theta []float64, s Schedule) (*State, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := checkTheta(theta, len(s.CEnd)); err != nil {
		return nil, err
	}
	s.CEnd, s.REnd = slices.Clone(s.CEnd), slices.Clone(s.REnd)
	return &State{schedule: s, g: s.gains(), theta: slices.Clone(theta)}, nil
}

func checkTheta(theta []float64, n int) error {
	if len(theta) != n {
		return fmt.Errorf("spsa: theta has %d genes, the schedule %d", len(theta), n)
	}
	for j, x := range theta {
		if !(x >= 0 && x <= 1) {
			return fmt.Errorf("spsa: gene %d of theta is %v, outside [0, 1]", j, x)
		}
	}
	return nil
}

// Theta is the current point: the mean the iterations have moved, and
// the point to recommend. Its discrete genes lie between their buckets'
// centres; the caller snaps it to a genome (genome.Space.Project).
func (s *State) Theta() []float64 { return slices.Clone(s.theta) }

// K is the number of pairs told so far (fishtest's iter).
func (s *State) K() int { return s.k }

// Schedule is the run's schedule.
func (s *State) Schedule() Schedule {
	sc := s.schedule
	sc.CEnd, sc.REnd = slices.Clone(sc.CEnd), slices.Clone(sc.REnd)
	return sc
}

// Gains returns every gene's c_k and R_k for the iteration that starts
// after k pairs.
func (s *State) Gains(k int) (c, r []float64) {
	c = make([]float64, len(s.theta))
	r = make([]float64, len(s.theta))
	for j := range c {
		c[j], r[j] = s.g.at(j, k)
	}
	return c, r
}

// Perturbation is one iteration's pair of points and what Update needs to
// move theta by their result.
type Perturbation struct {
	K     int       `json:"k"`     // pairs told before the iteration: its gains are those of k
	Delta []int8    `json:"delta"` // the Rademacher direction, +1 or -1 per gene
	Plus  []float64 `json:"plus"`  // theta + c_k*Delta, clipped to [0, 1] and rounded: a genome
	Minus []float64 `json:"minus"` // theta - c_k*Delta, likewise
	C     []float64 `json:"c"`     // c_k per gene
	R     []float64 `json:"r"`     // R_k per gene
}

// Perturb draws the iteration that starts after k pairs: for every gene
// in order a sign (Delta) and a uniform for rounding, both from rng.
// theta+-c_k*Delta is clipped to [0, 1], as fishtest clips to a
// parameter's range, and rounded through lat with the one uniform for
// both points, so a discrete gene of Plus and Minus is rounded by
// fishtest's floor(x+u) and never crosses (OpenBench shares the uniform
// the same way). k is normally K(); a generation that asks for several
// iterations at once passes K() plus the pairs of the iterations before
// each (see the wiring plan).
func (s *State) Perturb(k int, lat Lattice, rng *rand.Rand) Perturbation {
	n := len(s.theta)
	p := Perturbation{K: k, Delta: make([]int8, n), Plus: make([]float64, n),
		Minus: make([]float64, n), C: make([]float64, n), R: make([]float64, n)}
	for j, x := range s.theta {
		d := int8(1)
		if rng.Uint64()&1 == 0 {
			d = -1
		}
		u := rng.Float64()
		c, r := s.g.at(j, k)
		step := c * float64(d)
		p.Delta[j], p.C[j], p.R[j] = d, c, r
		p.Plus[j] = lat.Round(j, clip01(x+step), u)
		p.Minus[j] = lat.Round(j, clip01(x-step), u)
	}
	return p
}

// Result is what an iteration's pairs say about Plus against Minus.
type Result struct {
	// Pairs is the number of pairs played: K advances by it.
	Pairs int `json:"pairs"`
	// Sum adds up, over the pairs, how much better Plus did than Minus:
	// head to head, Plus's wins minus its losses over the games (fishtest's
	// wins - losses); on a solo measure, Minus's cost minus Plus's on each
	// shared deal (or Plus's score minus Minus's where higher is better).
	Sum float64 `json:"sum"`
}

// Update moves theta by an iteration's result, as fishtest does:
//
//	theta_j += R_kj * c_kj * Sum * Delta_j, clipped to [0, 1]
//
// with p's gains, and advances K by the pairs. Results of several
// perturbations drawn from one theta are told one after another in the
// order they were drawn. It refuses a perturbation of another length, a
// negative number of pairs or a sum that is not finite, changing nothing.
func (s *State) Update(p Perturbation, r Result) error {
	n := len(s.theta)
	if len(p.Delta) != n || len(p.C) != n || len(p.R) != n {
		return fmt.Errorf("spsa: a perturbation of %d genes for a state of %d", len(p.Delta), n)
	}
	if r.Pairs < 0 || math.IsNaN(r.Sum) || math.IsInf(r.Sum, 0) {
		return fmt.Errorf("spsa: a result of %d pairs summing to %v", r.Pairs, r.Sum)
	}
	next := make([]float64, n)
	for j := range s.theta {
		step := p.R[j] * p.C[j] * r.Sum * float64(p.Delta[j])
		if math.IsNaN(step) || math.IsInf(step, 0) {
			// Gains far past the budget that overflow (R_k grows with k when
			// 2 gamma > alpha): no move is a number.
			return fmt.Errorf("spsa: after %d pairs, gene %d's step (c %v, R %v, result %v) is not a number", p.K, j, p.C[j], p.R[j], r.Sum)
		}
		next[j] = clip01(s.theta[j] + step)
	}
	copy(s.theta, next)
	s.k += r.Pairs
	return nil
}

func clip01(x float64) float64 { return math.Min(math.Max(x, 0), 1) }

// stateJSON is the checkpoint form: what the run was told to do and where
// it is. The gains' constants are derived from the schedule again.
type stateJSON struct {
	Schedule Schedule  `json:"schedule"`
	Theta    []float64 `json:"theta"`
	K        int       `json:"k"`
}

// MarshalJSON writes the schedule, theta and K. Go writes every float64
// in the shortest form that parses back to the same bits, so a state
// read back continues exactly.
func (s *State) MarshalJSON() ([]byte, error) {
	return json.Marshal(stateJSON{Schedule: s.schedule, Theta: s.theta, K: s.k})
}

// UnmarshalJSON reads a state MarshalJSON wrote, strictly (a field it
// does not know is refused, as a newer evotune's), checking it as New
// does (and that K is not negative); on error the state is unchanged.
func (s *State) UnmarshalJSON(data []byte) error {
	var w stateJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("spsa: %w", err)
	}
	if w.K < 0 {
		return errors.New("spsa: a negative number of pairs told")
	}
	t, err := New(w.Theta, w.Schedule)
	if err != nil {
		return err
	}
	t.k = w.K
	*s = *t
	return nil
}
