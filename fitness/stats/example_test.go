package stats_test

import (
	"fmt"

	"github.com/evotune/evotune/fitness/stats"
)

// Seat-swapped pairs: 30 lost both games, 120 split, 50 won both.
func ExamplePentanomial() {
	p := stats.Pentanomial{30, 0, 120, 0, 50}
	s, e, n := p.Score(), p.Elo(), p.NormalizedElo()
	fmt.Printf("%d games: score %.3f [%.3f, %.3f]\n", p.Games(), s.Value, s.CI95[0], s.CI95[1])
	fmt.Printf("Elo %+.1f [%+.1f, %+.1f], normalized Elo %+.1f [%+.1f, %+.1f]\n",
		e.Value, e.CI95[0], e.CI95[1], n.Value, n.CI95[0], n.CI95[1])
	// Output:
	// 400 games: score 0.550 [0.507, 0.593]
	// Elo +34.9 [+4.7, +65.6], normalized Elo +39.3 [+4.9, +73.8]
}

// Two shooters on the same six deals: the deals' luck cancels.
func ExamplePairedDifference() {
	tuned := []float64{41, 52, 38, 47, 44, 49}
	over9000 := []float64{42, 53, 40, 47, 46, 50}
	d := stats.PairedDifference(tuned, over9000)
	fmt.Printf("tuned - over9000 = %.2f [%.2f, %.2f] shots over %d deals\n", d.Value, d.CI95[0], d.CI95[1], d.N)
	// Output:
	// tuned - over9000 = -1.17 [-1.96, -0.38] shots over 6 deals
}

// fishtest's STC bounds on a finished test's pairs.
func ExampleSPRT() {
	test := stats.SPRT{Alpha: 0.05, Beta: 0.05, Elo0: 0, Elo1: 2, Model: stats.Normalized}
	lo, hi := test.Bounds()
	p := stats.Pentanomial{1187, 7410, 13475, 7378, 1164}
	fmt.Printf("LLR %.2f in [%.2f, %.2f]: %v\n", test.LLR(p), lo, hi, test.Decide(p))
	plan := test.Expected(0, stats.FishtestVariance(0.49, 191))
	fmt.Printf("at Elo 0 it passes %.0f%% of the time, after %.0f games\n", 100*plan.PassProbability, plan.Games)
	// Output:
	// LLR -1.73 in [-2.94, 2.94]: continue
	// at Elo 0 it passes 5% of the time, after 159942 games
}
