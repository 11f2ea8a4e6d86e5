package model

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// evolution decodes text as a config's evolution: section, with its
// defaults settled, and returns it with the problems decoding and checking
// it found, one line each.
func evolution(t *testing.T, text string) (*Evolution, []string) {
	t.Helper()
	d := yamlcheck.New("e.yaml")
	root := d.Parse([]byte("evolution:\n" + text))
	e := Defaults()
	d.Map(root, "", yamlcheck.Fields{"evolution": e.Decode(d)})
	e.Settle(d.Has)
	e.Check(d.Has, func(key, format string, args ...any) { d.Add(d.Line(key), key, format, args...) })
	var problems []string
	for _, p := range d.Errors() {
		problems = append(problems, p.Key+": "+p.Msg)
	}
	return &e, problems
}

// streams are a species' random streams as a run of seed 9 derives them.
func streams() Streams {
	of := func(purpose uint64) Stream {
		return func(gen int, index ...uint64) uint64 {
			return fitness.Derive(9, append([]uint64{uint64(gen), purpose}, index...)...)
		}
	}
	return Streams{Init: of(1), Breed: of(2), Fresh: of(3), Own: of(9)}
}

// tell gives m generation gen's genomes with the costs cost gives them,
// ranked best first (racing drops those of index in dropped), and returns
// the generation told.
func tell(t *testing.T, m Model, gen int, genes [][]float64, cost func(i int) float64, dropped ...int) Generation {
	t.Helper()
	g := Generation{}
	for i, x := range genes {
		g.Results = append(g.Results, Result{Genes: x, Cost: cost(i), Dropped: slices.Contains(dropped, i)})
		g.Ranked = append(g.Ranked, i)
	}
	slices.SortStableFunc(g.Ranked, func(a, b int) int {
		ra, rb := g.Results[a], g.Results[b]
		if ra.Dropped != rb.Dropped {
			if ra.Dropped {
				return 1
			}
			return -1
		}
		switch {
		case ra.Cost < rb.Cost:
			return -1
		case ra.Cost > rb.Cost:
			return 1
		}
		return 0
	})
	if err := m.Tell(gen, g); err != nil {
		t.Fatal(err)
	}
	return g
}

func same(a, b [][]float64) bool {
	return slices.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) })
}

// TestModelsKeepTheirPromises runs every model of the table for three
// generations on a space of every kind of gene and holds each to what it
// promises: how many genomes a generation evaluates, which of the best
// the next one carries as they are (Kept), genomes of the space, draws
// from its own streams only (two instances ask alike), and a Resume from
// what a checkpoint keeps that asks (and measures its spread) as the
// model told all along.
func TestModelsKeepTheirPromises(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		size, kept int
		// carried says which of generation gen+1's genomes are the best
		// of gen, in rank order, and from which position.
		carried int
	}{
		{"generational", "  population: 8\n  elitism: 3\n", 8, 3, 3},
		{"generational roulette", "  population: 8\n  elitism: 1\n  selection: roulette\n  crossover: uniform\n", 8, 1, 1},
		{"down-to-size", "  model: down-to-size\n  population: 6\n  offspring: 5\n", 11, 6, 6},
		{"down-to-size, offspring by default", "  model: down-to-size\n  population: 4\n", 8, 4, 4},
		{"natural-selection", "  model: natural-selection\n  population: 7\n  keep: 2\n", 7, 2, 2},
		{"random-search", "  model: random-search\n  population: 5\n  elitism: 3\n", 5, 3, 0},
		{"cmaes", "  model: cmaes\n  population: 6\n", 6, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, problems := evolution(t, tc.text)
			if len(problems) > 0 {
				t.Fatal(problems)
			}
			if got := e.Kept(); got != tc.kept {
				t.Errorf("Kept %d, want %d", got, tc.kept)
			}
			space := mixedSpace(t)
			p := Problem{Space: space, Starts: [][]float64{space.Random(fitness.NewRand(5))}, Minimise: true, Streams: streams()}
			a, err := e.New(p)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b, _ := e.New(p)
			defer b.Close()
			cost := func(gen int) func(int) float64 {
				return func(i int) float64 { return float64((i*7+gen*3)%11) + float64(i)/100 }
			}
			var last Generation
			var st State
			for gen := range 3 {
				x, err := a.Ask(gen)
				if err != nil {
					t.Fatal(err)
				}
				y, _ := b.Ask(gen)
				if !same(x, y) {
					t.Fatalf("generation %d: two instances asked for other genomes", gen)
				}
				if len(x) != tc.size || e.Size(gen) != tc.size {
					t.Fatalf("generation %d: %d genomes (Size %d), want %d", gen, len(x), e.Size(gen), tc.size)
				}
				for _, g := range x {
					if err := space.Check(g); err != nil {
						t.Fatalf("generation %d: %v", gen, err)
					}
				}
				if gen == 0 && tc.name != "cmaes" && !slices.Equal(x[0], p.Starts[0]) {
					t.Fatalf("generation 0 does not start with the seed")
				}
				if gen > 0 {
					for k := range tc.carried {
						if !slices.Equal(x[k], last.Results[last.Ranked[k]].Genes) {
							t.Fatalf("generation %d: genome %d is not the %d-th best of generation %d", gen, k, k+1, gen-1)
						}
					}
				}
				if gen == 2 {
					break
				}
				last = tell(t, a, gen, x, cost(gen))
				tell(t, b, gen, y, cost(gen))
				st = a.State()
			}
			// A model resumed from the checkpoint of generation 1 asks
			// for generation 2 as the model that went on did.
			c, _ := e.New(p)
			defer c.Close()
			ranked := Generation{Results: last.Ranking()}
			for i := range ranked.Results {
				ranked.Ranked = append(ranked.Ranked, i)
			}
			if err := c.Resume(1, st, ranked); err != nil {
				t.Fatal(err)
			}
			want, _ := b.Ask(2)
			got, err := c.Ask(2)
			if err != nil || !same(got, want) {
				t.Fatalf("resumed after generation 1: asks for other genomes (%v)", err)
			}
			// and, told the same, keeps the same state.
			tell(t, b, 2, want, cost(2))
			tell(t, c, 2, got, cost(2))
			if bs, cs := fmt.Sprint(b.State()), fmt.Sprint(c.State()); bs != cs {
				t.Fatalf("resumed after generation 1, then told generation 2: state %s, want %s", cs, bs)
			}
			// A model's sampling width, where it has one, is the same
			// however the model got there: a page reads it off a replay.
			bs, ok := b.(Spreader)
			if ok != (tc.name == "cmaes") {
				t.Fatalf("Spreader %v, want it for CMA-ES alone of these (spsa: TestSPSASpreadFollowsItsSchedule)", ok)
			}
			if ok {
				want, got := bs.Spread(), c.(Spreader).Spread()
				if len(want.RMS) != 3 || !reflect.DeepEqual(got, want) {
					t.Fatalf("resumed: spread %+v, want %+v (3 generations)", got, want)
				}
			}
		})
	}
}

// TestFreshGenomesComeFromTheirStream: natural selection's fresh genomes
// and random search's whole generations are drawn from the Fresh stream
// of the generation bred from, index by index.
func TestFreshGenomesComeFromTheirStream(t *testing.T) {
	space := mixedSpace(t)
	p := Problem{Space: space, Streams: streams()}
	for _, text := range []string{"  model: natural-selection\n  population: 5\n  keep: 2\n", "  model: random-search\n  population: 5\n"} {
		e, _ := evolution(t, text)
		m, _ := e.New(p)
		x, _ := m.Ask(0)
		tell(t, m, 0, x, func(i int) float64 { return float64(i) })
		next, _ := m.Ask(1)
		from := e.Kept()
		if e.Model.Name == "random-search" {
			from = 0
		}
		for i := from; i < len(next); i++ {
			if want := space.Random(fitness.NewRand(p.Streams.Fresh(0, uint64(i)))); !slices.Equal(next[i], want) {
				t.Fatalf("%s: genome %d of generation 1 is not fresh genome %d of generation 0's stream", e.Model.Name, i, i)
			}
		}
	}
}

// TestAskingAheadIsRefused: a model that breeds from its last generation
// refuses to ask for one it was not told the generation before of.
func TestAskingAheadIsRefused(t *testing.T) {
	e, _ := evolution(t, "  population: 4\n  tournament-size: 2\n  elitism: 1\n")
	m, _ := e.New(Problem{Space: mixedSpace(t), Streams: streams()})
	x, _ := m.Ask(0)
	if _, err := m.Ask(1); err == nil {
		t.Fatal("generation 1 asked for before generation 0 was told")
	}
	tell(t, m, 0, x, func(i int) float64 { return float64(i) })
	if _, err := m.Ask(2); err == nil || !strings.Contains(err.Error(), "generation 2 asked for before generation 1 was told") {
		t.Fatalf("generation 2 after telling 0: %v", err)
	}
}

// TestEvolutionChecks: every model's settings are held to their ranges
// when the model is the run's, a shared key to its limit whatever the
// model, and a key of a model without shared keys is refused under
// another; the defaults of the run's model follow what was written.
func TestEvolutionChecks(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"defaults", "", nil},
		{"population", "  population: 1\n  generations: 0\n  hall-of-fame: 0\n", []string{
			"evolution.population: 1: want at least 2", "evolution.generations: 0: want at least 1", "evolution.hall-of-fame: 0: want at least 1"}},
		{"rates", "  crossover-rate: 1.5\n  mutation-rate: -0.1\n  blend-alpha: -1\n  mutation: {sigma: -1, gene-rate: 2, choice-rate: -1}\n", []string{
			"evolution.crossover-rate: 1.5: want a probability in [0, 1]", "evolution.mutation-rate: -0.1: want a probability in [0, 1]",
			"evolution.mutation.gene-rate: 2: want a probability in [0, 1]", "evolution.mutation.choice-rate: -1: want a probability in [0, 1]",
			"evolution.mutation.sigma: -1: want 0 (default 0.1) or more", "evolution.blend-alpha: -1: want 0 or more"}},
		{"tournament at the edge", "  population: 4\n  tournament-size: 3\n  elitism: 1\n", nil},
		{"tournament too large", "  population: 4\n  tournament-size: 4\n  elitism: 1\n", []string{"evolution.tournament-size: 4: want from 1 to population-1 (3)"}},
		{"tournament of 0", "  tournament-size: 0\n", []string{"evolution.tournament-size: 0: want from 1 to population-1 (23)"}},
		{"roulette ignores the tournament", "  selection: roulette\n  tournament-size: 0\n", nil},
		{"natural selection ignores the tournament", "  model: natural-selection\n  tournament-size: 0\n", nil},
		{"elitism", "  elitism: 24\n", []string{"evolution.elitism: 24: want from 0 to population-1 (23)"}},
		{"elitism of 0", "  elitism: 0\n", nil},
		{"elitism of another model", "  model: natural-selection\n  elitism: 99\n", nil},
		{"keep", "  model: natural-selection\n  keep: 0\n", []string{"evolution.keep: 0: want from 1 to population-1 (23)"}},
		{"keep at the edge", "  model: natural-selection\n  keep: 23\n", nil},
		{"offspring", "  model: down-to-size\n  offspring: 1\n", []string{"evolution.offspring: 1: want at least 2"}},
		{"offspring's limit, any model", "  offspring: 10001\n", []string{"evolution.offspring: 10001: more than the limit of 10000"}},
		{"step-size", "  model: cmaes\n  step-size: 0\n", []string{"evolution.step-size: 0: want a number from 1e-9 (a fraction of each gene's range, default 0.15) to 10"}},
		{"step-size at the edge", "  model: cmaes\n  step-size: 10\n", nil},
		{"step-size of another model", "  step-size: 0.2\n", []string{"evolution.step-size: belongs to model cmaes, and the model is generational"}},
		{"unknown names", "  model: annealing\n  selection: lottery\n  crossover: average\n", []string{
			"evolution.model: unknown model \"annealing\" (want generational, down-to-size, natural-selection, cmaes, random-search, spsa, bayes)",
			"evolution.selection: unknown selection \"lottery\" (want tournament, roulette)",
			"evolution.crossover: unknown crossover \"average\" (want uniform or blend)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got := evolution(t, tc.text)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("problems\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestEvolutionHash: the section's hash form holds the shared settings
// and the keys of the models with shared keys whatever the model, and a
// model's own keys only when it is the run's.
func TestEvolutionHash(t *testing.T) {
	hashed := func(text string) map[string]any {
		e, problems := evolution(t, text)
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	gen := hashed("")
	for key, want := range map[string]any{"model": "generational", "population": 24.0, "hall_of_fame": 10.0, "selection": "tournament",
		"tournament_size": 3.0, "crossover": "blend", "crossover_rate": 0.7, "blend_alpha": 0.3, "mutation_rate": 0.8,
		"elitism": 2.0, "keep": 2.0, "offspring": 0.0} {
		if gen[key] != want {
			t.Errorf("%s: %v, want %v", key, gen[key], want)
		}
	}
	if _, ok := gen["step_size"]; ok {
		t.Error("a generational config's hash holds CMA-ES's step_size")
	}
	if _, ok := gen["generations"]; ok {
		t.Error("the budget is hashed")
	}
	if cma := hashed("  model: cmaes\n"); cma["step_size"] != DefaultStepSize {
		t.Errorf("cmaes: step_size %v, want the default %v", cma["step_size"], DefaultStepSize)
	}
	if dts := hashed("  model: down-to-size\n  population: 6\n"); dts["offspring"] != 6.0 {
		t.Errorf("down-to-size: offspring %v, want the population's 6", dts["offspring"])
	}
}

// TestStateKeysBelongToTheirModel: a checkpoint's model state is checked
// by the run's model, and a key of another model's is refused naming it.
func TestStateKeysBelongToTheirModel(t *testing.T) {
	e, _ := evolution(t, "")
	inRange := func(float64) bool { return true }
	if err := e.CheckState(3, State{"cmaes_told": json.RawMessage("[]")}, inRange); err == nil || err.Error() != "cmaes_told: present, and the model is generational" {
		t.Fatalf("cmaes_told under generational: %v", err)
	}
	if err := e.CheckState(3, State{"nobody": json.RawMessage("1")}, inRange); err == nil || !strings.Contains(err.Error(), "nobody: no model keeps it") {
		t.Fatalf("an unknown key: %v", err)
	}
	if !IsStateKey("cmaes_told") || IsStateKey("population") {
		t.Fatal("IsStateKey")
	}
	c, _ := evolution(t, "  model: cmaes\n  population: 4\n")
	for _, tc := range []struct {
		told string
		want string
	}{
		{"[[1,2,3,4],[1,2,3,4]]", ""},
		{"[[1,2,3,4]]", "cmaes_told: 1 row for 2 generations"},
		{"[[1,2,3,4],[1,2,3]]", "cmaes_told[1]: 3 values, the config samples 4"},
		{"[[1,2,3,4],[1,2,3,-4]]", "cmaes_told[1][3]: -4 is out of range"},
		{`"x"`, "cmaes_told: json: cannot unmarshal"},
	} {
		err := c.CheckState(2, State{"cmaes_told": json.RawMessage(tc.told)}, func(x float64) bool { return x >= 0 })
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("told %s: %v, want %q", tc.told, err, tc.want)
		}
	}
	if err := c.CheckState(1, nil, inRange); err == nil || err.Error() != "cmaes_told: 0 rows for 1 generation" {
		t.Errorf("no told costs: %v", err)
	}
}

// TestLookup finds every model of the table by its name, and no other.
func TestLookup(t *testing.T) {
	for _, m := range Models {
		if got, ok := Lookup(m.Name); !ok || got != m {
			t.Errorf("Lookup(%q)", m.Name)
		}
	}
	if _, ok := Lookup("annealing"); ok {
		t.Error("Lookup found a model that is not in the table")
	}
}
