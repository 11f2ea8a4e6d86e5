package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	best, err := sp.space.Decode(history[3].BestGenes)
	if err != nil {
		t.Fatal(err)
	}
	got := reportSVG("golden", "shots", true, history, best, sp.space.Params(), sp.space.Genes())
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
	// gene with the gene's name, and its line.
	svg := string(got)
	if c := strings.Count(svg, `stroke="#31a354"`); c != n {
		t.Errorf("%d knob lines, want one per gene (%d)", c, n)
	}
	for _, g := range sp.space.Genes() {
		if !strings.Contains(svg, ">"+g.String()+"</text>") {
			t.Errorf("no label for knob %s", g)
		}
	}
}

// TestReportWithoutBestGenes: a history from a checkpoint written before
// the best's genes were kept draws no knob picture, and no empty strips.
func TestReportWithoutBestGenes(t *testing.T) {
	cfg := loadText(t, t.TempDir(), crashConfig)
	sp := cfg.species[0]
	genes := sp.space.Project(make([]float64, sp.space.Len()))
	best, err := sp.space.Decode(genes)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(reportSVG("old", "shots", true, []GenStats{{Generation: 1, Best: 40, Mean: 41, SD: 1, Games: 6}}, best, sp.space.Params(), sp.space.Genes()))
	if strings.Contains(svg, "knobs of the best") || strings.Contains(svg, "#31a354") {
		t.Error("a knob picture without the genes to draw it")
	}
}
