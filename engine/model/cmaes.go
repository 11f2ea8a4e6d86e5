package model

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// CMA-ES: settings that keep a state, a Model whose sampling has a
// width (Spreader).
var (
	_ Settings    = (*cmaesSettings)(nil)
	_ StateKeeper = (*cmaesSettings)(nil)
	_ Model       = (*cmaesModel)(nil)
	_ Spreader    = (*cmaesModel)(nil)
)

// cmaesSettings are CMA-ES's own settings.
type cmaesSettings struct {
	// StepSize is the initial standard deviation in normalised
	// coordinates; by default DefaultStepSize.
	StepSize float64 `json:"step_size"`
}

func (s *cmaesSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{"step-size": d.Number(&s.StepSize)}
}

func (s *cmaesSettings) Settle(_ *Evolution, has func(string) bool) {
	if !has("evolution.step-size") {
		s.StepSize = DefaultStepSize
	}
}

func (s *cmaesSettings) Check(e *Evolution, chosen bool, bad Bad) {
	if chosen && e.Population >= 2 && !(s.StepSize >= MinStepSize && s.StepSize <= 10) {
		bad("evolution.step-size", "%v: want a number from 1e-9 (a fraction of each gene's range, default %v) to 10", s.StepSize, DefaultStepSize)
	}
}

func (s *cmaesSettings) Size(e *Evolution, _ int) int { return e.Population }

// Kept: CMA-ES's update reads its parents alone (cmaesParents).
func (s *cmaesSettings) Kept(e *Evolution) int { return cmaesParents(e.Population) }

func (s *cmaesSettings) New(e *Evolution, p Problem) (Model, error) {
	// Around the config's first seed when there is one, else around the
	// first random genome generation 0 of another model would have.
	mean := p.Space.Random(fitness.NewRand(p.Streams.Init(0, 0)))
	if len(p.Starts) > 0 {
		mean = slices.Clone(p.Starts[0])
	}
	return &cmaesModel{p: p, sigma: s.StepSize, c: newCMAES(p.Space, e.Population, s.StepSize, mean, p.Streams.Own(0)),
		spread: Spread{Name: "CMA-ES step size"}}, nil
}

// toldKey is the checkpoint's key of the costs CMA-ES was told.
const toldKey = "cmaes_told"

func (s *cmaesSettings) StateKeys() []string { return []string{toldKey} }

// StateBound: a row of told figures per generation, one per genome; a
// float64 in JSON takes at most 24 characters, plus its separator and
// the row's brackets and indentation.
func (s *cmaesSettings) StateBound(e *Evolution, _ int) int64 {
	return int64(min(e.Generations, MaxGenerations)) * (int64(min(e.MaxSize(), MaxPopulation))*32 + 32)
}

// CheckState checks CMA-ES's record: a row of the generation's size of
// fitness values per generation. With racing, a dropped individual was
// told a figure beyond the worst finisher's (raceCosts), which may lie
// outside the objective's range: inRange then asks only for finite.
func (s *cmaesSettings) CheckState(e *Evolution, gens int, st State, inRange func(float64) bool) error {
	raw, ok := st[toldKey]
	if !ok {
		return fmt.Errorf("%s: %s for %s", toldKey, english.Count(0, "row"), english.Count(gens, "generation"))
	}
	var told [][]float64
	if err := json.Unmarshal(raw, &told); err != nil {
		return fmt.Errorf("%s: %v", toldKey, err)
	}
	if len(told) != gens {
		return fmt.Errorf("%s: %s for %s", toldKey, english.Count(len(told), "row"), english.Count(gens, "generation"))
	}
	for g, row := range told {
		if len(row) != e.Size(g) {
			return fmt.Errorf("%s[%d]: %d values, the config samples %d", toldKey, g, len(row), e.Size(g))
		}
		for i, f := range row {
			if !inRange(f) {
				return fmt.Errorf("%s[%d][%d]: %v is out of range", toldKey, g, i, f)
			}
		}
	}
	return nil
}

// cmaesModel samples each generation from CMA-ES's normal distribution
// over the normalised genome and updates it by the generation's ranking
// (gonum's CmaEsChol, driven ask/tell by cmaes below). Its state is not
// saved: the checkpoint keeps the fitness it was told each generation,
// and Resume replays them into a new search from the same seed.
type cmaesModel struct {
	p     Problem
	sigma float64
	c     *cmaes
	// told is the fitness CMA-ES was told of every generation's genomes,
	// in the order it sampled them, in the objective's sense. With
	// racing, a dropped individual's entry is the figure it was told
	// (raceCosts), not its own.
	told [][]float64
	// spread is the spread of every told generation's samples.
	spread Spread
}

func (m *cmaesModel) Ask(int) ([][]float64, error) { return m.c.ask(), nil }

// Tell tells the search the costs of the generation it asked for. The
// individuals racing dropped are told a cost ranking them last
// (raceCosts), which is what the state keeps, so a replay tells the same.
func (m *cmaesModel) Tell(gen int, g Generation) error {
	costs := make([]float64, len(g.Results))
	finished := make([]bool, len(g.Results))
	for i, r := range g.Results {
		costs[i], finished[i] = r.Cost, !r.Dropped
	}
	costs = raceCosts(costs, finished)
	fit := make([]float64, len(costs))
	for i, c := range costs {
		fit[i] = c
		if !m.p.Minimise {
			fit[i] = -c // the cost's inverse, exact
		}
	}
	m.noteSpread()
	restarts := m.c.Restarts
	if err := m.c.tell(costs); err != nil {
		return err
	}
	if m.c.Restarts > restarts && m.p.Logf != nil {
		m.p.Logf("cmaes%s: the distribution collapsed after generation %d; restarting around its best with step size %g",
			m.p.Label, gen+1, m.sigma)
	}
	m.told = append(m.told, fit)
	return nil
}

// Resume rebuilds the search by telling it, generation by generation,
// the fitness it was told before: the samples are a function of the seed
// and of those values alone. The last generation replayed must ask for
// the checkpoint's population, or the replay went astray (an evotune
// built with another gonum, say).
func (m *cmaesModel) Resume(_ int, st State, last Generation) error {
	var told [][]float64
	if err := json.Unmarshal(st[toldKey], &told); err != nil {
		return fmt.Errorf("model: cmaes: %s: %w", toldKey, err)
	}
	var asked [][]float64
	for _, fit := range told {
		asked = m.c.ask()
		m.noteSpread()
		costs := make([]float64, len(fit))
		for i, f := range fit {
			costs[i] = f
			if !m.p.Minimise {
				costs[i] = -f
			}
		}
		if err := m.c.tell(costs); err != nil {
			return err
		}
	}
	m.told = told
	var held [][]float64
	for _, r := range last.Results {
		held = append(held, r.Genes)
	}
	cmp := func(a, b []float64) int { return slices.Compare(a, b) }
	slices.SortFunc(asked, cmp)
	slices.SortFunc(held, cmp)
	if !slices.EqualFunc(asked, held, func(a, b []float64) bool { return slices.Equal(a, b) }) {
		return fmt.Errorf("model: cmaes: replaying the checkpoint's CMA-ES history does not give its last population (was the run started by an evotune built differently?); start a new run")
	}
	return nil
}

// noteSpread measures the generation asked for: the standard deviation
// of each gene over its samples, before they are mirrored into the
// genome's [0, 1], estimates the step size of the distribution sampled.
func (m *cmaesModel) noteSpread() {
	xs := m.c.asked
	if len(xs) < 2 {
		return
	}
	sds := make([]float64, len(xs[0]))
	col := make([]float64, len(xs))
	for g := range sds {
		for i, x := range xs {
			col[i] = x[g]
		}
		_, sds[g] = fitness.MeanSD(col)
	}
	m.spread.add(sds)
}

// Spread is the standard deviation of each told generation's samples
// (noteSpread): CMA-ES's step size as it sampled.
func (m *cmaesModel) Spread() Spread { return m.spread }

func (m *cmaesModel) State() State {
	data, _ := json.Marshal(m.told) // finite numbers always encode
	return State{toldKey: data}
}

func (m *cmaesModel) Close() { m.c.close() }

// DefaultStepSize is CMA-ES's initial standard deviation in normalised
// coordinates when evolution.step-size is not set. gonum's CmaEsChol
// shrinks its distribution by covariance updates only (see start), so a
// start much wider than the optimum's basin is slow to come back from:
// on the bowl of TestCMAESBeatsRandomSearch 0.1 to 0.2 do equally well
// and 0.3 twice as badly.
const DefaultStepSize = 0.15

// MinStepSize is the smallest step size a config may give: a step of a
// billionth of a gene's range moves no gene, and below about 1.5e-154
// the covariance sigma^2 underflows to zero.
const MinStepSize = 1e-9

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
		panic("model: cmaes: sigma^2 I is not positive definite") // sigma >= MinStepSize is checked with the config
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
		return fmt.Errorf("model: cmaes told %d values for %d samples", len(costs), len(c.asked))
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
		return fmt.Errorf("model: cmaes: unexpected %v from gonum", t.Op)
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
