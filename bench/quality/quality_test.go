package quality

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
)

// tiny is a config small enough to run every model in a test: the
// Battleship shooter against random placement, 4 genomes of 10 games.
const tiny = `name: tiny
seed: 3
game: battleship
player: tuned
fitness:
  objective: shots
  baselines: {opponents: [random], games: 10}
evolution:
  model: generational
  population: %d
  generations: 4
  elitism: 1
racing: {rounds: 2}
stop: {}
`

// tinyBench opens a bench of tiny at population pop in a fresh directory.
func tinyBench(t *testing.T, pop, generations int) *Bench {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(file, fmt.Appendf(nil, tiny, pop), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cfg.Close() })
	b, err := OpenBench(filepath.Join(dir, "bench"), file, cfg, generations, 50)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseRows(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []Row
		err  string
	}{
		{"cmaes", []Row{{Name: "cmaes", Model: "cmaes"}}, ""},
		{"generational+racing,spsa-autoselect", []Row{{Name: "generational+racing", Model: "generational", Racing: true},
			{Name: "spsa-autoselect", Model: "spsa", Autoselect: true}}, ""},
		{"cmaes,cmaes", nil, "model cmaes named twice"},
		{"cmaes,", nil, "an empty model name"},
		{"sgd", nil, `unknown model "sgd" (want generational, down-to-size,`},
		{"spsa-autoselect+racing", nil, `unknown model "spsa-autoselect+racing"`},
	} {
		rows, err := ParseRows(tc.list)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want %q", tc.list, err, tc.err)
			}
			continue
		}
		if err != nil || fmt.Sprint(rows) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %v %v, want %v", tc.list, rows, err, tc.want)
		}
	}
	if len(BenchRows) != 9 {
		t.Errorf("%d benchmark rows, want the six, spsa, spsa-autoselect and bayes", len(BenchRows))
	}
}

// TestQuantiles: the median and quartiles of a list, infinite entries (a
// run that never reached its target) included.
func TestQuantiles(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		xs            []float64
		med, lo, high float64
	}{
		{[]float64{3, 1, 2, 5, 4}, 3, 2, 4},
		{[]float64{8000, inf, 16000, inf, inf}, inf, 16000, inf},
		{[]float64{8000, 8000, 16000, inf, inf}, 16000, 8000, inf},
		{[]float64{1, 2, 3, 4}, 2.5, 1.75, 3.25},
	} {
		med, lo, hi := Quantiles(tc.xs)
		if med != tc.med || lo != tc.lo || hi != tc.high {
			t.Errorf("Quantiles(%v) = %v, %v, %v; want %v, %v, %v", tc.xs, med, lo, hi, tc.med, tc.lo, tc.high)
		}
	}
}

// TestPrecisionPlansTheBudget: the precision found for spsa-autoselect
// plans the bench's budget within one generation, read back from a
// config that writes that precision and leaves the budget out.
func TestPrecisionPlansTheBudget(t *testing.T) {
	for _, gens := range []int{4, 7, 20, 300} {
		b := tinyBench(t, 4, gens)
		prec, err := b.Problem.Precision()
		if err != nil {
			t.Fatalf("%d generations: %v", gens, err)
		}
		text, err := b.Problem.Text(1, "  model: spsa\n"+autoselectLine(prec), "")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(b.Problem.File, text)
		if err != nil {
			t.Fatal(err)
		}
		planned := cfg.Config().Evolution.Generations
		cfg.Close()
		if planned < gens-1 || planned > gens+1 {
			t.Errorf("%d generations: precision %g plans %d", gens, prec, planned)
		}
		t.Logf("%d generations: precision %g plans %d", gens, prec, planned)
	}
}

// TestRowConfigs: a row's run is the user's config with its seed, the
// population and budget, the row's model: the rows of the config's own
// model keep its settings, the others run at their defaults; racing only
// on +racing rows (the config's section), never a stop rule, no remeasure.
func TestRowConfigs(t *testing.T) {
	b := tinyBench(t, 4, 8)
	for _, tc := range []struct {
		row       string
		want, not []string
	}{
		{"generational", []string{"seed: 7\n", "  population: 4\n  generations: 8\n  model: generational\n  elitism: 1\n", "remeasure: off\n"}, []string{"racing", "stop"}},
		{"generational+racing", []string{"  model: generational\n  elitism: 1\n", "racing: {rounds: 2}\n"}, []string{"stop"}},
		{"cmaes+racing", []string{"  generations: 8\n  model: cmaes\n", "racing: {rounds: 2}\n"}, []string{"elitism", "stop"}},
		{"spsa-autoselect", []string{"  model: spsa\n  spsa-autoselect: {precision: "}, []string{"elitism", "racing"}},
	} {
		row, _ := ParseRow(tc.row)
		text, err := b.Problem.Config(row, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(text), w) {
				t.Errorf("%s: no %q in\n%s", tc.row, w, text)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(string(text), n) {
				t.Errorf("%s: %q in\n%s", tc.row, n, text)
			}
		}
		if strings.Count(string(text), "seed: ") != 1 {
			t.Errorf("%s: not one seed:\n%s", tc.row, text)
		}
	}
}

// TestRefusal: a model that cannot run the config says why in one line;
// the others run it, whatever of another model's the config holds.
func TestRefusal(t *testing.T) {
	b := tinyBench(t, 5, 0)
	for _, tc := range []struct{ row, want string }{
		{"spsa", "evolution.population: 5: model spsa asks for theta+ and theta- of population/2 iterations: want an even number"},
		{"spsa-autoselect", "evolution.population: 5: model spsa asks"},
		{"generational+racing", ""},
		{"cmaes", ""},
		{"bayes", ""},
	} {
		row, err := ParseRow(tc.row)
		if err != nil {
			t.Fatal(err)
		}
		why, err := b.Problem.Refusal(row)
		if err != nil || !strings.HasPrefix(why, tc.want) || (tc.want == "") != (why == "") || strings.Contains(why, "\n") {
			t.Errorf("%s: %q, %v; want %q", tc.row, why, err, tc.want)
		}
	}
}

// TestRunResumesAfterInterrupt: a run stopped after any quarter's record
// (its context cancelled there) and run again ends with the record and
// checkpoint of a run never stopped; so does a run whose checkpoint went
// past its record's quarter (an older benchmark's layout): it starts
// again.
func TestRunResumesAfterInterrupt(t *testing.T) {
	rows, _ := ParseRows("cmaes+racing,spsa")
	b := tinyBench(t, 4, 8)
	if err := b.MeasureStart(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	files := func(dir string, row Row) (string, string) {
		rec, err := os.ReadFile(RecordPath(dir, row.Name, 1))
		if err != nil {
			t.Fatal(err)
		}
		ck, err := os.ReadFile(filepath.Join(dir, row.Name, "seed1", "checkpoint.json"))
		if err != nil {
			t.Fatal(err)
		}
		return string(rec), string(ck)
	}
	for _, row := range rows {
		if _, err := b.Problem.Run(context.Background(), b.Dir, row, 1, 2, nil); err != nil {
			t.Fatal(err)
		}
		wantRec, wantCk := files(b.Dir, row)
		for stop := 1; stop < Quarters; stop++ {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			n := 0
			_, err := b.Problem.Run(ctx, dir, row, 1, 1, func(string, ...any) {
				if n++; n == stop {
					cancel()
				}
			})
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s stopped after quarter %d: %v, want it cancelled", row.Name, stop, err)
			}
			rec, err := ReadRecord(RecordPath(dir, row.Name, 1))
			if err != nil || rec == nil || len(rec.Figures) != stop {
				t.Fatalf("%s stopped after quarter %d: record %+v, %v", row.Name, stop, rec, err)
			}
			if _, err := b.Problem.Run(context.Background(), dir, row, 1, 2, nil); err != nil {
				t.Fatal(err)
			}
			if rec, ck := files(dir, row); rec != wantRec || ck != wantCk {
				t.Errorf("%s stopped after quarter %d and resumed: files differ from a run never stopped\n%s\n%s", row.Name, stop, rec, wantRec)
			}
		}
		// An older layout: the run is past its record's quarter.
		dir := t.TempDir()
		if err := os.CopyFS(filepath.Join(dir, row.Name, "seed1"), os.DirFS(filepath.Join(b.Dir, row.Name, "seed1"))); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Problem.Run(context.Background(), dir, row, 1, 1, nil); err != nil {
			t.Fatal(err)
		}
		if rec, ck := files(dir, row); rec != wantRec || ck != wantCk {
			t.Errorf("%s over a run past its record: files differ from a run never stopped", row.Name)
		}
	}
}

// TestFirstRecordsRead: records of the benchmark's first version (no
// genes) are read and tabulated as they were.
func TestFirstRecordsRead(t *testing.T) {
	dir := t.TempDir()
	for seed, figs := range [][]float64{{0.5, 0.52, 0.53, 0.56}, {0.48, 0.5, 0.55, 0.54}} {
		path := RecordPath(dir, "cmaes", seed+1)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf(`{
  "seed": %d,
  "games": [3200, 6400, 9600, 12800],
  "figures": [%v, %v, %v, %v],
  "reference": 0.55
}`, seed+1, figs[0], figs[1], figs[2], figs[3])
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := Line{Name: "cmaes"}
	for seed := 1; seed <= 3; seed++ {
		rec, err := ReadRecord(RecordPath(dir, "cmaes", seed))
		if err != nil {
			t.Fatal(err)
		}
		if rec != nil && rec.Done() {
			l.Records = append(l.Records, *rec)
		}
	}
	var b strings.Builder
	Table(&b, []Line{l}, false, func(r Record) float64 { return r.Reference })
	want := "| cmaes | 2 | 0.49 [0.485, 0.495] | 0.51 [0.505, 0.515] | 0.55 [0.545, 0.555] | 11,200 | 2 of 2 |"
	if !strings.Contains(b.String(), want) {
		t.Errorf("got\n%s\nwant a line %s", b.String(), want)
	}
}

func ExampleParseRow() {
	for _, name := range []string{"cmaes+racing", "spsa-autoselect"} {
		r, _ := ParseRow(name)
		fmt.Printf("%s: model %s, racing %v, autoselect %v\n", r.Name, r.Model, r.Racing, r.Autoselect)
	}
	// Output:
	// cmaes+racing: model cmaes, racing true, autoselect false
	// spsa-autoselect: model spsa, racing false, autoselect true
}

// TestOutsideProgramMeasured: a run ends by closing its config's outside
// program, so the recommendations of a config that plays one are measured
// through a config of their own (they were not: "game closed").
func TestOutsideProgramMeasured(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the Pig program")
	}
	pig, err := filepath.Abs(filepath.Join("..", "..", "examples", "pig", "pig.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "pig.yaml")
	text := fmt.Sprintf(`name: pig
seed: 1
command: [python3, %q]
player: tuned
fitness:
  objective: score
  baselines: {opponents: [hold20], games: 4}
evolution:
  population: 4
  generations: 4
`, pig)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cfg.Close() })
	b, err := OpenBench(filepath.Join(dir, "bench"), file, cfg, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := ParseRows("generational")
	rec, err := b.Problem.Run(context.Background(), b.Dir, rows[0], 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Figures) != Quarters {
		t.Fatalf("%d figures, want one a quarter: %+v", len(rec.Figures), rec)
	}
}

// TestDrawLabelsGamesInThousands: the picture's x-axis labels games as
// a reader counts them (525,000, not 525000).
func TestDrawLabelsGamesInThousands(t *testing.T) {
	rec := Record{Seed: 1, Games: []int{131250, 262500, 393750, 525000}, Figures: []float64{45, 44.8, 44.6, 44.5}}
	svg := string(Draw("t", "start", []float64{45}, []Line{{Name: "generational", Records: []Record{rec}}}))
	for _, want := range []string{">131,250<", ">262,500<", ">525,000<", ">0<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the x-axis lacks %s", want)
		}
	}
	if strings.Contains(svg, ">525000<") {
		t.Error("the x-axis writes 525000 without its separator")
	}
}
