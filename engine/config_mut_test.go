package engine

import (
	"strings"
	"testing"
)

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
			_, err := Parse("c.yaml", []byte(tc.text))
			wantError(t, err, tc.want)
		})
	}
	// Each character just outside a range a name may hold.
	for _, name := range []string{"x`", "x{", "x@", "x[", "x/", "x:", ".x", "x y"} {
		_, err := Parse("c.yaml", []byte("name: '"+name+"'\n"+solo))
		if err == nil || !strings.Contains(err.Error(), "name: \"") {
			t.Errorf("name %q: %v, want it refused", name, err)
		}
	}
}

// TestSummaryListsWeightedModes: validate's summary lists the fitness
// modes that have weight, and only those.
func TestSummaryListsWeightedModes(t *testing.T) {
	text := "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    weight: 0\n    opponents: [even]\n    games: 2\n  population: {opponents: 1, games: 2}\nevolution:\n  population: 4\n  tournament-size: 2\n"
	cfg := loadText(t, t.TempDir(), text)
	defer cfg.Close()
	if s := cfg.Summary(); strings.Contains(s, "baselines") || !strings.Contains(s, "population") {
		t.Fatalf("summary:\n%s\nwant population games and no baselines", s)
	}
}
