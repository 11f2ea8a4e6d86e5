package dashboard

import (
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/model"
)

// TestPagesNameTheModelTheRunRan: a config that names no model runs
// bayes on a solo measure when it writes no breeding key
// (model.Evolution.ChooseDefault); the list of runs and the run's page
// say bayes, the model the run ran, not the first of the table (which
// the dashboard's own reading of the config once defaulted to). A
// config that writes a breeding key runs the first model, and says so.
func TestPagesNameTheModelTheRunRan(t *testing.T) {
	const unnamed = `seed: 3
game: battleship
rules: {size: 6, fleet: '3 2'}
player: tuned
fitness:
  baselines: {games: 8}
evolution:
  population: 4
  generations: 2
remeasure:
  top: 1
  games: 8
`
	runs := t.TempDir()
	_, ck := finishedRun(t, runs, "unnamed", unnamed)
	if !strings.Contains(ck.Config, "evolution:") || strings.Contains(ck.Config, "model:") {
		t.Fatalf("the run's config names a model:\n%s", ck.Config)
	}
	finishedRun(t, runs, "breeds", strings.Replace(unnamed, "  generations: 2\n", "  generations: 2\n  elitism: 1\n", 1))
	ts, _ := serve(t, "", runs)
	for _, tc := range []struct{ run, model string }{
		{"unnamed", model.SoloDefault},
		{"breeds", model.Models[0].Name},
	} {
		if _, page := get(t, ts, "/run?r=0/"+tc.run); !strings.Contains(page, "· model "+tc.model+"</p>") {
			t.Errorf("%s: the run's page does not say model %s:\n%s", tc.run, tc.model, head(page))
		}
	}
	_, list := get(t, ts, "/")
	for _, tc := range []struct{ run, model string }{
		{"unnamed", model.SoloDefault},
		{"breeds", model.Models[0].Name},
	} {
		_, row, _ := strings.Cut(list, `<tr data-id="0/`+tc.run+`"`)
		row, _, _ = strings.Cut(row, "</tr>")
		// The model is said under the run's link, after its name (none
		// here).
		if !strings.Contains(row, `<div class="small"> · `+tc.model+"</div>") {
			t.Errorf("the list does not say %s ran %s: its row is\n%s", tc.run, tc.model, row)
		}
	}
}

// head is the start of a page, for a message.
func head(page string) string { return page[:min(len(page), 1500)] }
