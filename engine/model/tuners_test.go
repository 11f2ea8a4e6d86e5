package model

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// newOwn starts the model named name at its defaults on space s, as the
// engine would for a solo measure of games games a genome a generation.
func newOwn(t testing.TB, name string, s *genome.Space, pop, gens, games int, seed uint64, set func(Settings)) Model {
	t.Helper()
	e := Defaults()
	info, _ := Lookup(name)
	e.Model, e.Population, e.Generations = info, pop, gens
	e.Uses = Uses{Genes: s.Len(), Baselines: true, BaselineGames: games, BaselineOpponents: 1}
	e.Settle(func(string) bool { return false })
	if set != nil {
		set(e.settings())
	}
	var problems []string
	e.Check(func(string) bool { return false }, func(key, format string, args ...any) { problems = append(problems, key) })
	if len(problems) > 0 {
		t.Fatalf("the settings are refused: %v", problems)
	}
	of := func(purpose uint64) Stream {
		return func(gen int, index ...uint64) uint64 {
			return fitness.Derive(seed, append([]uint64{uint64(gen), purpose}, index...)...)
		}
	}
	m, err := e.New(Problem{Space: s, Streams: Streams{Init: of(1), Breed: of(2), Fresh: of(3), Own: of(4)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// playBowl plays generation gen of a solo measure on the noisy bowl:
// every genome on the same games deals (a deal shifts every genome's
// cost alike, as common random numbers do), each game with its own noise
// of sd on top; a genome's figure is its mean.
func playBowl(t testing.TB, s *genome.Space, pool [][]float64, games int, sd float64, rng *rand.Rand) Generation {
	deals := make([]float64, games)
	for d := range deals {
		deals[d] = sd * rng.NormFloat64()
	}
	g := Generation{}
	for i, genes := range pool {
		c := trueCost(t, s, genes)
		var sum, sq float64
		for _, shared := range deals {
			x := c + shared + sd*rng.NormFloat64()
			sum += x
			sq += x * x
		}
		mean := sum / float64(games)
		v := (sq - sum*mean) / float64(games-1)
		g.Results = append(g.Results, Result{Genes: genes, Cost: mean, Games: games, SE: math.Sqrt(v / float64(games))})
		g.Ranked = append(g.Ranked, i)
	}
	return g
}

// recommended is the true cost of what a model recommends after its
// run: spsa's theta and bayes's pessimistic optimum from their state,
// any other model's best figure seen (as the hall of fame reports).
func recommended(t testing.TB, s *genome.Space, m Model, bestSeen []float64) float64 {
	st := m.State()
	for _, key := range []string{spsaKey, bayesKey} {
		if raw, ok := st[key]; ok {
			var v struct {
				Recommend []float64 `json:"recommend"`
			}
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			return trueCost(t, s, v.Recommend)
		}
	}
	return trueCost(t, s, bestSeen)
}

// optimiseBowl runs model m for gens generations on the noisy bowl and
// returns the true cost of what it recommends.
func optimiseBowl(t testing.TB, s *genome.Space, m Model, gens, games int, sd float64, noise *rand.Rand) float64 {
	var best []float64
	bestCost := math.Inf(1)
	for gen := range gens {
		pool, err := m.Ask(gen)
		if err != nil {
			t.Fatal(err)
		}
		g := playBowl(t, s, pool, games, sd, noise)
		for _, r := range g.Results {
			if r.Cost < bestCost {
				best, bestCost = r.Genes, r.Cost
			}
		}
		if err := m.Tell(gen, g); err != nil {
			t.Fatal(err)
		}
	}
	return recommended(t, s, m, best)
}

// beatsRandomSearch: on the noisy bowl over genes of every kind, model
// name recommends a genome of lower true cost than random search's best
// figure at the same games, in the median of 7 seeds and on most seeds.
func beatsRandomSearch(t *testing.T, name string, pop, gens int, set func(Settings)) {
	s := mixedSpace(t)
	const games, sd, seeds = 20, 0.25, 7
	var own, rs []float64
	wins, size := 0, 0
	for seed := range uint64(seeds) {
		m := newOwn(t, name, s, pop, gens, games, seed, set)
		first, err := m.Ask(0)
		if err != nil {
			t.Fatal(err)
		}
		size = len(first) // spsa asks for theta beside its pairs: random search gets as many games
		own = append(own, optimiseBowl(t, s, m, gens, games, sd, fitness.NewRand(fitness.Derive(seed, 9))))
		rs = append(rs, optimiseBowl(t, s, newOwn(t, "random-search", s, size, gens, games, seed, nil), gens, games, sd, fitness.NewRand(fitness.Derive(seed, 9))))
		if own[seed] < rs[seed] {
			wins++
		}
	}
	t.Logf("true cost of the recommendation after %d games: %s %.4f (median of %v), random search %.4f (median of %v)",
		size*gens*games, name, median(own), own, median(rs), rs)
	if !(median(own) < median(rs)) || wins < seeds-2 {
		t.Errorf("%s median %.4f, random search %.4f, %s better on %d of %d seeds: want better in the median and on all but two seeds",
			name, median(own), median(rs), name, wins, seeds)
	}
}

func TestSPSABeatsRandomSearch(t *testing.T) { beatsRandomSearch(t, "spsa", 12, 25, nil) }

// TestBayesBeatsRandomSearch runs on a smaller candidate set than the
// default, to keep the test quick.
func TestBayesBeatsRandomSearch(t *testing.T) {
	beatsRandomSearch(t, "bayes", 8, 10, func(s Settings) { s.(*bayesSettings).Candidates = 150 })
}

// TestTunersRefuse: what spsa and bayes cannot honour is refused, one
// line naming the key; the same config under another model is not.
func TestTunersRefuse(t *testing.T) {
	for _, tc := range []struct {
		model string
		uses  Uses
		pop   int
		key   string
		msg   string
	}{
		{"bayes", Uses{Genes: 24, Baselines: true, BaselineGames: 10}, 8, "evolution.model", "model bayes models at most 20 genes; this space has 24"},
		{"bayes", Uses{Genes: 4, Baselines: true, Racing: true}, 8, "racing", "no racing"},
		{"bayes", Uses{Genes: 4, Coevolve: true}, 8, "coevolve", "no co-evolution"},
		{"spsa", Uses{Genes: 4, Score: true, Population: true, PopulationGames: 4, Rated: true}, 8, "fitness.population.rating", "use the mean score"},
		{"spsa", Uses{Genes: 4, Baselines: true, Population: true}, 8, "fitness.baselines", "not both: give one mode no weight"},
		{"spsa", Uses{Genes: 4, Score: true, Population: true, HallOfFame: true}, 8, "fitness.hall-of-fame", "give hall-of-fame games no weight"},
		{"spsa", Uses{Genes: 4, Baselines: true}, 9, "evolution.population", "want an even number"},
	} {
		t.Run(tc.model+" "+tc.key, func(t *testing.T) {
			for _, name := range []string{tc.model, "cmaes"} {
				e := Defaults()
				e.Model, _ = Lookup(name)
				e.Population, e.Uses = tc.pop, tc.uses
				e.Settle(func(string) bool { return false })
				var got []string
				e.Check(func(string) bool { return false }, func(key, format string, args ...any) {
					got = append(got, key+": "+fmt.Sprintf(format, args...))
				})
				refused := len(got) == 1 && strings.HasPrefix(got[0], tc.key+": ") && strings.Contains(got[0], tc.msg)
				if name == tc.model && !refused {
					t.Errorf("%s refuses %q, want one line at %s saying %q", name, got, tc.key, tc.msg)
				}
				if name != tc.model && len(got) != 0 {
					t.Errorf("%s refuses %q, want nothing", name, got)
				}
			}
		})
	}
}

// TestTunersAskForTheirRecommendation: with the baselines mode spsa's
// generation ends with theta snapped to a genome, and a fitted bayes
// generation ends with its pessimistic optimum, so the point each
// recommends is measured and can enter the hall of fame.
func TestTunersAskForTheirRecommendation(t *testing.T) {
	s := mixedSpace(t)
	for _, name := range []string{"spsa", "bayes"} {
		m := newOwn(t, name, s, 8, 4, 20, 3, func(st Settings) {
			if b, ok := st.(*bayesSettings); ok {
				b.Initial, b.Candidates = 8, 40
			}
		})
		rng := fitness.NewRand(11)
		for gen := range 3 {
			pool, err := m.Ask(gen)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Recommend []float64 `json:"recommend"`
				SPSA      *struct {
					Theta []float64 `json:"theta"`
				} `json:"spsa"`
			}
			for _, raw := range m.State() {
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatal(err)
				}
			}
			want := v.Recommend
			if v.SPSA != nil {
				want = s.Project(v.SPSA.Theta)
				if len(pool) != 9 {
					t.Fatalf("spsa asked for %d genomes, want 4 pairs and theta", len(pool))
				}
			}
			if gen > 0 && !slices.Equal(pool[len(pool)-1], want) {
				t.Errorf("%s generation %d ends with %v, want its recommendation %v", name, gen, pool[len(pool)-1], want)
			}
			if err := m.Tell(gen, playBowl(t, s, pool, 20, 0.25, rng)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSPSASpreadFollowsItsSchedule: spsa's spread is, generation by
// generation, the c_k = c/(k+1)^gamma of the generation's first pair
// (internal/spsa's schedule, c = c_end * pairs^gamma), the same in every
// gene, k counting the pairs played (generation 2 plays fewer games); a
// model resumed from any generation's checkpoint, or from one written
// before the generations' first pairs were kept (while the games were
// full), reads the same spread as the model that played on.
func TestSPSASpreadFollowsItsSchedule(t *testing.T) {
	s := mixedSpace(t)
	const pop, gens, games, gamma = 4, 5, 10, 0.5
	set := func(st Settings) { st.(*spsaSettings).Gamma = gamma }
	live := newOwn(t, "spsa", s, pop, gens, games, 3, set)
	rng := fitness.NewRand(11)
	var told []Generation
	var states []State
	var starts []int
	k := 0
	for gen := range gens {
		pool, err := live.Ask(gen)
		if err != nil {
			t.Fatal(err)
		}
		played := games
		if gen == 2 {
			played = games - 4
		}
		starts = append(starts, k)
		k += (pop / 2) * played
		g := playBowl(t, s, pool, played, 0.25, rng)
		if err := live.Tell(gen, g); err != nil {
			t.Fatal(err)
		}
		told, states = append(told, g), append(states, live.State())
	}
	sp := live.(Spreader).Spread()
	if sp.Name != "SPSA perturbation c_k" || len(sp.RMS) != gens || len(sp.Min) != gens || len(sp.Max) != gens {
		t.Fatalf("spread %+v, want %d generations of SPSA's c_k", sp, gens)
	}
	pairs := gens * (pop / 2) * games
	c := spsaDefaultCEnd * math.Pow(float64(pairs), gamma)
	for gen, k := range starts {
		want := c / math.Pow(float64(k+1), gamma)
		for _, got := range []float64{sp.RMS[gen], sp.Min[gen], sp.Max[gen]} {
			if math.Abs(got-want) > 1e-12*want {
				t.Errorf("generation %d (k %d): rms %v, min %v, max %v, want c_k %v", gen, k, sp.RMS[gen], sp.Min[gen], sp.Max[gen], want)
				break
			}
		}
	}
	for from := range gens - 1 {
		for _, old := range []bool{false, true} {
			if old && from > 2 {
				continue
			}
			st := states[from]
			if old {
				var v map[string]json.RawMessage
				if err := json.Unmarshal(st[spsaKey], &v); err != nil {
					t.Fatal(err)
				}
				delete(v, "starts")
				data, _ := json.Marshal(v)
				st = State{spsaKey: data}
			}
			m := newOwn(t, "spsa", s, pop, gens, games, 3, set)
			if err := m.Resume(from, st, told[from]); err != nil {
				t.Fatal(err)
			}
			for gen := from + 1; gen < gens; gen++ {
				if _, err := m.Ask(gen); err != nil {
					t.Fatal(err)
				}
				if err := m.Tell(gen, told[gen]); err != nil {
					t.Fatal(err)
				}
			}
			if got := m.(Spreader).Spread(); !reflect.DeepEqual(got, sp) {
				t.Errorf("resumed after generation %d (a checkpoint without the first pairs: %v): spread %+v, want %+v", from, old, got, sp)
			}
		}
	}
}

// TestSPSAStateRefusesForgedStarts: a checkpoint's first pairs of the
// generations, which the spread is read from, are one a generation, in
// order, and no more than the pairs told.
func TestSPSAStateRefusesForgedStarts(t *testing.T) {
	s := mixedSpace(t)
	m := newOwn(t, "spsa", s, 4, 3, 10, 3, nil)
	rng := fitness.NewRand(11)
	for gen := range 2 {
		pool, _ := m.Ask(gen)
		if err := m.Tell(gen, playBowl(t, s, pool, 10, 0.25, rng)); err != nil {
			t.Fatal(err)
		}
	}
	e := Defaults()
	e.Model, _ = Lookup("spsa")
	var v map[string]json.RawMessage
	if err := json.Unmarshal(m.State()[spsaKey], &v); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ starts, want string }{
		{"[0,20]", ""},
		{"", ""},
		{"[0]", "spsa_state.starts: 1 for 2 generations"},
		{"[20,0]", "spsa_state.starts[1]: 0: want pairs told before the generation"},
		{"[0,41]", "spsa_state.starts[1]: 41: want pairs told before the generation, from 0 to 40"},
		{"[-1,20]", "spsa_state.starts[0]: -1"},
	} {
		delete(v, "starts")
		if tc.starts != "" {
			v["starts"] = json.RawMessage(tc.starts)
		}
		data, _ := json.Marshal(v)
		err := e.CheckState(2, State{spsaKey: data}, func(float64) bool { return true })
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("starts %s: %v, want %q", tc.starts, err, tc.want)
		}
	}
}

// TestSPSAStepFollowsTheGames: spsa's default r_end is planned from the
// pairs an iteration plays (spsaREnd, at most spsaStepPerIteration over
// them), so that a run of 1,000 games a genome recommends a point at
// least as good as one of 20 games a genome, where a fixed r_end moved
// theta across a gene's range each generation; a written spsa-r-end is
// kept as written.
func TestSPSAStepFollowsTheGames(t *testing.T) {
	s := mixedSpace(t)
	const pop, gens, sd, seeds = 8, 12, 0.25, 5
	rEnd := func(m Model) float64 {
		var v struct {
			SPSA struct {
				Schedule struct {
					Pairs int       `json:"pairs"`
					REnd  []float64 `json:"r_end"`
				} `json:"schedule"`
			} `json:"spsa"`
		}
		if err := json.Unmarshal(m.State()[spsaKey], &v); err != nil {
			t.Fatal(err)
		}
		return v.SPSA.Schedule.REnd[0]
	}
	for _, games := range []int{20, 1000} {
		if got, want := rEnd(newOwn(t, "spsa", s, pop, gens, games, 1, nil)), min(spsaREnd, spsaStepPerIteration/float64(games)); got != want {
			t.Errorf("%d games a genome: r_end %v, want %v (%v, at most %d / %d pairs an iteration)", games, got, want, spsaREnd, spsaStepPerIteration, games)
		}
		written := newOwn(t, "spsa", s, pop, gens, games, 1, func(st Settings) { st.(*spsaSettings).REnd, st.(*spsaSettings).rEndPlanned = 0.007, false })
		if got := rEnd(written); got != 0.007 {
			t.Errorf("%d games a genome, spsa-r-end 0.007: r_end %v", games, got)
		}
	}
	var few, many []float64
	for seed := range uint64(seeds) {
		noise := func() *rand.Rand { return fitness.NewRand(fitness.Derive(seed, 9)) }
		few = append(few, optimiseBowl(t, s, newOwn(t, "spsa", s, pop, gens, 20, seed, nil), gens, 20, sd, noise()))
		many = append(many, optimiseBowl(t, s, newOwn(t, "spsa", s, pop, gens, 1000, seed, nil), gens, 1000, sd, noise()))
	}
	t.Logf("true cost of theta: 20 games a genome %.4f (median of %v), 1,000 games %.4f (median of %v)", median(few), few, median(many), many)
	if !(median(many) <= median(few)) {
		t.Errorf("1,000 games a genome: theta's true cost %.4f in the median, 20 games %.4f: want no worse with fifty times the games", median(many), median(few))
	}
}

// BenchmarkSPSAStepOnTheBowl prints the median true cost of spsa's theta
// on the noisy bowl over 7 seeds at 20, 100 and 1,000 games a genome, for
// r_end from a tenth to ten times the default (docs/tuning.md quotes it):
//
//	go test ./engine/model -run '^$' -bench SPSAStepOnTheBowl -benchtime 1x -v
func BenchmarkSPSAStepOnTheBowl(b *testing.B) {
	s := mixedSpace(b)
	const pop, gens, sd, seeds = 8, 12, 0.25, 7
	for range b.N {
		for _, games := range []int{20, 100, 1000} {
			line := fmt.Sprintf("%5d games a genome:", games)
			for _, times := range []float64{0.1, 0.3, 1, 3, 10} {
				r := times * plannedREnd(games)
				var costs []float64
				for seed := range uint64(seeds) {
					m := newOwn(b, "spsa", s, pop, gens, games, seed, func(st Settings) { st.(*spsaSettings).REnd, st.(*spsaSettings).rEndPlanned = r, false })
					costs = append(costs, optimiseBowl(b, s, m, gens, games, sd, fitness.NewRand(fitness.Derive(seed, 9))))
				}
				line += fmt.Sprintf("  r_end %.3g: %.3f", r, median(costs))
			}
			b.Log(line)
		}
	}
}
