package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// A model that lands as one file and one row of model.Models, as the next
// model must (docs/architecture.md, "How to add a model"): climb mutates
// the best genome it has seen (its own state, which the checkpoint keeps
// beside the others as climb_best), with a step size of its own (the
// evolution.climb-step key), and evaluates one genome more in odd
// generations than in even ones. The engine knows nothing of it: this
// file is all of it.

type climbSettings struct {
	Step float64 `json:"climb_step"`
}

func (s *climbSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{"climb-step": d.Number(&s.Step)}
}

func (s *climbSettings) Settle(_ *model.Evolution, has func(string) bool) {
	if !has("evolution.climb-step") {
		s.Step = 0.2
	}
}

func (s *climbSettings) Check(e *model.Evolution, chosen bool, bad model.Bad) {
	if chosen && !(s.Step > 0 && s.Step <= 1) {
		bad("evolution.climb-step", "%v: want above 0, at most 1", s.Step)
	}
}

func (s *climbSettings) Size(e *model.Evolution, gen int) int { return e.Population + gen%2 }
func (s *climbSettings) Kept(*model.Evolution) int            { return 1 }
func (s *climbSettings) StateKeys() []string                  { return []string{"climb_best"} }
func (s *climbSettings) StateBound(_ *model.Evolution, genes int) int64 {
	return int64(genes)*32 + 64 // the best's genes and fitness
}

func (s *climbSettings) New(e *model.Evolution, p model.Problem) (model.Model, error) {
	return &climb{p: p, e: e, step: s.Step}, nil
}

func (s *climbSettings) CheckState(_ *model.Evolution, _ int, st model.State, inRange func(float64) bool) error {
	var b climbBest
	if err := json.Unmarshal(st["climb_best"], &b); err != nil {
		return fmt.Errorf("climb_best: %v", err)
	}
	if !inRange(b.Fitness) {
		return fmt.Errorf("climb_best.fitness: %v is out of range", b.Fitness)
	}
	return nil
}

// climbBest is climb's state: the best genome it has been told of.
type climbBest struct {
	Genes   []float64 `json:"genes"`
	Fitness float64   `json:"fitness"`
}

type climb struct {
	p    model.Problem
	e    *model.Evolution
	step float64
	best *climbBest
}

func (m *climb) Ask(gen int) ([][]float64, error) {
	n := m.e.Size(gen)
	if m.best == nil {
		out := make([][]float64, n)
		for i := range out {
			out[i] = m.p.Space.Random(fitness.NewRand(m.p.Streams.Init(0, uint64(i))))
		}
		return out, nil
	}
	out := [][]float64{slices.Clone(m.best.Genes)}
	for i := 1; i < n; i++ {
		g := slices.Clone(m.best.Genes)
		m.p.Space.Mutate(g, genome.Mutation{Sigma: m.step, Rate: 1}, fitness.NewRand(m.p.Streams.Own(gen, uint64(i))))
		out = append(out, g)
	}
	return out, nil
}

func (m *climb) cost(f float64) float64 {
	if m.p.Minimise {
		return f
	}
	return -f
}

func (m *climb) Tell(_ int, g model.Generation) error {
	top := g.Results[g.Ranked[0]]
	if m.best == nil || top.Cost < m.cost(m.best.Fitness) {
		m.best = &climbBest{Genes: slices.Clone(top.Genes), Fitness: m.cost(top.Cost)}
	}
	return nil
}

func (m *climb) Resume(_ int, st model.State, _ model.Generation) error {
	m.best = &climbBest{}
	return json.Unmarshal(st["climb_best"], m.best)
}

func (m *climb) State() model.State {
	data, _ := json.Marshal(m.best)
	return model.State{"climb_best": data}
}

func (m *climb) Close() {}

// withClimb registers climb for the test.
func withClimb(t *testing.T) {
	t.Helper()
	saved := model.Models
	model.Models = append(slices.Clone(saved), &model.Info{Name: "climb", Summary: "a test's hill climber",
		Settings: func() model.Settings { return &climbSettings{} }})
	t.Cleanup(func() { model.Models = saved })
}

// TestAModelIsOneFileAndOneRow: a model the engine has never heard of
// runs from a config that names it and sets its own key, keeps its own
// state in the checkpoint, evaluates as many genomes each generation as
// it says, resumes byte for byte, and changes the hash of no config that
// does not choose it; its key under another model is refused.
func TestAModelIsOneFileAndOneRow(t *testing.T) {
	plain := loadText(t, t.TempDir(), smallConfig).Hash()
	withClimb(t)
	if got := loadText(t, t.TempDir(), smallConfig).Hash(); got != plain {
		t.Fatalf("registering a model changed another model's config hash")
	}
	text := strings.Replace(smallConfig, "  tournament-size: 2\n  elitism: 1\n", "  model: climb\n  climb-step: 0.3\n", 1)
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ck, cfg, err := ReadRun(straight)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Close()
	if _, ok := ck.Model["climb_best"]; !ok || len(ck.Population) != 8+(4-1)%2 {
		t.Fatalf("the checkpoint's model state %v, last generation of %d genomes; want climb_best and 9", ck.Model, len(ck.Population))
	}
	for gen, row := range ck.History {
		if want := 24 * (8 + gen%2); row.Games != want {
			t.Errorf("generation %d played %d games, want %d", gen+1, row.Games, want)
		}
	}
	resumed := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: resumed, Workers: 1, Generations: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), Options{Dir: resumed, Workers: 3, Generations: 4}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, readRun(t, straight), readRun(t, resumed), "climb, resumed after generation 2")

	misplaced := strings.Replace(smallConfig, "  elitism: 1\n", "  elitism: 1\n  climb-step: 0.3\n", 1)
	_, err = parse("misplaced.yaml", []byte(misplaced))
	var errs config.Errors
	if !errors.As(err, &errs) || !strings.Contains(err.Error(), "evolution.climb-step: belongs to model climb, and the model is generational") {
		t.Fatalf("climb-step under generational: %v", err)
	}
}

// duel is a model that plays its own pairs, as SPSA plays theta+
// against theta-: each generation is fresh genomes, 2k against 2k+1.
type duelSettings struct{}

func (duelSettings) Fields(*yamlcheck.Checker) yamlcheck.Fields { return nil }
func (duelSettings) Settle(*model.Evolution, func(string) bool) {}
func (duelSettings) Check(*model.Evolution, bool, model.Bad)    {}
func (duelSettings) Size(e *model.Evolution, _ int) int         { return e.Population }
func (duelSettings) Kept(*model.Evolution) int                  { return 1 }
func (duelSettings) New(e *model.Evolution, p model.Problem) (model.Model, error) {
	return &duel{p: p, n: e.Population}, nil
}

type duel struct {
	p model.Problem
	n int
}

func (m *duel) Ask(gen int) ([][]float64, error) {
	out := make([][]float64, m.n)
	for i := range out {
		out[i] = m.p.Space.Random(fitness.NewRand(m.p.Streams.Own(gen, uint64(i))))
	}
	return out, nil
}

func (m *duel) Pairs(int) [][2]int {
	var out [][2]int
	for k := 0; k+1 < m.n; k += 2 {
		out = append(out, [2]int{k, k + 1})
	}
	return out
}

func (m *duel) Tell(int, model.Generation) error                { return nil }
func (m *duel) Resume(int, model.State, model.Generation) error { return nil }
func (m *duel) State() model.State                              { return nil }
func (m *duel) Close()                                          {}

// TestAModelPlaysItsOwnPairs: a model that says who meets whom (a
// model.Pairer) has the population mode's games played between its pairs
// alone, each pair its games seat-swapped, and the run resumes exactly.
func TestAModelPlaysItsOwnPairs(t *testing.T) {
	saved := model.Models
	model.Models = append(slices.Clone(saved), &model.Info{Name: "duel", Summary: "a test's pairs",
		Settings: func() model.Settings { return duelSettings{} }})
	t.Cleanup(func() { model.Models = saved })
	text := "seed: 5\ngame: mnk\nrules: {depth: 1}\nplayer: tuned\nfitness:\n  objective: score\n  population: {games: 4}\nevolution:\n  model: duel\n  population: 6\n  generations: 3\n  hall-of-fame: 3\n"
	cfgDir := t.TempDir()
	cfg := loadText(t, cfgDir, text)
	r := startRunner(t, cfg, Options{Dir: t.TempDir()})
	genomes := firstGeneration(t, r)
	jobs := r.schedule(0, []int{len(genomes[0])}, [][]fitness.Player{nil})
	if len(jobs) != 3*4 {
		t.Fatalf("%d games, want 3 pairs of 4", len(jobs))
	}
	for _, j := range jobs {
		if j.mode != modePopulation || j.a%2 != 0 || j.b != j.a+1 {
			t.Fatalf("a game of %d against %d in mode %d: want 2k against 2k+1 in the population mode", j.a, j.b, j.mode)
		}
	}
	straight, resumed := t.TempDir(), t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: resumed, Workers: 1, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), Options{Dir: resumed, Workers: 2, Generations: 3}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, readRun(t, straight), readRun(t, resumed), "duel, resumed after generation 1")
}
