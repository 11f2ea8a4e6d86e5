package fitness_test

import (
	"fmt"

	"github.com/evotune/evotune/fitness"
)

// Derive names independent random streams by position, so no generator
// state is shared between goroutines or saved in checkpoints.
func ExampleDerive() {
	run := uint64(2026)
	a := fitness.Derive(run, 3, 1, 0) // generation 3, purpose 1, game 0
	b := fitness.Derive(run, 3, 1, 1) // generation 3, purpose 1, game 1
	fmt.Println(a == fitness.Derive(run, 3, 1, 0), a == b)
	// Output: true false
}

func ExampleTally() {
	var t fitness.Tally
	for range 55 {
		t.Add(fitness.Win)
	}
	for range 2 {
		t.Add(fitness.Draw)
	}
	for range 43 {
		t.Add(fitness.Loss)
	}
	ci := t.CI95()
	fmt.Printf("score %.2f, 95%% CI [%.3f, %.3f] over %d games\n", t.Score(), ci[0], ci[1], t.Games())
	// Output: score 0.56, 95% CI [0.462, 0.653] over 100 games
}
