package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
)

// The large run: 2,000 generations of an outside game whose tuned player
// has 200 knobs (104 floats and an 8x12 weight grid), every knob of the
// best moving in about a third of the generations, a run.log line per
// generation. The program only ever answered the handshake; the
// dashboard never starts it.
const (
	largeGens  = 2000
	largeKnobs = 200
	largePop   = 20
	// The grid is not square, so a drawing that swaps rows and columns
	// cannot pass for the right one.
	largeRows, largeCols = 8, 12
)

// largeRun writes the large run into dir/large and returns its directory.
func largeRun(t testing.TB, dir string) string {
	t.Helper()
	work := t.TempDir()
	var params []string
	for k := range largeKnobs - largeRows*largeCols {
		log := ""
		if k%4 == 0 {
			log = `,"log":true`
		}
		params = append(params, fmt.Sprintf(`{"name":"k%03d","type":"float","min":0.01,"max":10%s,"default":1}`, k, log))
	}
	cells := make([]string, largeRows)
	for r := range cells {
		cells[r] = "[" + strings.TrimSuffix(strings.Repeat("1,", largeCols), ",") + "]"
	}
	params = append(params, fmt.Sprintf(`{"name":"w","type":"grid","rows":%d,"cols":%d,"min":0,"max":4,"symmetry":"full","default":[%s]}`, largeRows, largeCols, strings.Join(cells, ",")))
	hello := `{"type":"hello","protocol":1,"game":"wide","mode":"two-seat","options":[],"roles":["player"],"players":[` +
		`{"name":"tuned","role":"player","params":[` + strings.Join(params, ",") + `]},{"name":"fixed","role":"player","params":[]}]}`
	script := filepath.Join(work, "wide.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nread line\necho '"+hello+"'\nwhile read line; do :; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`name: large
seed: 1
command: [%s]
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [fixed]
    games: 20
evolution:
  population: %d
  generations: %d
`, script, largePop, largeGens)
	cfgFile := filepath.Join(work, "large.yaml")
	if err := os.WriteFile(cfgFile, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.Load(cfgFile) // the one start of the program: its handshake
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	if n := cfg.Space().Len(); n != largeKnobs {
		t.Fatalf("%d knobs, want %d", n, largeKnobs)
	}
	game, ok := cfg.Game().(interface{ Description() *external.Description })
	if !ok {
		t.Fatal("not an outside game")
	}
	desc, err := game.Description().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	genes := make([]float64, largeKnobs)
	for i := range genes {
		genes[i] = rng.Float64()
	}
	member := func(g []float64, fit float64, gen int) engine.Member {
		return engine.Member{Genes: append([]float64(nil), g...), Figure: fitness.Figure{Fitness: fit, Games: 40,
			CI95: [2]float64{max(0, fit-0.15), min(1, fit+0.15)}}, Generation: gen}
	}
	ck := engine.Checkpoint{Format: engine.CheckpointFormat, Name: "large", ConfigHash: cfg.Hash(), Config: config,
		ConfigDir: work, Generation: largeGens,
		Program: &engine.ProgramRecord{Argv: []string{script}, Description: desc, Files: map[string]string{}}}
	var log strings.Builder
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Fprintf(&log, "%s start large: game wide, player tuned, model generational, population %d, %d generations, 2 workers\n", at.Format(time.RFC3339), largePop, largeGens)
	for g := range largeGens {
		for i := range genes {
			if rng.Float64() < 0.3 {
				genes[i] = min(1, max(0, genes[i]+rng.NormFloat64()*0.05))
			}
		}
		best := 0.5 + 0.3*(1-math.Exp(-float64(g)/400)) + 0.03*rng.NormFloat64()
		best = min(1, max(0, best))
		ck.History = append(ck.History, engine.GenStats{Generation: g + 1, Best: best, Mean: best * 0.8, SD: 0.1, Games: 800,
			BestGenes: append([]float64(nil), genes...)})
		at = at.Add(3 * time.Second)
		fmt.Fprintf(&log, "%s generation %d/%d: best %.6g, mean %.6g, best so far %.6g over 40 games; 800 games in %.2fs (%.0f games/s)\n",
			at.Format(time.RFC3339), g+1, largeGens, best, best*0.8, best, 2.5+rng.Float64(), 800/(2.5+rng.Float64()))
	}
	for i := range 10 {
		ck.HallOfFame = append(ck.HallOfFame, member(genes, 0.8-0.01*float64(i), largeGens-1-i))
	}
	for i := range largePop {
		ck.Population = append(ck.Population, member(genes, 0.7-0.01*float64(i), largeGens-1))
	}
	data, err := json.MarshalIndent(&ck, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "large")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"checkpoint.json": data, "config.yaml": []byte(config), "run.log": []byte(log.String())} {
		if err := os.WriteFile(filepath.Join(run, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return run
}

// maxLargePage bounds the large run's page, in bytes of HTML: what the
// browser parses and draws. Lines are cut to about two points a pixel,
// so the page does not grow with the generations: it is 1.7 MB (the
// numbers are seeded, so it varies only with the temporary directory's
// name); drawing every generation's point made it 2.4 MB.
const maxLargePage = 2 << 20

// TestLargeRunPageIsBounded: the page of 2,000 generations and 200 knobs
// is served whole (every knob's row, the chart over every generation)
// within a size that does not depend on the number of generations.
func TestLargeRunPageIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an 8 MB checkpoint")
	}
	runs := t.TempDir()
	largeRun(t, runs)
	ts, _ := serve(t, "", runs)
	status, body := get(t, ts, "/run?r=0/large")
	if status != 200 {
		t.Fatalf("status %d: %s", status, clipText(body))
	}
	if n := strings.Count(body, `<td class="num best">`); n != largeKnobs {
		t.Errorf("%d knob rows, want %d", n, largeKnobs)
	}
	if !strings.Contains(body, fmt.Sprintf(`data-n="%d"`, largeGens)) {
		t.Error("the chart does not span the 2,000 generations")
	}
	if len(body) > maxLargePage {
		t.Errorf("the page is %d bytes, more than %d", len(body), maxLargePage)
	}
	t.Logf("the page of %d generations and %d knobs is %d bytes", largeGens, largeKnobs, len(body))
}

func clipText(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// loadLarge opens the large run's page and returns the browser's own
// measure of its load, in milliseconds: from the navigation's start to
// the end of its load event (the HTML parsed, the styles applied, the
// script run).
func loadLarge(t testing.TB, ctx context.Context, url string) float64 {
	visit(t, ctx, url, "#s0-knobs")
	ms := eval[float64](t, ctx, `(() => { const e = performance.getEntriesByType('navigation')[0]; return e.loadEventEnd - e.startTime; })()`)
	rows := eval[int](t, ctx, `document.querySelectorAll('#s0-knobs tbody tr').length`)
	if rows != largeKnobs {
		t.Fatalf("%d knob rows in the browser, want %d", rows, largeKnobs)
	}
	return ms
}

// TestBrowserLoadsALargeRun loads the large run's page in Chromium and
// checks that everything is there; it logs how long the load took, which
// BenchmarkBrowserLargeRun measures (a test's verdict does not hang on
// the clock of a shared machine).
func TestBrowserLoadsALargeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an 8 MB checkpoint")
	}
	ctx := newBrowser(t)
	runsDir := t.TempDir()
	largeRun(t, runsDir)
	ts, _ := serve(t, "", runsDir)
	// The first load reads the checkpoint; the next are served from the
	// reader's cache, as a watched run's page is between checkpoints.
	first := loadLarge(t, ctx, ts.URL+"/run?r=0/large")
	again := loadLarge(t, ctx, ts.URL+"/run?r=0/large")
	if n := eval[float64](t, ctx, `+document.getElementById('s0-fitness').dataset.n`); n != largeGens {
		t.Errorf("the chart spans %v generations, want %d", n, largeGens)
	}
	t.Logf("loaded in %.0f ms (first, reading the checkpoint), %.0f ms (cached)", first, again)
	// The weight grid's heat map holds the recommended best's cells, as the
	// run's space decodes its genes, each where its row and column are
	// drawn.
	ins, err := runs.Inspect(filepath.Join(runsDir, "large"))
	if err != nil {
		t.Fatal(err)
	}
	vals, err := ins.Setup.Space().Decode(ins.Views[0].Recommended().Genes)
	if err != nil {
		t.Fatal(err)
	}
	checkHeatMap(t, ctx, "#s0-grids-panel svg", largeRows, largeCols, vals.Grid("w"))
	screenshot(t, ctx, "large")
}

// checkHeatMap checks the heat map drawn in the svg element sel against
// a grid's cells, row by row, by where each cell is drawn: a cell's row
// is the rank of its top among the cells' tops, its column the rank of
// its left, and both its title and the value written in it are that
// cell's.
func checkHeatMap(t testing.TB, ctx context.Context, sel string, rows, cols int, cells []float64) {
	t.Helper()
	if len(cells) != rows*cols {
		t.Fatalf("the grid has %d cells, want %dx%d", len(cells), rows, cols)
	}
	type box struct{ X, Y, W, H float64 }
	type cell struct {
		box
		Title string
	}
	type label struct {
		X, Y float64
		Text string
	}
	got := eval[[]cell](t, ctx, `[...document.querySelectorAll('`+sel+` rect')].filter(r => r.querySelector('title')).map(r => ({X: r.x.baseVal.value, Y: r.y.baseVal.value,
		W: r.width.baseVal.value, H: r.height.baseVal.value, Title: r.querySelector('title').textContent}))`)
	labels := eval[[]label](t, ctx, `[...document.querySelectorAll('`+sel+` text[text-anchor="middle"]')].map(e => ({X: e.x.baseVal[0].value, Y: e.y.baseVal[0].value, Text: e.textContent}))`)
	if len(got) != len(cells) {
		t.Fatalf("the heat map has %d cells, the grid %d", len(got), len(cells))
	}
	size := eval[box](t, ctx, `(s => ({W: s.width.baseVal.value, H: s.height.baseVal.value}))(document.querySelector('`+sel+`'))`)
	for _, c := range got {
		if c.X < 0 || c.Y < 0 || c.X+c.W > size.W || c.Y+c.H > size.H {
			t.Fatalf("the cell %q is drawn at %+v, outside the drawing's %v by %v", c.Title, c.box, size.W, size.H)
		}
	}
	// The distinct lefts and tops, in order, are the columns and rows.
	rank := func(of func(cell) float64) map[float64]int {
		var ends []float64
		for _, c := range got {
			ends = append(ends, of(c))
		}
		slices.Sort(ends)
		m := map[float64]int{}
		for _, v := range slices.Compact(ends) {
			m[v] = len(m)
		}
		return m
	}
	colOf, rowOf := rank(func(c cell) float64 { return c.X }), rank(func(c cell) float64 { return c.Y })
	if len(rowOf) != rows || len(colOf) != cols {
		t.Fatalf("the heat map is drawn %d rows by %d columns, the grid is %dx%d", len(rowOf), len(colOf), rows, cols)
	}
	where := map[box]int{}
	for _, c := range got {
		r, k := rowOf[c.Y], colOf[c.X]
		where[c.box] = r*cols + k
		want := fmt.Sprintf("row %d, column %d: %s", r+1, k+1, strconv.FormatFloat(cells[r*cols+k], 'g', -1, 64))
		if c.Title != want {
			t.Errorf("the cell drawn in row %d, column %d says %q, want %q", r+1, k+1, c.Title, want)
		}
	}
	if len(labels) != len(cells) {
		t.Fatalf("%d values written in the heat map, want one in each of its %d cells", len(labels), len(cells))
	}
	for _, l := range labels {
		i := -1
		for b, at := range where {
			if l.X > b.X && l.X < b.X+b.W && l.Y > b.Y && l.Y < b.Y+b.H {
				i = at
			}
		}
		if i < 0 {
			t.Errorf("the value %q is written outside every cell, at (%v, %v)", l.Text, l.X, l.Y)
		} else if want := strconv.FormatFloat(cells[i], 'f', 2, 64); l.Text != want {
			t.Errorf("the value written in row %d, column %d is %q, want %q", i/cols+1, i%cols+1, l.Text, want)
		}
	}
}

// BenchmarkBrowserLargeRun measures, in the browser, the load of the
// large run's page (the checkpoint cached, as between two checkpoints of
// a watched run): ms/load is the navigation's start to its load event's
// end.
func BenchmarkBrowserLargeRun(b *testing.B) {
	ctx := newBrowser(b)
	runs := b.TempDir()
	largeRun(b, runs)
	ts, _ := serve(b, "", runs)
	loadLarge(b, ctx, ts.URL+"/run?r=0/large") // fills the cache
	total := 0.0
	for b.Loop() {
		total += loadLarge(b, ctx, ts.URL+"/run?r=0/large")
	}
	b.ReportMetric(total/float64(b.N), "ms/load")
}

// BenchmarkLargeRunServer measures the server's part of the large run's
// page: reading the run (its checkpoint inspected afresh each time, as
// after a new checkpoint) and rendering the page.
func BenchmarkLargeRunServer(b *testing.B) {
	runs := b.TempDir()
	largeRun(b, runs)
	s, err := New([]string{runs}, "")
	if err != nil {
		b.Fatal(err)
	}
	e, err := resolve(s.roots, "0/large")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s.reader = newReader()
		r := s.reader.read(e)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		s.fragment("run", s.runPage(r))
	}
}
