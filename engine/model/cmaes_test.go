package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"gopkg.in/yaml.v3"
)

// mixedSpace has a gene of every kind the models must handle: floats (one
// on a log scale), ints, a bool, a choice and a grid.
func mixedSpace(t testing.TB) *genome.Space {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(`
a: {type: float, min: -3, max: 3}
b: {type: float, min: 0.01, max: 100, log: true}
c: {type: float, min: 0, max: 1}
n: {type: int, min: 0, max: 20}
m: {type: int, min: -5, max: 5}
on: {type: bool}
style: {type: choice, choices: [x, y, z, w]}
g: {type: grid, rows: 2, cols: 2, min: 0, max: 1}
`), &n); err != nil {
		t.Fatal(err)
	}
	s, err := genome.NewSpace(nil, n.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// trueCost is a smooth bowl over the decoded values, 0 at its optimum.
func trueCost(t testing.TB, s *genome.Space, genes []float64) float64 {
	v, err := s.Decode(genes)
	if err != nil {
		t.Fatal(err)
	}
	sq := func(x float64) float64 { return x * x }
	c := sq((v.Float("a")-1.2)/6) + sq((math.Log10(v.Float("b"))-0.5)/4) + sq(v.Float("c")-0.3) +
		sq(float64(v.Int("n")-13)/20) + sq(float64(v.Int("m")+2)/10)
	if !v.Bool("on") {
		c += 0.02
	}
	if v.Choice("style") != "z" {
		c += 0.02
	}
	for i, w := range v.Grid("g") {
		c += sq(w - float64(i)/4)
	}
	return c
}

// searchModel is ask/tell over genomes: what cmaes and random search do.
type searchModel interface {
	ask() [][]float64
	tell([]float64) error
}

// randomModel is random search: every generation fresh uniform genomes.
type randomModel struct {
	s   *genome.Space
	pop int
	rng *rand.Rand
}

func (r *randomModel) ask() [][]float64 {
	out := make([][]float64, r.pop)
	for i := range out {
		out[i] = r.s.Random(r.rng)
	}
	return out
}
func (r *randomModel) tell([]float64) error { return nil }

// optimise runs a model for gens generations on the noisy bowl and
// returns the true cost of the genome it would report: the one with the
// lowest noisy value seen (as the hall of fame reports).
func optimise(t testing.TB, s *genome.Space, m searchModel, gens int, noise *rand.Rand) float64 {
	bestSeen, bestTrue := math.Inf(1), 0.0
	for range gens {
		pool := m.ask()
		costs := make([]float64, len(pool))
		for i, g := range pool {
			c := trueCost(t, s, g)
			costs[i] = c + 0.05*noise.NormFloat64()
			if costs[i] < bestSeen {
				bestSeen, bestTrue = costs[i], c
			}
		}
		if err := m.tell(costs); err != nil {
			t.Fatal(err)
		}
	}
	return bestTrue
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

// TestCMAESBeatsRandomSearch: on a noisy bowl over genes of every kind,
// CMA-ES reports a better genome than random search for the same number
// of evaluations, in the median of 7 seeds and on most seeds.
func TestCMAESBeatsRandomSearch(t *testing.T) {
	s := mixedSpace(t)
	const pop, gens, seeds = 12, 25, 7
	var cm, rs []float64
	wins := 0
	for seed := range uint64(seeds) {
		mean := s.Random(fitness.NewRand(fitness.Derive(seed, 1)))
		c := newCMAES(s, pop, DefaultStepSize, mean, fitness.Derive(seed, 2))
		cm = append(cm, optimise(t, s, c, gens, fitness.NewRand(fitness.Derive(seed, 3))))
		c.close()
		rs = append(rs, optimise(t, s, &randomModel{s, pop, fitness.NewRand(fitness.Derive(seed, 4))}, gens, fitness.NewRand(fitness.Derive(seed, 3))))
		if cm[seed] < rs[seed] {
			wins++
		}
	}
	t.Logf("true cost of the reported best after %d evaluations: cmaes %.4f (median of %v), random search %.4f (median of %v)",
		pop*gens, median(cm), cm, median(rs), rs)
	if !(median(cm) < median(rs)/2) || wins < seeds-1 {
		t.Errorf("cmaes median %.4f, random search %.4f, cmaes better on %d of %d seeds: want at most half, on all but one seed",
			median(cm), median(rs), wins, seeds)
	}
}

func TestRaceCosts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		costs    []float64
		finished []bool
		want     []float64
	}{
		{"nobody dropped", []float64{3, 1, 2}, []bool{true, true, true}, []float64{3, 1, 2}},
		{"dropped look better: shifted past the worst finisher, in order",
			[]float64{5, 1, 7, 2, 6}, []bool{true, false, true, false, true}, []float64{5, 8, 7, 9, 6}},
		{"dropped already worse: shifted all the same",
			[]float64{1, 9, 2, 12}, []bool{true, false, true, false}, []float64{1, 3, 2, 6}},
		{"ties among the dropped stay ties", []float64{4, 0, 0, 5}, []bool{true, false, false, true}, []float64{4, 6, 6, 5}},
		{"a worst finisher too large for +1", []float64{1e17, 0}, []bool{true, false}, []float64{1e17, math.Nextafter(1e17, math.Inf(1))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := raceCosts(tc.costs, tc.finished)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("raceCosts(%v, %v) = %v, want %v", tc.costs, tc.finished, got, tc.want)
			}
		})
	}
}

// TestRacedCMAESUpdatesAsFullEvaluation: a generation of 8 samples
// (CMA-ES weights the best 4) in which racing dropped three individuals
// after a lucky start, while the best 4 of the full budget finished.
// Telling CMA-ES raceCosts must give the very next generation that the
// full budget's costs give; telling the dropped their raw partial costs
// (which rank one of them among the best 4) must not.
func TestRacedCMAESUpdatesAsFullEvaluation(t *testing.T) {
	s := mixedSpace(t)
	const pop = 8
	full := []float64{0.9, 0.2, 1.4, 0.5, 0.3, 1.1, 0.4, 1.6}
	finished := []bool{true, true, false, true, true, false, true, false}
	partial := slices.Clone(full)
	partial[2], partial[5], partial[7] = 0.1, 0.35, 2.0 // one looks best, one would rank 3rd, one is worse
	next := func(costs []float64) [][]float64 {
		c := newCMAES(s, pop, DefaultStepSize, s.Random(fitness.NewRand(fitness.Derive(5, 1))), fitness.Derive(5, 2))
		defer c.close()
		c.ask()
		if err := c.tell(costs); err != nil {
			t.Fatal(err)
		}
		return c.ask()
	}
	same := func(a, b [][]float64) bool {
		return slices.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) })
	}
	want := next(full)
	if got := next(raceCosts(partial, finished)); !same(got, want) {
		t.Fatalf("told raceCosts, CMA-ES asks for\n%v\nafter full evaluation\n%v", got, want)
	}
	if got := next(partial); same(got, want) {
		t.Fatal("told the raw partial costs, CMA-ES asks as after full evaluation: the case does not tell the two apart")
	}
}

// TestRaceCostsWithoutFinishers: with nobody finished (which racing,
// keeping mu, never does) there is no worst finisher to rank the
// dropped after, and the costs are told as they are.
func TestRaceCostsWithoutFinishers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		costs    []float64
		finished []bool
	}{
		{"one dropped", []float64{2}, []bool{false}},
		{"all dropped", []float64{3, -1, 2}, []bool{false, false, false}},
		{"nobody at all", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := raceCosts(tc.costs, tc.finished); !slices.Equal(got, tc.costs) {
				t.Fatalf("raceCosts(%v, %v) = %v, want them as they are", tc.costs, tc.finished, got)
			}
		})
	}
}

// TestCMAESCloseEndsItsGoroutine: close ends gonum's Run, which closes
// its channel of operations, whether Run waits for the first generation's
// values, for the next ask, or has ended already at a collapse (the
// search restarts at the next ask); closing twice is harmless.
func TestCMAESCloseEndsItsGoroutine(t *testing.T) {
	s := mixedSpace(t)
	for _, tc := range []struct {
		name string
		gens int // generations asked and told before the close
	}{
		{"before any tell", 0},
		{"after a tell", 1},
		{"after three", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCMAES(s, 6, DefaultStepSize, s.Random(fitness.NewRand(1)), 2)
			for g := range tc.gens {
				costs := make([]float64, len(c.ask()))
				for i := range costs {
					costs[i] = float64((i*7 + g) % 5)
				}
				if err := c.tell(costs); err != nil {
					t.Fatal(err)
				}
			}
			ops := c.ops
			c.close()
			select {
			case _, open := <-ops:
				if open {
					t.Fatal("Run sent an operation after close")
				}
			default:
				t.Fatal("after close, Run's channel of operations is still open: its goroutine runs on")
			}
			if c.ops != nil || c.res != nil {
				t.Fatal("close kept the channels of an ended Run")
			}
			c.close()
		})
	}
}

// TestCMAESRestartIsLogged: run.log says when CMA-ES's distribution
// collapses and restarts, once per restart, naming the generation (from
// 1) after which it happened; generations without one say nothing.
func TestCMAESRestartIsLogged(t *testing.T) {
	var log []string
	s := &cmaesSettings{StepSize: 0.3}
	e := Defaults()
	e.Population = 6
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("x: {type: float, min: 0, max: 1}\n"), &n); err != nil {
		t.Fatal(err)
	}
	space, err := genome.NewSpace(nil, n.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.New(&e, Problem{Space: space, Minimise: true, Label: " (rivals)",
		Streams: Streams{Init: func(int, ...uint64) uint64 { return 1 }, Own: func(int, ...uint64) uint64 { return 2 }},
		Logf:    func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := m.(*cmaesModel).c
	restartAt := -1
	for g := 0; g < 3000 && restartAt < 0; g++ {
		pool, err := m.Ask(g)
		if err != nil {
			t.Fatal(err)
		}
		gen := Generation{}
		for i, x := range pool {
			gen.Results = append(gen.Results, Result{Genes: x, Cost: (x[0] - 0.37) * (x[0] - 0.37)})
			gen.Ranked = append(gen.Ranked, i)
		}
		if err := m.Tell(g, gen); err != nil {
			t.Fatal(err)
		}
		if c.Restarts > 0 {
			restartAt = g
		}
		if restartAt < 0 && len(log) > 0 {
			t.Fatalf("generation %d logged without a restart: %q", g+1, log)
		}
	}
	if restartAt < 0 {
		t.Fatal("no restart in 3000 generations")
	}
	want := fmt.Sprintf("cmaes (rivals): the distribution collapsed after generation %d; restarting around its best with step size 0.3", restartAt+1)
	if len(log) != 1 || log[0] != want {
		t.Fatalf("run.log %q, want %q", log, want)
	}
}
