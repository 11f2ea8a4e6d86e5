package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
)

// The large run: 2,000 generations of an outside game whose tuned player
// has 200 knobs (100 floats and a 10x10 weight grid), every knob of the
// best moving in about a third of the generations, a run.log line per
// generation. The program only ever answered the handshake; the
// dashboard never starts it.
const (
	largeGens  = 2000
	largeKnobs = 200
	largePop   = 20
)

// largeRun writes the large run into dir/large and returns its directory.
func largeRun(t testing.TB, dir string) string {
	t.Helper()
	work := t.TempDir()
	var params []string
	for k := range 100 {
		log := ""
		if k%4 == 0 {
			log = `,"log":true`
		}
		params = append(params, fmt.Sprintf(`{"name":"k%03d","type":"float","min":0.01,"max":10%s,"default":1}`, k, log))
	}
	cells := make([]string, 10)
	for r := range cells {
		cells[r] = "[" + strings.TrimSuffix(strings.Repeat("1,", 10), ",") + "]"
	}
	params = append(params, `{"name":"w","type":"grid","rows":10,"cols":10,"min":0,"max":4,"symmetry":"full","default":[`+strings.Join(cells, ",")+`]}`)
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
	game, ok := cfg.GameOf().(interface{ Description() *external.Description })
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
	runs := t.TempDir()
	largeRun(t, runs)
	ts, _ := serve(t, "", runs)
	// The first load reads the checkpoint; the next are served from the
	// reader's cache, as a watched run's page is between checkpoints.
	first := loadLarge(t, ctx, ts.URL+"/run?r=0/large")
	again := loadLarge(t, ctx, ts.URL+"/run?r=0/large")
	if n := eval[float64](t, ctx, `+document.getElementById('s0-fitness').dataset.n`); n != largeGens {
		t.Errorf("the chart spans %v generations, want %d", n, largeGens)
	}
	t.Logf("loaded in %.0f ms (first, reading the checkpoint), %.0f ms (cached)", first, again)
	// The weight grid's heat map holds the recommended best's cells, each
	// in its own cell's title, as the run's space decodes its genes.
	ins, err := engine.Inspect(filepath.Join(runs, "large"))
	if err != nil {
		t.Fatal(err)
	}
	vals, err := ins.Config.Space().Decode(ins.Views[0].Recommended().Genes)
	if err != nil {
		t.Fatal(err)
	}
	cells := vals.Grid("w")
	titles := eval[[]string](t, ctx, `[...document.querySelectorAll('#s0-grids-panel rect title')].map(e => e.textContent)`)
	if len(titles) != len(cells) {
		t.Fatalf("the heat map has %d cells, the grid %d", len(titles), len(cells))
	}
	for i, c := range cells {
		want := fmt.Sprintf("row %d, column %d: %s", i/10+1, i%10+1, strconv.FormatFloat(c, 'g', -1, 64))
		if titles[i] != want {
			t.Errorf("heat-map cell %d: %q, want %q", i, titles[i], want)
		}
	}
	screenshot(t, ctx, "large")
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
