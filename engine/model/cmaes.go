package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// DefaultStepSize is CMA-ES's initial standard deviation in normalised
// coordinates when evolution.step-size is not set. gonum's CmaEsChol
// shrinks its distribution by covariance updates only (see start), so a
// start much wider than the optimum's basin is slow to come back from:
// on the bowl of TestCMAESBeatsRandomSearch 0.1 to 0.2 do equally well
// and 0.3 twice as badly.
const DefaultStepSize = 0.15

// cmaes drives gonum's CmaEsChol ask/tell style. CmaEsChol is an
// optimize.Method: its Run, on a goroutine of its own, sends the samples
// of a generation as tasks and waits for their values; every exchange is
// a rendezvous on an unbuffered channel and the samples come from Src, a
// PCG seeded from the run's streams, so the sequence of samples is a pure
// function of the seed and the values told. Resume therefore rebuilds
// the state by replaying the values told (the checkpoint keeps them)
// rather than by saving gonum's unexported fields.
//
// Between ask and tell Run waits for results; after tell it waits for the
// next ask. When the distribution collapses (CmaEsChol reports
// MethodDone), the search restarts around the last generation's best
// sample with the initial step size, as a restart strategy does.
type cmaes struct {
	space *genome.Space
	pop   int
	sigma float64
	src   *rand.PCG

	method *optimize.CmaEsChol
	ops    chan optimize.Task
	res    chan optimize.Task
	asked  [][]float64 // the raw samples of the generation in flight
	// restart is where the next instance starts, after MethodDone.
	restart []float64
	// Restarts counts collapses of the distribution, for run.log.
	Restarts int
}

// newCMAES starts a search of pop samples per generation around mean (a
// genome of space) with step size sigma, sampling from seed.
func newCMAES(space *genome.Space, pop int, sigma float64, mean []float64, seed uint64) *cmaes {
	c := &cmaes{space: space, pop: pop, sigma: sigma, src: rand.NewPCG(seed, fitness.Mix(seed))}
	c.start(mean)
	return c
}

func (c *cmaes) start(mean []float64) {
	dim := c.space.Len()
	// Covariance sigma^2 I. gonum draws samples from the Cholesky factor
	// alone and uses its step size only to scale the factor's updates
	// (it never rescales the samples), so the step size proper is the
	// factor's, and InitStepSize 1 keeps the updates on the scale of the
	// samples: on the mixed-gene bowl of TestCMAESBeatsRandomSearch it
	// beats InitStepSize sigma at every sigma tried (0.1 to 0.3).
	diag := mat.NewDiagDense(dim, nil)
	for i := range dim {
		diag.SetDiag(i, c.sigma*c.sigma)
	}
	var chol mat.Cholesky
	if !chol.Factorize(diag) {
		panic("engine: cmaes: sigma^2 I is not positive definite") // sigma > 0 is checked with the config
	}
	c.method = &optimize.CmaEsChol{InitStepSize: 1, Population: c.pop, InitCholesky: &chol, ForgetBest: true, Src: c.src}
	n := c.method.Init(dim, c.pop)
	tasks := make([]optimize.Task, n)
	for i := range tasks {
		tasks[i].Location = &optimize.Location{X: make([]float64, dim)}
	}
	copy(tasks[0].X, mean)
	c.ops, c.res = make(chan optimize.Task), make(chan optimize.Task)
	go c.method.Run(c.ops, c.res, tasks)
	c.asked = c.collect(n)
}

// collect receives n samples from Run, copying them: Run reuses the
// tasks' slices for the next generation.
func (c *cmaes) collect(n int) [][]float64 {
	xs := make([][]float64, c.pop)
	for range n {
		t := <-c.ops
		xs[t.ID] = slices.Clone(t.X)
	}
	return xs
}

// ask returns the genomes of the next generation, in the order tell
// wants their values; asked again before tell, it returns them again.
func (c *cmaes) ask() [][]float64 {
	if c.asked == nil {
		if c.restart != nil {
			c.start(c.restart)
			c.restart = nil
		} else {
			// Run waits for a MajorIteration to sample the next generation.
			c.res <- optimize.Task{ID: -1, Op: optimize.MajorIteration}
			c.asked = c.collect(c.pop)
		}
	}
	genes := make([][]float64, len(c.asked))
	for i, x := range c.asked {
		genes[i] = c.space.Project(x)
	}
	return genes
}

// tell gives the costs (lower is better) of the genomes ask returned, in
// that order.
func (c *cmaes) tell(costs []float64) error {
	if c.asked == nil || len(costs) != len(c.asked) {
		return fmt.Errorf("engine: cmaes told %d values for %d samples", len(costs), len(c.asked))
	}
	for i, f := range costs {
		x := slices.Clone(c.asked[i])
		c.res <- optimize.Task{ID: i, Op: optimize.FuncEvaluation, Location: &optimize.Location{X: x, F: f}}
	}
	// Run has updated the distribution and reports the generation's best.
	t := <-c.ops
	c.asked = nil
	switch t.Op {
	case optimize.MajorIteration:
	case optimize.MethodDone:
		c.Restarts++
		c.restart = slices.Clone(t.X)
		c.stop()
	default:
		return fmt.Errorf("engine: cmaes: unexpected %v from gonum", t.Op)
	}
	return nil
}

// stop ends Run's goroutine; it is waiting for a result.
func (c *cmaes) stop() {
	if c.res == nil {
		return
	}
	c.res <- optimize.Task{Op: optimize.PostIteration}
	close(c.res)
	for range c.ops { // Run may report a best, then closes
	}
	c.res, c.ops = nil, nil
}

// close ends the search; its goroutine exits.
func (c *cmaes) close() {
	c.asked = nil
	c.stop()
}

// cmaesParents is CMA-ES's mu for a population of pop: gonum's CmaEsChol
// (Init) weights the best pop/2 samples, all positively, and its update
// (the mean, the evolution paths through the mean's step, the rank-one
// and rank-mu updates of the Cholesky factor, the step size) reads
// those samples alone, in their order; the values told the rest are
// never read beyond the sort that ranks them last.
func cmaesParents(pop int) int { return pop / 2 }

// raceCosts are the costs CMA-ES is told for a generation raced with
// finished[i] telling who played the full budget. The finishers keep
// their costs. A dropped individual's cost is partial, and may look
// better than a finisher's (its few games were lucky, or its losses are
// still to come): told as it is, it could enter the parents CMA-ES
// weights, which racing was sure it does not belong to. So each is
// shifted, keeping the order of their partial costs, to rank after the
// worst finisher: the best of them 1 worse than it. The update is then
// the one full evaluation would give whenever racing kept the true best
// pop/2 (its guarantee at the race's confidence), as it only reads them
// (cmaesParents); ties among those aside, as gonum ranks with an
// unstable sort, whose order of equal values depends on the others.
func raceCosts(costs []float64, finished []bool) []float64 {
	worst, best := math.Inf(-1), math.Inf(1)
	for i, c := range costs {
		if finished[i] {
			worst = max(worst, c)
		} else {
			best = min(best, c)
		}
	}
	out := slices.Clone(costs)
	if math.IsInf(best, 1) || math.IsInf(worst, -1) {
		return out // nobody dropped, or (never, racing keeps mu) nobody finished
	}
	for i, c := range costs {
		if !finished[i] {
			out[i] = worst + 1 + (c - best)
			if !(out[i] > worst) { // beyond float64's resolution at worst's size
				out[i] = math.Nextafter(worst, math.Inf(1))
			}
		}
	}
	return out
}
