package engine

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// TestForgedModelStatesNameTheField: a model's own part of a checkpoint
// (spsa_state, bayes_state) is held to what a run can write, and a value
// just past what it can is refused when the checkpoint is read, naming
// the field. Before, forged spsa values (an exponent of 1e308, a scale of
// 1e-320) passed the reader and stopped the resume with messages from
// deep inside that named no field, or wrote a checkpoint that was not
// JSON; a field unknown inside spsa_state.spsa, or anywhere in a bayes
// state, was dropped where every other section refuses it; bayes's
// points' coordinates, variances and groups, its hyperparameters and its
// recommendation were not checked. The nearest values that are possible
// are read.
func TestForgedModelStatesNameTheField(t *testing.T) {
	spsaDir, spsaCk := goodRun(t, tunerCases[0].text)
	bayesDir, bayesCk := goodRun(t, tunerCases[2].text)
	spsaState := func(m map[string]any) map[string]any { return m["spsa_state"].(map[string]any) }
	schedule := func(m map[string]any) map[string]any {
		return spsaState(m)["spsa"].(map[string]any)["schedule"].(map[string]any)
	}
	bayes := func(m map[string]any) map[string]any { return m["bayes_state"].(map[string]any) }
	point := func(m map[string]any, i int) map[string]any { return bayes(m)["points"].([]any)[i].(map[string]any) }
	genes := func(n int, v float64) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		dir    string
		ck     []byte
		change func(m map[string]any)
		want   string // "" reads
	}{
		{"spsa: an exponent of 1e308", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["alpha"] = 1e308 }, "spsa_state: spsa: gene 0: c_end"},
		{"spsa: a stability ratio of 1e308", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["a_ratio"] = 1e308 }, "make gains that are not numbers"},
		{"spsa: gamma of 1e308", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["gamma"] = 1e308 }, "make gains that are not numbers"},
		{"spsa: c_end of 1e-320, whose square is 0", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["c_end"].([]any)[0] = 1e-320 }, "gene 0: c_end 1e-320"},
		{"spsa: c_end just above 1", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["c_end"].([]any)[1] = math.Nextafter(1, 2) }, "gene 1: c_end 1.0000000000000002 is outside (0, 1]"},
		{"spsa: c_end 1", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["c_end"].([]any)[1] = 1 }, ""},
		{"spsa: negative r_end", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["r_end"].([]any)[0] = -1e-300 }, "r_end -1e-300"},
		{"spsa: a scale of 1e-320", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["scale"] = 1e-320 }, "spsa_state.scale: 1e-320: want 0, or a game's standard deviation"},
		{"spsa: a scale just below the least normal number", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["scale"] = math.Nextafter(0x1p-1022, 0) }, "spsa_state.scale"},
		{"spsa: the least normal scale", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["scale"] = 0x1p-1022 }, ""},
		{"spsa: a scale just past the largest cost", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["scale"] = math.Nextafter(1<<53, math.Inf(1)) }, "spsa_state.scale"},
		{"spsa: the largest cost as scale", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["scale"] = 1 << 53 }, ""},
		{"spsa: a negative scale", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["scale"] = -1e-300 }, "spsa_state.scale"},
		{"spsa: a field unknown inside spsa", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["spsa"].(map[string]any)["momentum"] = 0.9 }, `unknown field "momentum"`},
		{"spsa: a field unknown inside the schedule", spsaDir, spsaCk, func(m map[string]any) { schedule(m)["beta"] = 0.9 }, `unknown field "beta"`},
		{"spsa: a field unknown in spsa_state", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["velocity"] = []any{} }, `unknown field "velocity"`},
		{"spsa: a recommendation past [0, 1]", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["recommend"].([]any)[0] = math.Nextafter(1, 2) }, "spsa_state.recommend[0]: 1.0000000000000002 is outside [0, 1]"},
		{"spsa: a recommendation below 0", spsaDir, spsaCk, func(m map[string]any) { spsaState(m)["recommend"].([]any)[2] = -1e-300 }, "spsa_state.recommend[2]"},
		{"spsa: a recommendation at the corner", spsaDir, spsaCk, func(m map[string]any) {
			r := spsaState(m)["recommend"].([]any)
			spsaState(m)["recommend"] = genes(len(r), 1)
		}, ""},
		{"spsa: a recommendation a gene short", spsaDir, spsaCk, func(m map[string]any) {
			r := spsaState(m)["recommend"].([]any)
			spsaState(m)["recommend"] = r[:len(r)-1]
		}, "spsa_state.recommend: 11 genes, theta 12"},
		{"bayes: a coordinate just past 1", bayesDir, bayesCk, func(m map[string]any) { point(m, 3)["X"].([]any)[0] = math.Nextafter(1, 2) }, "bayes_state.points[3].X[0]: 1.0000000000000002 is outside [0, 1]"},
		{"bayes: a coordinate of 1", bayesDir, bayesCk, func(m map[string]any) { point(m, 3)["X"].([]any)[0] = 1.0 }, "refitting"},
		{"bayes: a point a gene short", bayesDir, bayesCk, func(m map[string]any) { x := point(m, 1)["X"].([]any); point(m, 1)["X"] = x[:len(x)-1] }, "bayes_state.points[1].X: 11 genes"},
		{"bayes: a variance past any float", bayesDir, bayesCk, func(m map[string]any) { point(m, 0)["Var"] = math.MaxFloat64 }, ""},
		{"bayes: a negative variance", bayesDir, bayesCk, func(m map[string]any) { point(m, 0)["Var"] = -1e-300 }, "bayes_state.points[0]: figure"},
		{"bayes: the first generation's points out of their group", bayesDir, bayesCk, func(m map[string]any) { point(m, 0)["Group"] = 0 }, "bayes_state.points[0].Group: 0, want 1"},
		{"bayes: a point in the next generation's group", bayesDir, bayesCk, func(m map[string]any) { point(m, 4)["Group"] = 2 }, "bayes_state.points[4].Group: 2, want 1"},
		{"bayes: a point in the generation before's group", bayesDir, bayesCk, func(m map[string]any) { point(m, 5)["Group"] = 1 }, "bayes_state.points[5].Group: 1, want 2"},
		{"bayes: a field unknown in a point", bayesDir, bayesCk, func(m map[string]any) { point(m, 0)["Weight"] = 2 }, `unknown field "Weight"`},
		{"bayes: a field unknown in bayes_state", bayesDir, bayesCk, func(m map[string]any) { bayes(m)["kernel"] = "rbf" }, `unknown field "kernel"`},
		{"bayes: a start of no signal", bayesDir, bayesCk, func(m map[string]any) { bayes(m)["start"].(map[string]any)["signal"] = 0 }, "bayes_state.start: gp: signal 0"},
		{"bayes: a fit with a length scale short", bayesDir, bayesCk, func(m map[string]any) {
			h := bayes(m)["hyper"].(map[string]any)
			h["lengths"] = h["lengths"].([]any)[1:]
		}, "bayes_state.hyper: gp: 11 length scales for 12 dimensions"},
		{"bayes: a recommendation past [0, 1]", bayesDir, bayesCk, func(m map[string]any) { bayes(m)["recommend"].([]any)[4] = -1e-300 }, "bayes_state.recommend[4]"},
		{"bayes: a figure outside its interval", bayesDir, bayesCk, func(m map[string]any) {
			f := bayes(m)["figure"].([]any)
			f[0] = math.Nextafter(f[2].(float64), math.Inf(1))
		}, "bayes_state.figure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data, _ := os.ReadFile(filepath.Join(tc.dir, rundir.ConfigFile))
			write(t, dir, rundir.ConfigFile, data)
			write(t, dir, rundir.CheckpointFile, edit(t, tc.ck, tc.change))
			_, _, err := ReadRun(dir)
			if tc.want == "" || tc.want == "refitting" {
				if err != nil {
					t.Fatalf("a state a run can write: %v", err)
				}
				if tc.want == "refitting" {
					_, err := Resume(context.Background(), Options{Dir: dir, Workers: 1, Generations: 3})
					if err == nil || !strings.Contains(err.Error(), "refitting the checkpoint's points does not give its fit") {
						t.Fatalf("resume of a point moved: %v", err)
					}
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "corrupt checkpoint") || !strings.Contains(err.Error(), tc.want) ||
				strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v; want one line, a corrupt checkpoint naming %q", err, tc.want)
			}
		})
	}
}
