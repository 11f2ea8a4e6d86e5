package dashboard

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/bench/quality"

	"github.com/chromedp/chromedp"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/plot"
)

// The browser tests drive Debian's Chromium, headless, through the
// DevTools protocol (chromedp). Without a Chromium they are skipped with
// one line saying so; a Chromium that is there and fails is a failure.
// EVOTUNE_CHROMIUM names the binary when it is not on PATH;
// EVOTUNE_SCREENSHOTS names a directory for the pages' screenshots.

// chromiumPath finds the browser, or skips t.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("EVOTUNE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on PATH (apt-get install chromium, or set EVOTUNE_CHROMIUM): the browser tests are skipped")
	return ""
}

// newBrowser starts a headless Chromium with a 1280x800 window and a
// fresh profile, for the test's lifetime.
func newBrowser(t testing.TB) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Start it now, so a browser that cannot start fails here, by name.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// do runs an action with a deadline.
func do[T any](t testing.TB, ctx context.Context, d time.Duration, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func visit(t testing.TB, ctx context.Context, url, ready string) {
	t.Helper()
	do(t, ctx, 60*time.Second, chromedp.Steps(chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(ready))))
}

func eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	return do(t, ctx, 30*time.Second, chromedp.Evaluate[T](js))
}

// screenshot saves the viewport (1280x800) as name.png and the whole page
// as name-full.png under $EVOTUNE_SCREENSHOTS, when it is set.
func screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("EVOTUNE_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	view := do(t, ctx, 30*time.Second, chromedp.CaptureScreenshot())
	full := do(t, ctx, 30*time.Second, chromedp.FullScreenshot(100))
	do(t, ctx, 10*time.Second, chromedp.EmulateViewport(1280, 800)) // FullScreenshot leaves the page's size
	for file, data := range map[string][]byte{name + ".png": view, name + "-full.png": full} {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chartPoint is a point of a chart's line turned back into its figure.
type chartPoint struct {
	Gen   float64 // from 1, as the x position says
	Value float64
}

// linePoints reads the polylines named name in the chart with id, and
// turns their points back into (generation, value) by the scale the
// chart carries; tol is the value of a tenth of a pixel.
func linePoints(t testing.TB, ctx context.Context, id, name string) (pts []chartPoint, tol float64) {
	t.Helper()
	type scale struct {
		Lo, Hi, Left, Right, Top, Bottom, N float64
		Points                              []string
	}
	js := fmt.Sprintf(`(() => {
		const svg = document.getElementById(%q);
		if (!svg) return null;
		const d = svg.dataset;
		return {Lo: +d.lo, Hi: +d.hi, Left: +d.left, Right: +d.right, Top: +d.top, Bottom: +d.bottom, N: +d.n,
			Points: [...svg.querySelectorAll('polyline.line')].filter(p => p.dataset.name === %q).map(p => p.getAttribute('points'))};
	})()`, id, name)
	s := eval[*scale](t, ctx, js)
	if s == nil {
		t.Fatalf("no chart %s on the page", id)
	}
	for _, line := range s.Points {
		for _, xy := range strings.Fields(line) {
			xs, ys, _ := strings.Cut(xy, ",")
			x, _ := strconv.ParseFloat(xs, 64)
			y, _ := strconv.ParseFloat(ys, 64)
			g := 1.0
			if s.N > 1 {
				g = 1 + (x-s.Left)/(s.Right-s.Left)*(s.N-1)
			}
			pts = append(pts, chartPoint{Gen: g, Value: s.Lo + (s.Bottom-y)/(s.Bottom-s.Top)*(s.Hi-s.Lo)})
		}
	}
	return pts, 0.06 * (s.Hi - s.Lo) / (s.Bottom - s.Top)
}

// checkLine checks that a chart's line passes through want[g] at every
// generation g+1: each point drawn is a generation's figure, and a
// generation without a point lies on the segment between its neighbours,
// which then have its value (a flat stretch).
func checkLine(t testing.TB, pts []chartPoint, tol float64, want []float64) {
	t.Helper()
	at := map[int]float64{}
	for _, p := range pts {
		g := int(math.Round(p.Gen))
		if math.Abs(p.Gen-float64(g)) > 0.05 || g < 1 || g > len(want) {
			t.Fatalf("a point at generation %.2f of %d", p.Gen, len(want))
		}
		if math.Abs(p.Value-want[g-1]) > tol {
			t.Errorf("generation %d drawn at %v, the checkpoint has %v", g, p.Value, want[g-1])
		}
		at[g] = p.Value
	}
	if _, ok := at[1]; !ok {
		t.Error("the line does not start at generation 1")
	}
	if _, ok := at[len(want)]; !ok {
		t.Errorf("the line does not reach generation %d", len(want))
	}
	prev := 1
	for g := 2; g <= len(want); g++ {
		if _, ok := at[g]; ok {
			prev = g
			continue
		}
		if math.Abs(want[g-1]-want[prev-1]) > tol {
			t.Errorf("generation %d (%v) is not drawn and differs from generation %d's %v", g, want[g-1], prev, want[prev-1])
		}
	}
}

// TestBrowserShowsAFinishedRun loads the list and the page of a finished
// run in Chromium and checks what a user sees against checkpoint.json:
// the fitness chart's best line passes through every generation's best,
// the recommended and fresh marks are the checkpoint's figures, the
// hall of fame, the cards and every knob's value are the checkpoint's.
func TestBrowserShowsAFinishedRun(t *testing.T) {
	ctx := newBrowser(t)
	runs := t.TempDir()
	dir, ck := finishedRun(t, runs, "lite", liteConfig)
	ts, _ := serve(t, "", runs)

	visit(t, ctx, ts.URL+"/", "#runs")
	type row struct{ Dir, State, Measure, Fresh, Start, Gain, Selected string }
	rows := eval[[]row](t, ctx, `[...document.querySelectorAll('#runs tbody tr')].map(tr => ({
		Dir: tr.querySelector('a.run-link').title, State: tr.querySelector('.badge').textContent,
		Measure: tr.querySelector('td.measure').textContent, Fresh: tr.querySelector('td.fresh').textContent,
		Start: tr.querySelector('td.start').textContent, Gain: tr.querySelector('td.gain').textContent,
		Selected: tr.querySelector('td.selected').textContent}))`)
	// The recommended best is the verdict's: the remeasure's winner, its
	// fresh figure from a second sample, the start's beside it.
	vd := ck.Verdict
	if vd == nil || vd.Start == nil || vd.Difference == nil {
		t.Fatalf("the run has no verdict against the baselines: %+v", vd)
	}
	rec := ck.HallOfFame[vd.Rank-1]
	fresh, start := english.Interval(vd.Fitness, vd.CI95, false), english.Interval(vd.Start.Fitness, vd.Start.CI95, false)
	gain, selected := english.Interval(vd.Difference.Value, vd.Difference.CI95, true), english.Interval(rec.Fitness, rec.CI95, false)
	want := row{Dir: dir, State: "finished", Measure: "shots lower is better", Fresh: fresh, Start: start, Gain: gain + " " + gainWord(vd.Difference, true), Selected: selected}
	if len(rows) != 1 || rows[0] != want {
		t.Errorf("the list shows %+v; want %+v", rows, want)
	}
	// The fresh figure, the start's and the gain lead; the figure that
	// chose the best comes after them.
	head := eval[[]string](t, ctx, `[...document.querySelectorAll('#runs thead th')].map(th => th.textContent)`)
	if !inOrder(head, "measure", "fresh", "start", "gain over the start", "as selected") {
		t.Errorf("the list's columns %q: want the measure, fresh, start and gain before as selected", head)
	}
	screenshot(t, ctx, "list")

	do(t, ctx, 30*time.Second, chromedp.Click(chromedp.CSS("a.run-link")))
	do(t, ctx, 30*time.Second, chromedp.WaitVisible(chromedp.CSS("#s0-fitness")))
	best := make([]float64, len(ck.History))
	for i, h := range ck.History {
		best[i] = h.Best
	}
	pts, tol := linePoints(t, ctx, "s0-fitness", "generation's best")
	checkLine(t, pts, tol, best)
	sofar := make([]float64, len(best))
	for i, b := range best {
		sofar[i] = b
		if i > 0 {
			sofar[i] = min(b, sofar[i-1]) // shots: lower is better
		}
	}
	pts, tol = linePoints(t, ctx, "s0-fitness", "best so far (of the generations' bests, luck included)")
	checkLine(t, pts, tol, sofar)
	mean := make([]float64, len(ck.History))
	for i, h := range ck.History {
		mean[i] = h.Mean
	}
	if pts, _ := linePoints(t, ctx, "s0-fitness", "mean of the generation"); len(pts) < 2 {
		t.Errorf("the mean's line has %d points", len(pts))
	}
	marks := eval[[]string](t, ctx, `[...document.querySelectorAll('#s0-fitness g.mark')].map(g => g.dataset.value + ' ' + g.dataset.lo + ' ' + g.dataset.hi)`)
	wantMarks := []string{figures(vd.Fitness, vd.CI95), figures(vd.Start.Fitness, vd.Start.CI95), figures(rec.Fitness, rec.CI95)}
	if strings.Join(marks, "|") != strings.Join(wantMarks, "|") {
		t.Errorf("the chart's marks are %q, the checkpoint's fresh, start and as-selected figures, in that order, %q", marks, wantMarks)
	}
	// The cards lead with the fresh figure and the gain over the start,
	// with the direction; the figure that chose the best comes after.
	type shown struct{ ID, Label, Value string }
	lead := eval[[]shown](t, ctx, `[...document.querySelectorAll('#lead .card')].map(c => ({ID: c.id, Label: c.querySelector('.label').textContent,
		Value: c.querySelector('.value').textContent + (c.querySelector('.ci') ? ' ' + c.querySelector('.ci').textContent : '')}))`)
	wantLead := []shown{
		{"card-fresh", "recommended best, on fresh deals (shots, lower is better)", fresh},
		{"card-gain", "recommended − start (first seed)", gain},
		{"card-start", "start (first seed)", start},
		{"card-recommended", "recommended best, as selected", selected},
	}
	if !slices.Equal(lead, wantLead) {
		t.Errorf("the leading cards are %+v, want %+v", lead, wantLead)
	}
	if first := eval[string](t, ctx, `document.querySelector('.cards .card').id`); first != "card-fresh" {
		t.Errorf("the page's first card is %s, want the fresh figure's", first)
	}
	cards := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('.card')].map(c => [c.id, c.querySelector('.value').textContent]))`)
	for id, v := range map[string]string{"card-state": "finished", "card-generations": "6 of 6"} {
		if cards[id] != v {
			t.Errorf("%s shows %q, want %q", id, cards[id], v)
		}
	}
	if star := eval[int](t, ctx, `[...document.querySelectorAll('#s0-hof tbody tr')].findIndex(tr => tr.classList.contains('recommended'))`); star != vd.Rank-1 {
		t.Errorf("the hall of fame marks row %d as recommended, the verdict's rank is %d", star+1, vd.Rank)
	}
	hof := eval[[]string](t, ctx, `[...document.querySelectorAll('#s0-hof tbody tr td.fitness')].map(td => td.textContent)`)
	if len(hof) != len(ck.HallOfFame) {
		t.Fatalf("the hall of fame shows %d members, the checkpoint has %d", len(hof), len(ck.HallOfFame))
	}
	for i, m := range ck.HallOfFame {
		if hof[i] != plot.Num(m.Fitness) {
			t.Errorf("hall of fame %d shows %s, the checkpoint has %v", i+1, hof[i], m.Fitness)
		}
	}
	checkKnobs(t, ctx, ck, rec.Genes)
	screenshot(t, ctx, "finished")
}

// inOrder reports whether list holds each of want, in that order.
func inOrder(list []string, want ...string) bool {
	at := 0
	for _, w := range want {
		i := slices.Index(list[at:], w)
		if i < 0 {
			return false
		}
		at += i + 1
	}
	return true
}

// gainWord is how the pages read a paired difference of a cost (lower)
// or a score.
func gainWord(d *stats.Estimate, lower bool) string {
	switch {
	case d.Contains(0):
		return "no demonstrated gain"
	case (d.Value < 0) != lower:
		return "worse than the start"
	}
	return "a gain"
}

func figures(v float64, ci [2]float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return f(v) + " " + f(ci[0]) + " " + f(ci[1])
}

// checkKnobs checks the knob table against the recommended best's genes,
// decoded here.
func checkKnobs(t testing.TB, ctx context.Context, ck *engine.Checkpoint, best []float64) {
	t.Helper()
	cfg, err := quality.Load("checkpoint#config", []byte(ck.Config))
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	space := cfg.Space()
	vals, err := space.Decode(best)
	if err != nil {
		t.Fatal(err)
	}
	type knob struct{ Name, Best string }
	shown := eval[[]knob](t, ctx, `[...document.querySelectorAll('#s0-knobs tbody tr')].map(tr => ({Name: tr.querySelector('.name').textContent, Best: tr.querySelector('.best').textContent}))`)
	genes := space.Genes()
	if len(shown) != len(genes) {
		t.Fatalf("the knob table has %d rows, the space %d genes", len(shown), len(genes))
	}
	for i, g := range genes {
		var want string
		switch g.Kind {
		case genome.Float:
			want = strconv.FormatFloat(vals.Float(g.Param), 'g', 6, 64)
		case genome.Int:
			want = strconv.Itoa(vals.Int(g.Param))
		case genome.Grid:
			p, _ := space.Params().Lookup(g.Param)
			class, _ := p.Classes()
			for c, k := range class {
				if k == g.Class {
					want = strconv.FormatFloat(vals.Grid(g.Param)[c], 'g', 6, 64)
					break
				}
			}
		default:
			p, _ := space.Params().Lookup(g.Param)
			want = p.Format(vals.Get(g.Param))
		}
		if shown[i].Name != g.String() || shown[i].Best != want {
			t.Errorf("knob row %d shows %s = %s, the checkpoint's best has %s = %s", i, shown[i].Name, shown[i].Best, g, want)
		}
	}
}

// evotuneBinary is the evotune the live test runs, built once per test
// binary.
func evotuneBinary(t testing.TB) string { return proctest.Evotune(t) }

func TestMain(m *testing.M) {
	code := m.Run()
	proctest.Remove()
	os.Exit(code)
}

// liveConfig is the quickstart slow enough to watch: about a second a
// generation.
var liveConfig = strings.NewReplacer("name: lite", "name: live", "seed: 1", "seed: 3", "games: 40", "games: 600",
	"population: 8", "population: 16", "generations: 6", "generations: 40").Replace(liteConfig)

// TestBrowserFollowsALiveRun opens the page of a run that a live
// 'evotune run' is writing, and waits for the page to gain a generation
// without being reloaded (the same document: a mark left on its window
// survives); the points it then draws are the checkpoint's. Stopping the
// run turns the page's state to stopped, again without a reload.
func TestBrowserFollowsALiveRun(t *testing.T) {
	ctx := newBrowser(t)
	bin := evotuneBinary(t)
	runs := t.TempDir()
	cfgFile := filepath.Join(t.TempDir(), "live.yaml")
	if err := os.WriteFile(cfgFile, []byte(liveConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(runs, "live")
	run, stderr := proctest.Start(t, exec.Command(bin, "run", cfgFile, "--out", dir, "--quiet", "--workers", "1"), "evotune run "+cfgFile)
	cmd := run.Cmd
	// With a token: the page, its fragments and its event stream carry
	// the cookie, which holds for the pages' own path only.
	ts, _ := serve(t, "live-token", runs)
	// ckGeneration is the run's last checkpointed generation, 0 before.
	ckGeneration := func() int {
		ck, s, err := engine.ReadRun(dir)
		if err != nil {
			return 0
		}
		s.Close()
		return ck.Generation
	}
	// awaitRun waits for the run's checkpoint to pass generation gen: a
	// generation takes about a second, and the run cannot stop early, so
	// a minute without one means it never comes.
	awaitRun := func(gen int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ckGeneration() <= gen; time.Sleep(100 * time.Millisecond) {
			if run.Exited() {
				t.Fatalf("the run ended before generation %d: %s", gen+1, stderr.String())
			}
			if time.Now().After(deadline) {
				t.Fatalf("no checkpoint past generation %d within a minute: %s", gen, stderr.String())
			}
		}
	}
	// The first checkpoint, then the page.
	awaitRun(0)
	visit(t, ctx, ts.URL+"/run?r=0/live&token=live-token", "#s0-fitness")
	state := eval[string](t, ctx, `document.querySelector('#card-state .value').textContent + ' ' + document.querySelector('#card-state .small').textContent`)
	if want := fmt.Sprintf("running pid %d", cmd.Process.Pid); state != want {
		t.Errorf("state card %q, want %q", state, want)
	}
	first := eval[float64](t, ctx, `+document.getElementById('s0-fitness').dataset.n`)
	eval[bool](t, ctx, `window.sameDocument = true`)
	// The run checkpoints another generation; the page follows it within
	// moments (its event stream polls every second), so 45 s without it
	// means it never will.
	awaitRun(int(first))
	gained := do(t, ctx, 45*time.Second, chromedp.Poll[float64](
		fmt.Sprintf(`(() => { const s = document.getElementById('s0-fitness'); const n = s ? +s.dataset.n : 0; return n > %v ? n : 0; })()`, first),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(45*time.Second)))
	if !eval[bool](t, ctx, `window.sameDocument === true && +document.body.dataset.refreshed >= 1`) {
		t.Fatal("the page was reloaded, or did not update its content itself")
	}
	t.Logf("the page went from %v to %v generations without a reload", first, gained)
	pts, tol := linePoints(t, ctx, "s0-fitness", "generation's best")
	ck, _, err := engine.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ck.History) < int(gained) {
		t.Fatalf("the page shows %v generations, the checkpoint %d", gained, len(ck.History))
	}
	best := make([]float64, int(gained))
	for i := range best {
		best[i] = ck.History[i].Best // a generation's row never changes once written
	}
	checkLine(t, pts, tol, best)
	screenshot(t, ctx, "live")

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	go func() { _ = run.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(time.Minute): // a generation, then the stop
		t.Fatalf("the run did not stop within a minute of Ctrl-C: %s", stderr.String())
	}
	do(t, ctx, 45*time.Second, chromedp.Poll[bool](`document.querySelector('#run-state').textContent === 'stopped'`,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(45*time.Second)))
	if !eval[bool](t, ctx, `window.sameDocument === true`) {
		t.Error("the page was reloaded when the run stopped")
	}
}

// TestBrowserComparesRuns: two runs of one game on one axis, their
// knobs side by side, and the command of their paired evaluation.
func TestBrowserComparesRuns(t *testing.T) {
	ctx := newBrowser(t)
	runs := t.TempDir()
	_, a := finishedRun(t, runs, "seed1", liteConfig)
	_, b := finishedRun(t, runs, "seed2", strings.Replace(liteConfig, "seed: 1", "seed: 2", 1))
	ts, _ := serve(t, "", runs)
	visit(t, ctx, ts.URL+"/", "#runs")
	do(t, ctx, 30*time.Second, chromedp.Steps(
		chromedp.Click(chromedp.CSS(`input[value="0/seed1"]`)),
		chromedp.Click(chromedp.CSS(`input[value="0/seed2"]`)),
		chromedp.Click(chromedp.CSS("#compare-button")),
		chromedp.WaitVisible(chromedp.CSS("#compare-chart")),
	))
	for i, ck := range []*engine.Checkpoint{a, b} {
		best := make([]float64, len(ck.History))
		for g, h := range ck.History {
			best[g] = h.Best
		}
		name := filepath.Join(runs, []string{"seed1", "seed2"}[i])
		pts, tol := linePoints(t, ctx, "compare-chart", name)
		checkLine(t, pts, tol, best)
	}
	// Each run's figures lead with the fresh one and the gain over its
	// start; the chart marks the fresh figures.
	head := eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-runs thead th')].map(th => th.textContent)`)
	if !inOrder(head, "recommended best, fresh", "start", "recommended − start, paired", "as selected (flattered by luck)") {
		t.Errorf("the comparison's columns %q: want fresh, start and gain before as selected", head)
	}
	shownRuns := eval[[][]string](t, ctx, `[...document.querySelectorAll('#compare-runs tbody tr')].map(tr => [...tr.querySelectorAll('td.fresh, td.start, td.selected')].map(td => td.textContent))`)
	marks := eval[[]string](t, ctx, `[...document.querySelectorAll('#compare-chart g.mark')].map(g => g.dataset.value + ' ' + g.dataset.lo + ' ' + g.dataset.hi)`)
	for i, ck := range []*engine.Checkpoint{a, b} {
		vd := ck.Verdict
		rec := ck.HallOfFame[vd.Rank-1]
		want := []string{english.Interval(vd.Fitness, vd.CI95, false), english.Interval(vd.Start.Fitness, vd.Start.CI95, false), english.Interval(rec.Fitness, rec.CI95, false)}
		if i >= len(shownRuns) || !slices.Equal(shownRuns[i], want) {
			t.Errorf("run %d's figures: %q, want fresh, start, as selected %q", i+1, shownRuns, want)
		}
		if i >= len(marks) || marks[i] != figures(vd.Fitness, vd.CI95) {
			t.Errorf("the chart's mark of run %d: %q, want its fresh figure %s", i+1, marks, figures(vd.Fitness, vd.CI95))
		}
	}
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll('#compare-knobs tbody tr')].map(tr => [...tr.children].map(td => td.textContent))`)
	if len(rows) == 0 || len(rows[0]) != 3 {
		t.Fatalf("the knob table: %v", rows)
	}
	command := eval[string](t, ctx, `document.getElementById('compare-command').textContent`)
	if want := "evotune compare " + filepath.Join(runs, "seed1") + " " + filepath.Join(runs, "seed2"); !strings.HasPrefix(command, want) {
		t.Errorf("the command shown is %q, want it to start %q", command, want)
	}
	screenshot(t, ctx, "compare")
}
