package cli

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/golden"
)

// TestSeriesSVGGolden pins the learning-curve picture of `eval --series`:
// each player's mean by game with its 95% band, clamped to the scale, and
// its legend. After an intended change run
// `go test ./cmd/evotune/cli -run TestSeriesSVGGolden -update`.
func TestSeriesSVGGolden(t *testing.T) {
	by := func(means ...float64) []fitness.Summary {
		out := make([]fitness.Summary, len(means))
		for i, m := range means {
			out[i] = fitness.Summary{N: 20, Mean: m, CI95: [2]float64{m - 1.5 - float64(i)/4, m + 1 + float64(i)/8}}
		}
		return out
	}
	// A player of one series has means but no intervals.
	unbounded := func(means ...float64) []fitness.Summary {
		out := make([]fitness.Summary, len(means))
		for i, m := range means {
			out[i] = fitness.Summary{N: 1, Mean: m, CI95: [2]float64{math.Inf(-1), math.Inf(1)}}
		}
		return out
	}
	tests := []struct {
		name string
		rep  fitness.SeriesReport
	}{
		{name: "one_game", rep: fitness.SeriesReport{Game: "battleship", Measure: "shots", Seed: 9, Series: 20, Length: 1,
			Players: []fitness.SeriesPlayerReport{{Name: "learner", Overall: fitness.Summary{Mean: 50}, ByGame: by(50)}}}},
		{name: "three_players", rep: fitness.SeriesReport{Game: "battleship <8x8>", Measure: "shots", Seed: 1, Series: 20, Length: 5,
			Players: []fitness.SeriesPlayerReport{
				{Name: "learner", Overall: fitness.Summary{Mean: 44.5}, ByGame: by(50, 47, 45, 43, 42)},
				{Name: "density", Overall: fitness.Summary{Mean: 46}, ByGame: by(46, 46.5, 45.5, 46, 46)},
				{Name: "one series", Overall: fitness.Summary{Mean: 58.4},
					ByGame: unbounded(60, 58, 59, 57, 58)},
			}}},
		{name: "flat", rep: fitness.SeriesReport{Game: "pig", Measure: "turns", Seed: 2, Series: 3, Length: 2,
			Players: []fitness.SeriesPlayerReport{{Name: "hold20", Overall: fitness.Summary{Mean: 7}, ByGame: []fitness.Summary{{N: 3, Mean: 7, CI95: [2]float64{7, 7}}, {N: 3, Mean: 7, CI95: [2]float64{7, 7}}}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", "series", tc.name+".svg"), string(seriesSVG(tc.rep)), *update)
		})
	}
}
