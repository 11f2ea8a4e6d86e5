package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/fileio"
)

// TestLargestConfigsFitTheCheckpointLimit: a config at every size limit,
// for each game's largest genome, co-evolving where it can, is valid and
// its checkpoint bound stays below what the checkpoint reader accepts;
// but for the generations of Battleship's 128-cell grid, whose history
// (the best's genes every generation) fits 5,000 generations, not
// 100,000.
func TestLargestConfigsFitTheCheckpointLimit(t *testing.T) {
	sizes := `
evolution:
  model: down-to-size
  population: %d
  offspring: %d
  generations: %d
  hall-of-fame: %d
`
	tests := []struct {
		name, text  string
		generations int
	}{
		{"battleship 128 free cells, co-evolving", `
game: battleship
rules: {width: 8, height: 16}
player: tuned
space:
  weights: {symmetry: full}
fitness:
  hall-of-fame: {members: 1000, games: 1000000}
coevolve:
  player: tuned
`, 5000},
		{"mnk 10x9, k 9", `
game: mnk
rules: {m: 10, n: 9, k: 9}
player: tuned
fitness:
  baselines: {opponents: [random], games: 1000000}
`, config.MaxGenerations},
		{"hadron 11x11", `
game: hadron
rules: {size: 11, depth: 16, nodes: 1000000000}
player: tuned
fitness:
  baselines: {opponents: [random], games: 1000000}
`, config.MaxGenerations},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parse("largest.yaml", []byte(tc.text+fmt.Sprintf(sizes, config.MaxPopulation, config.MaxOffspring, tc.generations, config.MaxHallOfFame)))
			if err != nil {
				t.Fatal(err)
			}
			if b := cfg.cfg.CheckpointBound(cfg.built); b > fileio.MaxCheckpoint {
				t.Fatalf("checkpoint bound %d bytes, above the %d limit", b, fileio.MaxCheckpoint)
			}
		})
	}
}

// TestCheckpointBytesPerGene: the bound's per-gene and per-member figures
// hold for the longest numbers JSON can hold.
func TestCheckpointBytesPerGene(t *testing.T) {
	const genes = 100
	m := Member{Genes: make([]float64, genes), Figure: fitness.Figure{Fitness: -math.MaxFloat64, Games: math.MaxInt, CI95: [2]float64{-math.SmallestNonzeroFloat64, -1.2345678901234567e-300}}, Generation: math.MaxInt}
	for i := range m.Genes {
		m.Genes[i] = -1.2345678901234567e-300
	}
	ck := &Checkpoint{SpeciesState: SpeciesState{Population: []Member{m}}}
	data, err := ck.encode()
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := (&Checkpoint{SpeciesState: SpeciesState{Population: []Member{}}}).encode()
	per := len(data) - len(empty)
	if limit := genes*config.CheckpointBytesPerGene + config.CheckpointBytesPerMember; per > limit {
		t.Fatalf("a member of %d genes takes %d bytes, the bound allows %d:\n%s", genes, per, limit, strings.TrimSpace(string(data)))
	}
	// A history row keeps its generation's best genes (before, the bound
	// left them out: a 107-gene grid's row took 2,692 bytes of 192).
	x := -1.2345678901234567e-300
	row := GenStats{Generation: config.MaxGenerations, Best: x, Mean: x, SD: x, Games: math.MaxInt, Saved: math.MaxInt, BestGenes: m.Genes}
	data, _ = (&Checkpoint{SpeciesState: SpeciesState{History: []GenStats{row}}}).encode()
	empty, _ = (&Checkpoint{SpeciesState: SpeciesState{History: []GenStats{}}}).encode()
	if per, limit := len(data)-len(empty), config.CheckpointBytesPerRow+genes*config.CheckpointBytesPerGene; per > limit {
		t.Fatalf("a history row of %d genes takes %d bytes, the bound allows %d", genes, per, limit)
	}
	// CMA-ES's told figures, one per member a generation (before, left
	// out: 280 MB for a population of 2,000 over 20,000 generations).
	cfg, err := parse("cmaes.yaml", []byte("game: battleship\nplayer: tuned\nevolution: {model: cmaes, population: 1000, generations: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	told := make([]float64, 1000)
	for i := range told {
		told[i] = x
	}
	rows, _ := json.Marshal([][]float64{told})
	data, _ = (&Checkpoint{SpeciesState: SpeciesState{Model: model.State{"cmaes_told": rows}}}).encode()
	empty, _ = (&Checkpoint{SpeciesState: SpeciesState{}}).encode()
	if per, limit := int64(len(data)-len(empty)), cfg.cfg.Evolution.StateBound(genes); per > limit {
		t.Fatalf("a generation of %d told figures takes %d bytes, the bound allows %d", len(told), per, limit)
	}
}

// TestLongRunsThatValidateFitTheCheckpointLimit: configs validate
// accepted whose checkpoint outgrew the reader's limit near their end (a
// 107-gene grid's history over 100,000 generations; CMA-ES told 2,000
// figures a generation for 20,000 generations) are refused, naming the
// key to lower.
func TestLongRunsThatValidateFitTheCheckpointLimit(t *testing.T) {
	for _, text := range []string{`
game: battleship
player: tuned
space:
  weights: {symmetry: full}
evolution:
  generations: 100000
`, `
game: battleship
player: tuned
evolution:
  model: cmaes
  population: 2000
  generations: 20000
`} {
		_, err := parse("long.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), "evolution: its checkpoint could reach") {
			t.Errorf("%s: %v, want its checkpoint bound refused", text, err)
		}
	}
}

// TestConfigLimits: every numeric limit of a config is accepted at its
// edge and refused one step past it, with the key and the reason; a
// limit on a mode applies only when the mode has weight.
func TestConfigLimits(t *testing.T) {
	const solo = "game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n"
	const score = "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 2\n"
	evo := func(extra string) string {
		return solo + extra
	}
	coevolve := func(seeds int) string {
		return "game: battleship\nplayer: tuned\ncoevolve:\n  player: tuned\n  seeds: [" + strings.Repeat("{}, ", seeds-1) + "{}]\n" +
			"fitness:\n  population: {opponents: 1, games: 2}\nevolution:\n  population: 4\n  tournament-size: 2\n"
	}
	mode := func(section string) string {
		return score + section + "evolution:\n  population: 4\n  tournament-size: 2\n"
	}
	for _, tc := range []struct {
		name, text, want string // want: "" when accepted
	}{
		{"population 2", strings.Replace(strings.Replace(solo, "population: 4", "population: 2", 1), "tournament-size: 2", "tournament-size: 1\n  elitism: 1", 1), ""},
		{"tournament of 1", strings.Replace(solo, "tournament-size: 2", "tournament-size: 1", 1), ""},
		{"population 1", strings.Replace(solo, "population: 4", "population: 1", 1), "evolution.population: 1: want at least 2"},
		{"generations 1", evo("  generations: 1\n"), ""},
		{"generations 0", evo("  generations: 0\n"), "evolution.generations: 0: want at least 1"},
		{"rates at 0 and 1", evo("  crossover-rate: 0\n  mutation-rate: 1\n"), ""},
		{"crossover rate above 1", evo("  crossover-rate: 1.01\n"), "evolution.crossover-rate: 1.01: want a probability in [0, 1]"},
		{"mutation rate below 0", evo("  mutation-rate: -0.01\n"), "evolution.mutation-rate: -0.01: want a probability in [0, 1]"},
		{"sigma 0", evo("  mutation: {sigma: 0}\n"), ""},
		{"sigma below 0", evo("  mutation: {sigma: -0.1}\n"), "evolution.mutation.sigma: -0.1: want 0 (default 0.1) or more"},
		{"blend alpha 0", evo("  blend-alpha: 0\n"), ""},
		{"blend alpha below 0", evo("  blend-alpha: -0.1\n"), "evolution.blend-alpha: -0.1: want 0 or more"},
		{"hall of fame 1", evo("  hall-of-fame: 1\n"), ""},
		{"hall of fame 0", evo("  hall-of-fame: 0\n"), "evolution.hall-of-fame: 0: want at least 1"},
		{"one baseline game", strings.Replace(solo, "games: 2", "games: 1", 1), ""},
		{"no baseline games", strings.Replace(solo, "games: 2", "games: 0", 1), "fitness.baselines.games: 0: want at least 1"},
		{"no games of a mode without weight", mode("  population: {weight: 0, games: 0, opponents: 0}\n  hall-of-fame: {weight: 0, games: 3, members: 0}\n"), ""},
		{"one opponent, one member", mode("  population: {opponents: 1, games: 2}\n  hall-of-fame: {members: 1, games: 2}\n"), ""},
		{"no opponents", mode("  population: {opponents: 0, games: 2}\n"), "fitness.population.opponents: 0: want at least 1"},
		{"no members", mode("  hall-of-fame: {members: 0, games: 2}\n"), "fitness.hall-of-fame.members: 0: want at least 1"},
		{"odd head-to-head games", mode("  population: {opponents: 1, games: 3}\n"), "fitness.population.games: 3: want an even number"},
		{"every character a name may hold", "name: azAZ09._-\n" + solo, ""},
		{"tournament of population-1", strings.Replace(solo, "tournament-size: 2", "tournament-size: 3", 1), ""},
		{"tournament of population", strings.Replace(solo, "tournament-size: 2", "tournament-size: 4", 1), "evolution.tournament-size: 4: want from 1 to population-1 (3)"},
		{"population 2, tournament 2", strings.Replace(strings.Replace(solo, "population: 4", "population: 2", 1), "tournament-size: 2", "tournament-size: 2\n  elitism: 1", 1),
			"evolution.tournament-size: 2: want from 1 to population-1 (1)"},
		{"elitism 0", evo("  elitism: 0\n"), ""},
		{"step size 10", strings.Replace(solo, "tournament-size: 2", "model: cmaes\n  step-size: 10", 1), ""},
		{"step size above 10", strings.Replace(solo, "tournament-size: 2", "model: cmaes\n  step-size: 10.5", 1), "evolution.step-size: 10.5: want a number from 1e-9"},
		{"two offspring", evo("  model: down-to-size\n  offspring: 2\n"), ""},
		{"one offspring", evo("  model: down-to-size\n  offspring: 1\n"), "evolution.offspring: 1: want at least 2"},
		{"opponents: all the others", mode("  population: {opponents: 3, games: 2}\n"), ""},
		{"opponents: more than the others", mode("  population: {opponents: 4, games: 2}\n"), "fitness.population.opponents: 4: more than the 3 others in a population of 4"},
		{"as many seeds as the population", "seeds: [{}, {}, {}, {}]\n" + solo, ""},
		{"more seeds", "seeds: [{}, {}, {}, {}, {}]\n" + solo, "seeds: 5 seeds for a population of 4"},
		{"every parameter fixed", strings.Replace(solo, "player: tuned\n", "player: tuned\nspace:\n  s: {fix: 0.5}\n", 1), "c.yaml:4: space: nothing left to search: every parameter is fixed"},
		{"as many rival seeds as the population", coevolve(4), ""},
		{"more rival seeds", coevolve(5), "coevolve.seeds: 5 seeds for a population of 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("c.yaml", []byte(tc.text))
			wantError(t, err, tc.want)
		})
	}
	// Each character just outside a range a name may hold.
	for _, name := range []string{"x`", "x{", "x@", "x[", "x/", "x:", ".x", "x y"} {
		_, err := parse("c.yaml", []byte("name: '"+name+"'\n"+solo))
		if err == nil || !strings.Contains(err.Error(), "name: \"") {
			t.Errorf("name %q: %v, want it refused", name, err)
		}
	}
}
