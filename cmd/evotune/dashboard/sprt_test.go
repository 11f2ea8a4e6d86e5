package dashboard

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness/stats"
)

// sprtState is a head-to-head test's state after the batches of LLRs
// llrs, 40 games each, written by process pid.
func sprtState(pid int, state string, llrs ...float64) *sprtfile.State {
	lo, hi := stats.WaldBounds(0.05, 0.05)
	st := &sprtfile.State{SPRT: sprtfile.Format, State: state, PID: pid, Test: sprtfile.Test{Game: "mnk", A: "classic", B: "greedy",
		Kind: "pentanomial", H0: 0, H1: 50, Unit: "logistic Elo", Alpha: 0.05, Beta: 0.05, Bounds: [2]float64{lo, hi},
		Seed: 5}, MaxGames: 100000}
	for i, l := range llrs {
		st.Batches = append(st.Batches, sprtfile.Batch{Games: 40 * (i + 1), LLR: l})
		st.Games, st.LLR = 40*(i+1), l
	}
	if len(llrs) > 0 {
		st.Estimate = &stats.Estimate{Value: 112.3, CI95: [2]float64{84.1, 142.1}, N: st.Games / 2}
	}
	if state == sprtfile.Finished {
		st.Verdict = "H1 accepted"
	}
	return st
}

// deadPID is the id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestSPRTStatesAreTold: the list and the page of an sprt state file say
// where the test stands: in progress while its process lives, stopped
// (with why) once it has died without a verdict, finished with its
// verdict; a file that is not a state is a message, a link out is
// refused and not listed.
func TestSPRTStatesAreTold(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, st *sprtfile.State) {
		t.Helper()
		if err := sprtfile.Write(filepath.Join(dir, name), st); err != nil {
			t.Fatal(err)
		}
	}
	write("live.sprt.json", sprtState(os.Getpid(), sprtfile.InProgress, 1.2, 2.1))
	write("killed.sprt.json", sprtState(deadPID(t), sprtfile.InProgress, 0.4))
	write("done.sprt.json", sprtState(os.Getpid(), sprtfile.Finished, 1.2, 2.1, 3.1))
	if err := os.WriteFile(filepath.Join(dir, "garbage.sprt.json"), []byte(`{"sprt": 1, "state": "in progress", "bounds": [1, -1]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := sprtfile.Write(filepath.Join(outside, "secret.sprt.json"), sprtState(os.Getpid(), sprtfile.Finished, 3.5)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.sprt.json"), filepath.Join(dir, "link.sprt.json")); err != nil {
		t.Fatal(err)
	}
	// Another user's traps: a FIFO (a read would wait forever) and a
	// file of a gigabyte, both named as state files.
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.sprt.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Create(filepath.Join(dir, "huge.sprt.json")); err != nil {
		t.Fatal(err)
	} else {
		if err := f.Truncate(1 << 30); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	ts, _ := serve(t, "", dir)
	_, list := get(t, ts, "/")
	for _, want := range []string{
		`<a class="run-link" href="/sprt?t=0%2flive.sprt.json">live.sprt.json</a>`,
		`in progress</span> <span class="small">pid ` + fmt.Sprint(os.Getpid()),
		`&#43;2.10 [-2.94, 2.94]`, `112.3 [84.1, 142.1] logistic Elo`,
		`href="/sprt?t=0%2fkilled.sprt.json"`, `href="/sprt?t=0%2fgarbage.sprt.json"`,
	} {
		if !strings.Contains(list, want) {
			t.Errorf("the list does not show %q", want)
		}
	}
	if strings.Contains(list, "link.sprt.json") {
		t.Error("the list follows a link to a state file")
	}
	for _, tc := range []struct{ file, says string }{
		{"live.sprt.json", `id="run-state">in progress<`},
		{"killed.sprt.json", `id="run-state">stopped<`},
		{"killed.sprt.json", "has ended without a verdict"},
		{"done.sprt.json", `id="run-state">finished<`},
		{"done.sprt.json", "H1 accepted"},
		{"garbage.sprt.json", "not an evotune sprt state file"},
		{"huge.sprt.json", "too large"},
	} {
		status, page := get(t, ts, "/sprt?t=0/"+tc.file)
		if status != 200 || !strings.Contains(page, tc.says) {
			t.Errorf("%s: %d, want a page saying %q", tc.file, status, tc.says)
		}
	}
	if status, page := get(t, ts, "/sprt?t=0/link.sprt.json"); status != 403 || strings.Contains(page, "H1 accepted") {
		t.Errorf("a link to a state file outside: %d, want 403", status)
	}
	if status, _ := get(t, ts, "/sprt?t=0/fifo.sprt.json"); status != 404 {
		t.Errorf("a FIFO named as a state file: %d, want 404", status)
	}
	if strings.Contains(list, "fifo.sprt.json") {
		t.Error("the list shows a FIFO as a test")
	}
	if status, _ := get(t, ts, "/run?r=0/done.sprt.json"); status != 404 {
		t.Errorf("a state file as a run: %d, want 404", status)
	}
}

// TestBrowserFollowsAnSPRT: the page of a test in progress draws its
// LLR after each batch against its two bounds, and gains the batches its
// file gains (replaced whole, as sprt --output writes it) without a
// reload.
func TestBrowserFollowsAnSPRT(t *testing.T) {
	ctx := newBrowser(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "classic-greedy.sprt.json")
	llrs := []float64{0.61, 1.34, 0.98}
	if err := sprtfile.Write(path, sprtState(os.Getpid(), sprtfile.InProgress, llrs...)); err != nil {
		t.Fatal(err)
	}
	ts, _ := serve(t, "", dir)
	visit(t, ctx, ts.URL+"/sprt?t=0/classic-greedy.sprt.json", "#llr")
	pts, tol := linePoints(t, ctx, "llr", "LLR")
	checkLine(t, pts, tol, llrs)
	if got := eval[string](t, ctx, `document.querySelector('#card-llr .small').textContent`); got != "H0 accepted at -2.94, H1 at 2.94" {
		t.Errorf("the LLR card's bounds: %q", got)
	}
	eval[bool](t, ctx, `window.sameDocument = true`)
	llrs = append(llrs, 1.87, 2.52)
	if err := sprtfile.Write(path, sprtState(os.Getpid(), sprtfile.InProgress, llrs...)); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, time.Minute, chromedp.Poll[bool](fmt.Sprintf(`+document.getElementById('llr').dataset.n === %d`, len(llrs)),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
	if !eval[bool](t, ctx, `window.sameDocument === true && +document.body.dataset.refreshed >= 1`) {
		t.Fatal("the page was reloaded, or did not update its content itself")
	}
	pts, tol = linePoints(t, ctx, "llr", "LLR")
	checkLine(t, pts, tol, llrs)
	screenshot(t, ctx, "sprt")
}

// TestBrowserShowsAModelsStepSize: a CMA-ES run's page draws its step
// size, and an SPSA run's its perturbation size c_k, generation by
// generation, as the model rebuilt from the checkpoint measures it; a
// generational run's has no such panel.
func TestBrowserShowsAModelsStepSize(t *testing.T) {
	ctx := newBrowser(t)
	runs := t.TempDir()
	finishedRun(t, runs, "generational", liteConfig)
	ts, _ := serve(t, "", runs)
	for _, tc := range []struct{ model, title string }{
		{"cmaes", "CMA-ES step size by generation"},
		{"spsa", "SPSA perturbation c_k by generation"},
	} {
		text := strings.Replace(liteConfig, "  model: generational\n", "  model: "+tc.model+"\n", 1)
		text = strings.Replace(text, "  elitism: 2\n", "", 1)
		dir, _ := finishedRun(t, runs, tc.model, text)
		ck, cfg, err := engine.ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer cfg.Close()
		want, ok, err := cfg.ModelSpread(ck)
		if err != nil || !ok || len(want.RMS) != 6 {
			t.Fatalf("%s: the run's spread: %+v, %v, %v", tc.model, want, ok, err)
		}
		visit(t, ctx, ts.URL+"/run?r=0/"+tc.model, "#s0-spread")
		for name, ys := range map[string][]float64{"root mean square over genes": want.RMS, "smallest gene's": want.Min, "largest gene's": want.Max} {
			pts, tol := linePoints(t, ctx, "s0-spread", name)
			checkLine(t, pts, tol, ys)
		}
		if got := eval[string](t, ctx, `document.querySelector('#s0-spread-panel h2').textContent`); got != tc.title {
			t.Errorf("%s: the panel's title: %q", tc.model, got)
		}
		screenshot(t, ctx, tc.model)
	}
	visit(t, ctx, ts.URL+"/run?r=0/generational", "#s0-fitness")
	if eval[bool](t, ctx, `!!document.getElementById('s0-spread-panel')`) {
		t.Error("a generational run has a step-size panel")
	}
}
