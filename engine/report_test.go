package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestReportKnobsGolden draws the report of a constructed four-generation
// history of the tuned Battleship shooter (a weight grid among its
// knobs) and compares it with testdata/report.golden.svg. After an
// intended change: go test ./engine -run TestReportKnobsGolden -update.
func TestReportKnobsGolden(t *testing.T) {
	cfg := loadText(t, t.TempDir(), crashConfig)
	sp := cfg.species[0]
	n := sp.space.Len()
	var history []GenStats
	for g := range 4 {
		genes := make([]float64, n)
		for k := range genes {
			// Knob k moves from k/n towards 1 - k/n: some rise, some fall.
			from, to := float64(k)/float64(n), 1-float64(k)/float64(n)
			genes[k] = from + (to-from)*float64(g)/3
		}
		genes = sp.space.Project(genes)
		history = append(history, GenStats{Generation: g + 1, Best: 50 - 2*float64(g), Mean: 55 - float64(g), SD: 3, Games: 24, BestGenes: genes})
	}
	hof := []Member{{Genes: history[3].BestGenes, Figure: fitness.Figure{Fitness: 44, CI95: [2]float64{43, 45}, Games: 24}, Generation: 3}}
	got, err := cfg.report(sp, SpeciesState{History: history, HallOfFame: hof})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden.svg")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./engine -run TestReportKnobsGolden -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("report.svg differs from %s (run with -update after an intended change)", golden)
	}
	// What the golden file must show, whatever its pixels: one strip per
	// gene with the gene's name, its line and the best's value.
	svg := string(got)
	if c := strings.Count(svg, `stroke="#31a354"`); c != n {
		t.Errorf("%d knob lines, want one per gene (%d)", c, n)
	}
	best, err := sp.space.Decode(history[3].BestGenes)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sp.space.Genes() {
		if !strings.Contains(svg, ">"+g.String()+"</text>") {
			t.Errorf("no label for knob %s", g)
		}
		if g.Kind == genome.Float {
			want := strconv.FormatFloat(best.Float(g.Param), 'g', 6, 64)
			if !strings.Contains(svg, `font-weight="bold">`+want+"</text>") {
				t.Errorf("knob %s: the best's value %s is not written", g, want)
			}
		}
	}
}

// TestReportWithoutBestGenes: a history from a checkpoint written before
// the best's genes were kept draws no knob picture, and no empty strips.
func TestReportWithoutBestGenes(t *testing.T) {
	cfg := loadText(t, t.TempDir(), crashConfig)
	sp := cfg.species[0]
	genes := sp.space.Project(make([]float64, sp.space.Len()))
	got, err := cfg.report(sp, SpeciesState{History: []GenStats{{Generation: 1, Best: 40, Mean: 41, SD: 1, Games: 6}},
		HallOfFame: []Member{{Genes: genes, Figure: fitness.Figure{Fitness: 40, CI95: [2]float64{39, 41}, Games: 6}}}})
	if err != nil {
		t.Fatal(err)
	}
	svg := string(got)
	if strings.Contains(svg, "knobs of the best") || strings.Contains(svg, "#31a354") {
		t.Error("a knob picture without the genes to draw it")
	}
}
