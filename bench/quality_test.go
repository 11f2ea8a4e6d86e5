package main

import (
	"strconv"
	"testing"

	"github.com/evotune/evotune/bench/quality"
)

// TestAutoselectPlansTheBudget: on every problem of the quality
// benchmark, the precision the spsa-autoselect row runs at plans the
// problem's budget within one generation (a config writing it and no
// budget, parsed here).
func TestAutoselectPlansTheBudget(t *testing.T) {
	t.Chdir("..") // the problems find examples/ from the repository's root
	row, err := quality.ParseRow(quality.AutoselectRow)
	if err != nil {
		t.Fatal(err)
	}
	for i := range qualityProblems {
		p := &qualityProblems[i]
		t.Run(p.name, func(t *testing.T) {
			qp, err := p.problem()
			if err != nil {
				t.Fatal(err)
			}
			text, err := qp.Config(row, 1)
			if err != nil {
				t.Fatal(err)
			}
			prec, _ := qp.Precision()
			// The same config without its budget: autoselect plans it.
			planned := quality.Problem{File: qp.File, Text: qp.Text}
			noBudget, err := planned.Text(1, "  model: spsa\n  spsa-autoselect: {precision: "+formatG(prec)+", edge-loss: 0.5}\n", "")
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := quality.Load(qp.File, noBudget)
			if err != nil {
				t.Fatal(err)
			}
			defer cfg.Close()
			if g := cfg.Config().Evolution.Generations; g < p.generations-1 || g > p.generations+1 {
				t.Errorf("precision %g plans %d generations, want %d", prec, g, p.generations)
			}
			run, err := quality.Load(qp.File, text)
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			if run.Config().Evolution.Generations != p.generations {
				t.Errorf("the row's runs have a budget of %d generations, want %d", run.Config().Evolution.Generations, p.generations)
			}
			t.Logf("%s: precision %g plans %d generations", p.name, prec, cfg.Config().Evolution.Generations)
		})
	}
}

func formatG(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// TestEveryRowRunsEveryProblem: no row of the quality benchmark is
// refused by a problem's config, so a long benchmark does not stop at
// its first run of a new row.
func TestEveryRowRunsEveryProblem(t *testing.T) {
	t.Chdir("..")
	for i := range qualityProblems {
		p := &qualityProblems[i]
		qp, err := p.problem()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range qualityRows {
			if why, err := qp.Refusal(r); why != "" || err != nil {
				t.Errorf("%s %s: %q, %v", p.name, r.Name, why, err)
			}
		}
	}
}
