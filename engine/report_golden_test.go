package engine

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/golden"
)

// TestReportSVGGolden pins the run report's picture (report.svg): the
// main chart (the generation's best, the mean and its band, the
// recommended best with its interval, the fresh remeasure, the baselines'
// level for a score, the y-range of the region of interest), each grid's
// heat map with its cell values, the knob table and racing's bars. The
// picture is what people look at after a run, and nothing else checks
// its geometry. After an intended change run
// `go test ./engine -run 'SVGGolden' -update`.
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
	varied := space.Random(rand.New(rand.NewPCG(7, 8)))
	flat := make([]float64, space.Len())
	for i := range flat {
		flat[i] = 0.5
	}
	edgeOnly, err := genome.NewSpace(schema[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	twelveSchema := genome.Schema{{Name: "rows", Kind: genome.Grid, Rows: 2, Cols: 12, Min: 0, Max: 1, Symmetry: genome.Full,
		Default: genome.Value{Cells: make([]float64, 24)}}}
	twelveSpace, err := genome.NewSpace(twelveSchema, nil)
	if err != nil {
		t.Fatal(err)
	}
	twelve := twelveSpace.Random(rand.New(rand.NewPCG(3, 4)))
	// The quickstart's shape: generation 1's mean and spread far above
	// where the best moves.
	rising := []GenStats{
		{Generation: 1, Best: 44.9, Mean: 60.8, SD: 12.9, Games: 100},
		{Generation: 2, Best: 45.1, Mean: 53.6, SD: 7, Games: 100},
		{Generation: 3, Best: 44.2, Mean: 48.2, SD: 3.9, Games: 100},
		{Generation: 4, Best: 43.8, Mean: 45.3, SD: 1.5, Games: 100},
	}
	withGenes := func(h []GenStats, genes ...[]float64) []GenStats {
		out := slices.Clone(h)
		for i := range out {
			out[i].BestGenes = genes[min(i, len(genes)-1)]
		}
		return out
	}
	member := func(genes []float64, fit, lo, hi float64) []Member {
		return []Member{{Genes: genes, Figure: fitness.Figure{Fitness: fit, CI95: [2]float64{lo, hi}, Games: 400}, Generation: 1}}
	}
	tests := []struct {
		name     string
		title    string
		score    bool
		racing   bool
		space    *genome.Space
		st       SpeciesState
		baseline []string
	}{
		{name: "one_generation", title: "pig <tuned> & co", space: edgeOnly,
			st: SpeciesState{History: rising[:1], HallOfFame: member([]float64{0.25}, 44.9, 44.1, 45.7)}},
		{name: "four_generations_two_grids", title: "battleship", space: space,
			st: SpeciesState{History: withGenes(rising, flat, varied), HallOfFame: member(varied, 43.9, 43.2, 44.6),
				Remeasured: []Remeasured{{Rank: 1, Genes: varied, Figure: fitness.Figure{Fitness: 44.4, Games: 3000, CI95: [2]float64{44.1, 44.7}}}},
				// The verdict: a second fresh sample, the start beside it.
				Verdict: &Verdict{Rank: 1, Genes: varied, Against: AgainstBaselines, Figure: fitness.Figure{Fitness: 44.5, Games: 3000, CI95: [2]float64{44.2, 44.8}},
					Start: &fitness.Figure{Fitness: 45.3, Games: 3000, CI95: [2]float64{45, 45.6}}}}},
		// A score: its [0, 1] bounds and the baselines' level at 1/2; 12
		// columns is the widest grid that still shows its values.
		{name: "maximise_twelve_columns", title: "hadron", score: true, space: twelveSpace, baseline: []string{"aenigma"},
			st: SpeciesState{History: []GenStats{{Generation: 1, Best: 0.6, Mean: 0.5, SD: 0.125, Games: 40}, {Generation: 2, Best: 0.7, Mean: 0.55, SD: 0.1, Games: 40}},
				HallOfFame: member(twelve, 0.62, 0.52, 0.71)}},
		{name: "flat_history_flat_grid", title: "flat", space: space, racing: true,
			st: SpeciesState{History: withGenes([]GenStats{{Generation: 1, Best: 0.5, Mean: 0.5, Games: 10, Saved: 4}, {Generation: 2, Best: 0.5, Mean: 0.5, Games: 8, Saved: 6}}, flat),
				HallOfFame: member(flat, 0.5, 0.5, 0.5)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := "game: g\nplayer: tuned\n"
			if tc.score {
				text += "fitness: {objective: score}\n"
			}
			c, err := config.Parse("report.yaml", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			c = c.WithGame(config.Game{Solo: fitness.Solo{Measure: "shots"}, HasSolo: true, HeadToHead: true})
			c.Fitness.Baselines = config.Baselines{Weight: 1, Opponents: tc.baseline}
			s := &Setup{cfg: c}
			v, err := s.view(&species{player: "tuned", space: tc.space, minimise: !tc.score}, tc.st)
			if err != nil {
				t.Fatal(err)
			}
			got := reportSVG(tc.title, &v, tc.racing)
			golden.Check(t, filepath.Join("testdata", "report", tc.name+".svg"), string(got), *update)
		})
	}
}
