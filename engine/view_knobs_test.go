package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestKnobsStopAtMaxKnobs: a space of more genes than maxKnobs (a
// protocol player's grid may have 65,536) draws the first maxKnobs as
// strips, names the parameters the rest belong to, and says so in the
// report, whose size then does not grow with the genes; each strip drawn
// still follows its own gene.
func TestKnobsStopAtMaxKnobs(t *testing.T) {
	schema := genome.Schema{
		{Name: "edge", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
		{Name: "big", Kind: genome.Grid, Rows: 40, Cols: 40, Min: 0, Max: 1, Symmetry: genome.Full,
			Default: genome.Value{Cells: make([]float64, 1600)}},
	}
	space, err := genome.NewSpace(schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	var history []GenStats
	for g := range 3 {
		history = append(history, GenStats{Generation: g + 1, BestGenes: space.Random(rand.New(rand.NewPCG(uint64(g), 1)))})
	}
	best, err := space.Decode(history[2].BestGenes)
	if err != nil {
		t.Fatal(err)
	}
	ks, left := knobs(space, history, best)
	if len(ks) != maxKnobs || !slices.Equal(left, []string{"big"}) {
		t.Fatalf("%d knobs, left out %v; want %d and [big]", len(ks), left, maxKnobs)
	}
	for i, s := range history {
		vals, err := space.Decode(s.BestGenes)
		if err != nil {
			t.Fatal(err)
		}
		// Knob 0 is edge; knob k >= 1 is big's cell k-1 (full symmetry:
		// one class a cell, in reading order).
		if got, want := ks[0].Values[i], vals.Get("edge").Num; got != want {
			t.Errorf("generation %d: edge strip %v, want %v", i+1, got, want)
		}
		for k := 1; k < maxKnobs; k++ {
			if got, want := ks[k].Values[i], vals.Get("big").Cells[k-1]; got != want {
				t.Fatalf("generation %d: knob %d (%s) %v, want cell %d's %v", i+1, k, ks[k].Name, got, k-1, want)
			}
		}
	}
	hof := []Member{{Genes: history[2].BestGenes, Figure: fitness.Figure{Fitness: 44, CI95: [2]float64{43, 45}, Games: 10}, Generation: 3}}
	v := SpeciesView{Knobs: ks, KnobsLeftOut: left, History: history, HallOfFame: hof, RecommendedRank: 1, Measure: "shots", Minimise: true}
	svg := string(reportSVG("big", &v, false))
	if !strings.Contains(svg, "the first 256 genes drawn; more of big are in best.yaml") {
		t.Error("report.svg does not say the knobs were cut")
	}
}
