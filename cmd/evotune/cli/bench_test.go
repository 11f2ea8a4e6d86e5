package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/bench/quality"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
)

// benchConfig is a config small enough to bench in a test: the
// Battleship shooter against random placement, population %d, 4
// generations of 10 games a genome; its own model's keys, a racing:
// section and a stop rule, which the bench's rows drop or keep.
const benchConfig = `name: tiny
seed: 3
game: battleship
player: tuned
seeds:
  - {}
fitness:
  objective: shots
  baselines: {opponents: [random], games: 10}
evolution:
  model: generational
  population: %d
  generations: 4
  elitism: 1
  mutation-rate: 0.5
racing: {rounds: 2}
stop: {}
`

func writeBenchConfig(t *testing.T, pop int) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "tiny.yaml")
	if err := os.WriteFile(file, fmt.Appendf(nil, benchConfig, pop), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// benchFiles reads every record and the manifest of a bench directory.
func benchFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if strings.Count(rel, string(filepath.Separator)) <= 1 && strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, "checkpoint.json") {
			data, err := os.ReadFile(path)
			out[rel] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBenchFiguresAreTheRecommendations: every figure of bench's table
// is the median over the seeds of what a direct measurement of the
// recorded recommendation gives (its own players and deals, played here),
// the recommendation at 100% is the one the run's checkpoint holds, and
// a bench at 2 workers writes the same records and table as at 1.
func TestBenchFiguresAreTheRecommendations(t *testing.T) {
	cfgFile := writeBenchConfig(t, 4)
	models := "generational,cmaes+racing,spsa"
	dirs := map[string]string{}
	outs := map[string]string{}
	for _, w := range []string{"1", "2"} {
		dirs[w] = filepath.Join(t.TempDir(), "bench")
		code, out, errs := run(t, "bench", cfgFile, "--models", models, "--seeds", "2", "--deals", "60", "--workers", w, "-o", dirs[w], "--quiet")
		if code != ExitOK {
			t.Fatalf("--workers %s: exit %d: %s", w, code, errs)
		}
		outs[w] = strings.ReplaceAll(out, dirs[w], "DIR")
	}
	if outs["1"] != outs["2"] {
		t.Errorf("the table at 1 and 2 workers differs:\n%s\n%s", outs["1"], outs["2"])
	}
	if a, b := benchFiles(t, dirs["1"]), benchFiles(t, dirs["2"]); fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 1+3*2*2 {
		t.Errorf("the records at 1 and 2 workers differ, or are not 1 + 3 models x 2 seeds x (record, checkpoint): %d files", len(a))
	}
	dir := dirs["1"]
	for _, model := range strings.Split(models, ",") {
		var at [quality.Quarters][]float64
		for seed := 1; seed <= 2; seed++ {
			rec, err := quality.ReadRecord(quality.RecordPath(dir, model, seed))
			if err != nil || rec == nil || !rec.Done() || len(rec.Genes) != quality.Quarters {
				t.Fatalf("%s seed %d: record %+v, %v", model, seed, rec, err)
			}
			ck, cfg, err := engine.ReadRun(filepath.Join(dir, model, fmt.Sprintf("seed%d", seed)))
			if err != nil {
				t.Fatal(err)
			}
			last, err := quality.Recommendation(ck)
			if err != nil || !slices.Equal(last, rec.Genes[quality.Quarters-1]) {
				t.Errorf("%s seed %d: the recommendation at 100%% is %v, the checkpoint's %v", model, seed, rec.Genes[quality.Quarters-1], last)
			}
			for q, genes := range rec.Genes {
				if f := directShots(t, cfg, genes, 60); f != rec.Figures[q] {
					t.Errorf("%s seed %d quarter %d: recorded %v, measured directly %v", model, seed, q+1, rec.Figures[q], f)
				}
				at[q] = append(at[q], rec.Figures[q])
			}
			cfg.Close()
		}
		want := fmt.Sprintf("| %s | 2 |", model)
		for _, q := range []int{0, 1, 3} {
			med, lo, hi := quality.Quantiles(at[q])
			want += fmt.Sprintf(" %.4g [%.4g, %.4g] |", med, lo, hi)
		}
		if !strings.Contains(outs["1"], want) {
			t.Errorf("the table has no line %q:\n%s", want, outs["1"])
		}
	}
	if !strings.Contains(outs["1"], "start (the config's first seed, else the player's defaults): ") {
		t.Errorf("no start figure:\n%s", outs["1"])
	}
	// --report prints the same table from the records, running nothing.
	code, out, errs := run(t, "bench", cfgFile, "--models", models, "--seeds", "2", "--deals", "60", "-o", dir, "--report")
	if code != ExitOK || strings.ReplaceAll(out, dir, "DIR") != outs["1"] {
		t.Errorf("--report: exit %d: %s\n%s", code, errs, out)
	}
	if _, err := os.Stat(filepath.Join(dir, quality.PictureFile)); err != nil {
		t.Error(err)
	}
	// --json: the same figures as one document.
	code, out, errs = run(t, "bench", cfgFile, "--models", models, "--seeds", "2", "--deals", "60", "-o", dir, "--report", "--json")
	var doc struct {
		Models []quality.Summary `json:"models"`
		Start  *float64          `json:"start"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Models) != 3 || doc.Start == nil {
		t.Fatalf("--json: exit %d: %s\n%s", code, errs, out)
	}
	for _, m := range doc.Models {
		line := fmt.Sprintf("| %s | %d |", m.Model, m.Seeds)
		for _, p := range m.At {
			line += fmt.Sprintf(" %.4g [%.4g, %.4g] |", p.Median, p.Q1, p.Q3)
		}
		if len(m.At) != 3 || !strings.Contains(outs["1"], line) {
			t.Errorf("--json's %s is not the table's line: %q", m.Model, line)
		}
	}
}

// directShots is the mean shots of the tuned shooter at genes against
// the config's random placer on the bench's fresh deals, played here.
func directShots(t *testing.T, cfg *engine.Setup, genes []float64, deals int) float64 {
	t.Helper()
	vals, err := cfg.Space().Decode(genes)
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Game()
	shooter, err := g.NewPlayer(g.Roles()[0], "tuned", vals)
	if err != nil {
		t.Fatal(err)
	}
	sg := g.(fitness.SoloGame)
	placer, err := fitness.ParseSpec(g, sg.Solo().Opponent, "random")
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i := range deals {
		cost, err := sg.PlaySolo(context.Background(), shooter, placer, fitness.Derive(quality.FreshSeed, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		sum += cost
	}
	return sum / float64(deals)
}

// TestBenchRefusedModelIsARow: a model that cannot run the config (spsa
// at an odd population) is a row that says why, and the others run.
func TestBenchRefusedModelIsARow(t *testing.T) {
	cfgFile := writeBenchConfig(t, 5)
	code, out, errs := run(t, "bench", cfgFile, "--models", "spsa,random-search", "--seeds", "1", "--deals", "20", "-o", filepath.Join(t.TempDir(), "b"), "--quiet")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "| spsa | cannot run: evolution.population: 5: model spsa asks for theta+ and theta- of population/2 iterations: want an even number |") ||
		!strings.Contains(out, "| random-search | 1 |") {
		t.Errorf("want a refused spsa row and a random-search row:\n%s", out)
	}
	if !strings.Contains(errs, "spsa cannot run") {
		t.Errorf("stderr does not say spsa was refused: %s", errs)
	}
}

// TestBenchBadInput: bad input is one line and exit 2, before any run.
func TestBenchBadInput(t *testing.T) {
	cfgFile := writeBenchConfig(t, 4)
	noBaselines := filepath.Join(t.TempDir(), "duel.yaml")
	if err := os.WriteFile(noBaselines, []byte("name: duel\ngame: mnk\nplayer: tuned\nfitness: {objective: score, population: {games: 2, opponents: 2}}\nevolution: {population: 4, generations: 4}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	if code, _, errs := run(t, "bench", cfgFile, "--models", "random-search", "--seeds", "1", "--deals", "10", "-o", other, "--quiet"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	notBench := t.TempDir()
	if err := os.WriteFile(filepath.Join(notBench, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := func() string { return filepath.Join(t.TempDir(), "b") }
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no models", []string{cfgFile}, "name the models to compare: --models MODEL,..."},
		{"unknown model", []string{cfgFile, "--models", "cmaes,sgd"}, `--models: unknown model "sgd" (want generational, down-to-size, natural-selection, cmaes, random-search, spsa, bayes, spsa-autoselect, or MODEL+racing)`},
		{"a model twice", []string{cfgFile, "--models", "cmaes,cmaes"}, "--models: model cmaes named twice"},
		{"no seeds", []string{cfgFile, "--models", "cmaes", "--seeds", "0"}, "--seeds 0: want 1 to 1000"},
		{"too few generations", []string{cfgFile, "--models", "cmaes", "--generations", "3"}, "--generations 3: want at least 4"},
		{"no generations", []string{cfgFile, "--models", "cmaes", "--generations", "0"}, "--generations 0: want at least 4"},
		{"no deals", []string{cfgFile, "--models", "cmaes", "--deals", "0"}, "--deals 0: want 1 to"},
		{"bad workers", []string{cfgFile, "--models", "cmaes", "--workers", "-1"}, "--workers -1: want 0 (all cores) to 1024"},
		{"no config", []string{filepath.Join(t.TempDir(), "nope.yaml"), "--models", "cmaes"}, "no such file"},
		{"two configs", []string{cfgFile, cfgFile, "--models", "cmaes"}, "want exactly one CONFIG, got 2 arguments"},
		{"no baselines", []string{noBaselines, "--models", "cmaes"}, "lists no baseline opponents (fitness.baselines.opponents): bench measures each model's recommendation against them"},
		{"another bench", []string{cfgFile, "--models", "cmaes", "--deals", "20", "-o", other}, "holds something else: a bench of another config, budget or number of deals (4 generations, 10 deals); give another -o"},
		{"not a bench", []string{cfgFile, "--models", "cmaes", "-o", notBench}, "holds something else (notes.txt, ...) and no bench.json"},
		{"a file for a directory", []string{cfgFile, "--models", "cmaes", "-o", cfgFile}, "holds something else: not a directory"},
		{"report of nothing", []string{cfgFile, "--models", "cmaes", "--report"}, "--report: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"bench"}, tc.args...)
			if !slices.Contains(args, "-o") {
				args = append(args, "-o", out())
			}
			code, stdout, errs := run(t, args...)
			if code != ExitUsage || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, stdout, errs, tc.want)
			}
		})
	}
}

// TestBenchInterruptResumes: SIGINT stops a bench at once (exit 130),
// SIGKILL at any moment, and the same command again ends with the table
// and records of a bench never stopped.
func TestBenchInterruptResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfgFile := writeBenchConfig(t, 4)
	args := func(dir string) []string {
		return []string{"bench", cfgFile, "--models", "generational,cmaes,spsa,bayes", "--seeds", "3", "--deals", "60", "--workers", "1", "-o", dir, "--quiet"}
	}
	straight := filepath.Join(t.TempDir(), "b")
	want := strings.ReplaceAll(mustRun(t, args(straight)...), straight, "DIR")
	for _, sig := range []os.Signal{os.Interrupt, os.Kill} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "b")
			var errb bytes.Buffer
			cmd := evotune(args(dir)...)
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			proctest.WaitFor(t, "a record", exists(quality.RecordPath(dir, "generational", 1)))
			_ = cmd.Process.Signal(sig)
			err := waitOrKill(t, cmd)
			var exitErr *exec.ExitError
			if sig == os.Interrupt && (!errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted)) {
				t.Fatalf("exit %v, want %d; stderr:\n%s", err, ExitInterrupted, errb.String())
			}
			if got := strings.ReplaceAll(mustRun(t, args(dir)...), dir, "DIR"); got != want {
				t.Errorf("after %v, the same command printed\n%s\nwant\n%s", sig, got, want)
			}
			if a, b := benchFiles(t, straight), benchFiles(t, dir); fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("after %v and a re-run, the records differ from a bench never stopped", sig)
			}
		})
	}
}
