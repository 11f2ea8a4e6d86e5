package engine_test

import (
	"fmt"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/config"
)

// Prepare builds what a parsed config needs for a run (its game, each
// species' space and seeds, its baselines), fills in every default that
// depends on them and checks the rest; a broken config is reported in
// full, each problem as file:line: key: message.
func ExamplePrepare() {
	c, err := config.Parse("tune.yaml", []byte(`
game: battleship
player: tuned
seeds: [{}]
evolution: {population: 16, generations: 10}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := engine.Prepare(c, engine.For{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	fmt.Print(s.Summary())

	_, err = config.Parse("broken.yaml", []byte(`
game: battleship
player: tuned
evolution: {population: 1, model: annealing}
`))
	fmt.Println(err)
	// Output:
	// tune.yaml: valid
	//   battleship, player tuned, 12 genes to search, 1 seed
	//   objective shots: baselines [random] x 100 games (weight 1)
	//   bayes model, population 16, 10 generations, seed 1
	//   model: bayes, a solo measure's default (generational for others); write evolution.model to choose
	//   the model's fits take CPU time beyond the games', growing faster than the 160 genomes told
	//     (a fit took about 1.3 s at 512 points, 44 s at 2,000, on a 2-core machine: docs/tuning.md)
	//   remeasure: the best 3 and model bayes's own recommendation
	//     on 1000 fresh games per baseline opponent at the end; the winner again,
	//     beside the starting point, on a second fresh sample
	// broken.yaml:4: evolution.model: unknown model "annealing" (want generational, down-to-size, natural-selection, cmaes, random-search, spsa, bayes)
	// broken.yaml:4: evolution.population: 1: want at least 2
}

// A config's players, built as its run builds them, for a measure made
// outside the run: the tuned player at its starting point against the
// baselines.
func ExampleSetup_TunedPlayer() {
	c, err := config.Parse("tune.yaml", []byte(`
game: battleship
player: tuned
seeds: [{}]
fitness: {objective: shots, baselines: {opponents: [random]}}
evolution: {population: 16, generations: 10}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := engine.Prepare(c, engine.For{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cfg.Close()
	start := cfg.StartGenes() // the first seed: the player's defaults
	player, err := cfg.TunedPlayer(start)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, names, err := cfg.Baselines()
	fmt.Println(len(start), "genes;", player != nil, names, err, "lower is better:", cfg.LowerIsBetter())
	// Output: 12 genes; true [random] <nil> lower is better: true
}
