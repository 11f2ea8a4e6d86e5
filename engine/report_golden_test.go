package engine

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/golden"
)

// TestReportSVGGolden pins the run report's picture (report.svg): the
// scale, the band of mean +- sd, the mean and best lines, the axis labels
// and each grid's heatmap with its cell values. The picture is what people
// look at after a run, and nothing else checks its geometry. After an
// intended change run `go test ./engine -run 'SVGGolden' -update`.
func TestReportSVGGolden(t *testing.T) {
	schema := genome.Schema{
		{Name: "edge", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
		{Name: "small", Kind: genome.Grid, Rows: 3, Cols: 4, Min: -1, Max: 1, Symmetry: genome.Full,
			Default: genome.Value{Cells: make([]float64, 12)}},
		{Name: "wide", Kind: genome.Grid, Rows: 2, Cols: 13, Min: 0, Max: 10, Symmetry: genome.Full,
			Default: genome.Value{Cells: make([]float64, 26)}},
	}
	space, err := genome.NewSpace(schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	varied, err := space.Decode(space.Random(rand.New(rand.NewPCG(7, 8))))
	if err != nil {
		t.Fatal(err)
	}
	flatGenes := make([]float64, len(space.Random(rand.New(rand.NewPCG(1, 1)))))
	for i := range flatGenes {
		flatGenes[i] = 0.5
	}
	flat, err := space.Decode(flatGenes)
	if err != nil {
		t.Fatal(err)
	}
	twelveSchema := genome.Schema{{Name: "rows", Kind: genome.Grid, Rows: 2, Cols: 12, Min: 0, Max: 1, Symmetry: genome.Full,
		Default: genome.Value{Cells: make([]float64, 24)}}}
	twelveSpace, err := genome.NewSpace(twelveSchema, nil)
	if err != nil {
		t.Fatal(err)
	}
	twelve, err := twelveSpace.Decode(twelveSpace.Random(rand.New(rand.NewPCG(3, 4))))
	if err != nil {
		t.Fatal(err)
	}
	rising := []GenStats{
		{Generation: 1, Best: 40, Mean: 55, SD: 8, Games: 100},
		{Generation: 2, Best: 38.5, Mean: 50, SD: 6, Games: 100},
		{Generation: 3, Best: 37, Mean: 45.25, SD: 5, Games: 100},
		{Generation: 4, Best: 36.75, Mean: 41, SD: 3, Games: 100},
	}
	tests := []struct {
		name     string
		title    string
		minimise bool
		history  []GenStats
		best     genome.Values
		searched genome.Schema
	}{
		{name: "one_generation", title: "pig <tuned> & co", history: rising[:1], best: varied, searched: schema[:1]},
		{name: "four_generations_two_grids", title: "battleship", minimise: true, history: rising, best: varied, searched: schema},
		// Mean-sd below every best sets the bottom of the scale; 12 columns
		// is the widest grid that still shows its values.
		{name: "maximise_twelve_columns", title: "hadron", history: []GenStats{{Generation: 1, Best: 0.6, Mean: 0.5, SD: 0.125, Games: 40}, {Generation: 2, Best: 0.7, Mean: 0.55, SD: 0.1, Games: 40}},
			best: twelve, searched: twelveSchema},
		{name: "flat_history_flat_grid", title: "flat", history: []GenStats{{Generation: 1, Best: 0.5, Mean: 0.5, Games: 10}, {Generation: 2, Best: 0.5, Mean: 0.5, Games: 10}}, best: flat, searched: schema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := reportSVG(tc.title, "shots", tc.minimise, tc.history, tc.best, tc.searched, nil)
			golden.Check(t, filepath.Join("testdata", "report", tc.name+".svg"), string(got), *update)
		})
	}
}

// TestSeriesSVGGolden pins the learning-curve picture of `eval --series`:
// each player's mean by game with its 95% band, clamped to the scale, and
// its legend. After an intended change run
// `go test ./engine -run 'SVGGolden' -update`.
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
			golden.Check(t, filepath.Join("testdata", "series", tc.name+".svg"), string(SeriesSVG(tc.rep)), *update)
		})
	}
}
