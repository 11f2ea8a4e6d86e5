package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/config"
)

// TestBatchCheck: a batch's results are taken only whole, one a game,
// each one a game can give: a cost from 0 to 2^53 in a solo run, within
// the game's own bounds, a score of 0, 1/2 or 1 in a score run.
func TestBatchCheck(t *testing.T) {
	solo := &evalState{r: &runner{Setup: &Setup{cfg: &config.Config{Fitness: config.Fitness{Objective: config.Solo}}}}}
	score := &evalState{r: &runner{Setup: &Setup{cfg: &config.Config{Fitness: config.Fitness{Objective: config.Score}}}}}
	bs := loadText(t, t.TempDir(), smallConfig)
	defer bs.Close()
	bship := &evalState{r: &runner{Setup: bs}}
	b := &Batch{ID: "r1.0.4", jobs: make([]job, 3), in: solo}
	for _, tc := range []struct {
		name    string
		results []float64
		in      *evalState
		want    string // "": taken
	}{
		{"good", []float64{0.25, 1, 3}, solo, ""},
		{"good scores", []float64{0, 0.5, 1}, score, ""},
		{"too few", []float64{0.25, 1}, solo, "engine: 2 results for the 3 games of batch r1.0.4"},
		{"not finite", []float64{0.25, math.NaN(), 1}, solo, "engine: batch r1.0.4: game 1 (seed 0): NaN is not a result a game gives"},
		{"infinite", []float64{0.25, 1, math.Inf(1)}, solo, "game 2 (seed 0): +Inf is not"},
		{"a negative cost", []float64{0.25, 1, -3}, solo, "game 2 (seed 0): -3 is not a result a game gives (want a cost from 0 to 2^53)"},
		{"a cost of 1e300", []float64{0.25, 1e300, 3}, solo, "game 1 (seed 0): 1e+300 is not a result a game gives"},
		{"the largest cost", []float64{0.25, 1 << 53, 3}, solo, ""},
		{"a score of 1/4", []float64{0.25, 1, 0}, score, "game 0 (seed 0): 0.25 is not a result a game gives (want a score of 0, 1/2 or 1)"},
		{"a score above 1", []float64{0, 2, 0}, score, "game 1 (seed 0): 2 is not"},
		// The game's own bounds: Battleship's default board has 100
		// cells and a fleet of 17.
		{"200 shots on 100 cells", []float64{50, 200, 40}, bship, "game 1 (seed 0): 200 is not a result a game gives (want a whole number of shots from 17 to 100)"},
		{"one shot past the board", []float64{50, 40, 101}, bship, "game 2 (seed 0): 101 is not"},
		{"fewer shots than the fleet's cells", []float64{16, 40, 40}, bship, "game 0 (seed 0): 16 is not"},
		{"half a shot", []float64{50, 40.5, 40}, bship, "game 1 (seed 0): 40.5 is not"},
		{"the board's and the fleet's cells", []float64{17, 100, 40}, bship, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.in = tc.in
			err := b.Check(Played{Results: tc.results})
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
