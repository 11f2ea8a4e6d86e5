package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/rundir"
)

// sprtReportJSON is what these tests read of sprt --json: what the test
// was and where it ended.
type sprtReportJSON struct {
	Alpha, Beta float64
	Bounds      [2]float64
	H0, H1      float64
	Verdict     string
	Games       int
	LLR         float64
	Pairs       *stats.Pentanomial `json:"pentanomial"`
	Elo         *stats.Estimate
	Difference  *stats.Estimate
	Sequential  *stats.Sequential
	Batches     []sprtfile.Batch
}

func sprtJSONRun(t *testing.T, want ExitCode, args ...string) sprtReportJSON {
	t.Helper()
	code, out, errs := run(t, append(append([]string{"sprt"}, args...), "--json")...)
	if code != want {
		t.Fatalf("sprt %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out, errs)
	}
	var rep sprtReportJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("sprt %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
	return rep
}

// batchGames lists the games at each batch's end.
func batchGames(bs []sprtfile.Batch) []int {
	var out []int
	for _, b := range bs {
		out = append(out, b.Games)
	}
	return out
}

// checkCrossing fails t unless the test stopped at the first batch whose
// LLR crossed a bound, with that bound's verdict, or at the cap with no
// bound crossed.
func checkCrossing(t *testing.T, rep sprtReportJSON, maxGames int) {
	t.Helper()
	lo, hi := rep.Bounds[0], rep.Bounds[1]
	for i, b := range rep.Batches {
		crossed := b.LLR <= lo || b.LLR >= hi
		last := i == len(rep.Batches)-1
		switch {
		case crossed && !last:
			t.Fatalf("the LLR %v crossed [%v, %v] at %d games, but the test went on: %+v", b.LLR, lo, hi, b.Games, rep.Batches)
		case last && b.LLR >= hi && rep.Verdict != "H1 accepted",
			last && b.LLR <= lo && rep.Verdict != "H0 accepted",
			last && !crossed && (rep.Verdict != "no verdict" || b.Games != maxGames):
			t.Fatalf("ended at %d games, LLR %v in [%v, %v]: %q", b.Games, b.LLR, lo, hi, rep.Verdict)
		}
	}
	if last := rep.Batches[len(rep.Batches)-1]; last.Games != rep.Games || last.LLR != rep.LLR {
		t.Fatalf("the last batch %+v is not where the test ended (%d games, LLR %v)", last, rep.Games, rep.LLR)
	}
}

// TestSPRTOfAPlayerAgainstItself: an export that never moved from its
// start, tested against the player it started from, plays every deal
// alike: every paired difference 0, an LLR that was -Inf. Text mode said
// H0; --json and --output crashed (json: unsupported value: -Inf, exit
// 1, no document, the state file left "in progress" with 0 games). Now
// every mode says H0 after the first batch, the LLR a number far below
// its bound, and the state file ends finished.
func TestSPRTOfAPlayerAgainstItself(t *testing.T) {
	state := filepath.Join(t.TempDir(), "self"+sprtfile.Suffix)
	args := []string{"battleship", "--player", "over9000", "--vs", "tuned", "--diff1", "-1", "--batch", "20"}
	rep := sprtJSONRun(t, ExitH0, append(args, "--output", state)...)
	if rep.Verdict != "H0 accepted" || rep.Games != 20 || !(rep.LLR < rep.Bounds[0]) || math.IsInf(rep.LLR, 0) ||
		rep.Difference == nil || rep.Difference.Value != 0 || rep.Difference.N != 20 {
		t.Fatalf("a player against itself: %+v", rep)
	}
	st, err := sprtfile.Read(state)
	if err != nil || st.State != sprtfile.Finished || st.Verdict != "H0 accepted" || st.Games != 20 || st.LLR != rep.LLR {
		t.Fatalf("--output: %+v, %v; want the test finished on H0 after 20 deals", st, err)
	}
	code, out, errs := run(t, append([]string{"sprt"}, args...)...)
	if code != ExitH0 || !strings.Contains(out, "H0 accepted: the mean of over9000 - tuned in shots is nearer 0 (H0) than -1 (H1) after 20 deals") {
		t.Fatalf("text: exit %d\n%s%s", code, out, errs)
	}
	// H1 at 0 and H0 above it: the same deals accept H1.
	rep = sprtJSONRun(t, ExitOK, "battleship", "--player", "over9000", "--vs", "tuned", "--diff0", "0.5", "--diff1", "0", "--batch", "20")
	if rep.Verdict != "H1 accepted" || rep.Games != 20 || !(rep.LLR > rep.Bounds[1]) || math.IsInf(rep.LLR, 0) {
		t.Fatalf("a player against itself, H1 at 0: %+v", rep)
	}
	// One deal has a difference but no interval: --json leaves the
	// estimate out instead of failing on its infinite ends.
	rep = sprtJSONRun(t, ExitInconclusive, "battleship", "--player", "good", "--vs", "bob", "--diff1", "-1", "--batch", "1", "--max-games", "1")
	if rep.Games != 1 || rep.Difference != nil || rep.Verdict != "no verdict" {
		t.Fatalf("one deal: %+v", rep)
	}
	// One pair head to head has finite figures: they stay.
	rep = sprtJSONRun(t, ExitInconclusive, "mnk", "--player", "classic", "--vs", "greedy", "--batch", "2", "--max-games", "2")
	if rep.Games != 2 || rep.Pairs == nil || rep.Pairs.Pairs() != 1 || rep.Elo == nil || rep.Elo.N != 1 {
		t.Fatalf("one pair: %+v", rep)
	}
}

// TestSPRTErrorRatesSetTheBounds: alpha is the chance of accepting H1
// when H0 holds and sets the upper bound, beta the lower; every test
// before used alpha = beta, so swapping them passed. With alpha 0.2 and
// beta 0.01 the bounds are ln(0.01/0.8) and ln(0.99/0.2), the test goes
// on until the first batch that crosses one, and what --json, the state
// file and the sequential estimate say is computed with the two in their
// places.
func TestSPRTErrorRatesSetTheBounds(t *testing.T) {
	const alpha, beta = 0.2, 0.01
	lo, hi := math.Log(beta/(1-alpha)), math.Log((1-beta)/alpha)
	state := filepath.Join(t.TempDir(), "bounds"+sprtfile.Suffix)
	for _, tc := range []struct {
		name string
		args []string
		code ExitCode
	}{
		// mediocre is some 15 shots worse than good: the LLR falls about
		// 1.2 a batch of 40, so the lower bound, at -4.38, takes four
		// batches; swapped (-1.60), it would take two.
		{"solo", []string{"battleship", "--player", "mediocre", "--vs", "good", "--diff1", "-1", "--batch", "40"}, ExitH0},
		// classic is far stronger than greedy: the upper bound, 1.60,
		// comes first; swapped (4.38), it would come later.
		{"head to head", []string{"mnk", "--player", "classic", "--vs", "greedy", "--elo1", "40", "--batch", "10", "--seed", "5"}, ExitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(tc.args, "--alpha", fmt.Sprint(alpha), "--beta", fmt.Sprint(beta), "--output", state)
			rep := sprtJSONRun(t, tc.code, args...)
			if rep.Alpha != alpha || rep.Beta != beta || !nearly(rep.Bounds[0], lo) || !nearly(rep.Bounds[1], hi) {
				t.Fatalf("alpha %v, beta %v, bounds %v; want %v, %v, [%v, %v]", rep.Alpha, rep.Beta, rep.Bounds, alpha, beta, lo, hi)
			}
			checkCrossing(t, rep, 100_000)
			if len(rep.Batches) < 2 {
				t.Fatalf("decided at the first batch: %+v; the test cannot tell the bounds apart", rep.Batches)
			}
			st, err := sprtfile.Read(state)
			if err != nil || st.Alpha != alpha || st.Beta != beta || st.Bounds != rep.Bounds || st.Verdict != rep.Verdict {
				t.Fatalf("--output: %+v, %v", st, err)
			}
			if rep.Pairs != nil {
				want, ok := stats.SPRT{Alpha: alpha, Beta: beta, Elo0: rep.H0, Elo1: rep.H1}.Sequential(*rep.Pairs)
				if !ok || rep.Sequential == nil || rep.Sequential.Elo != want.Elo || rep.Sequential.LOS != want.LOS {
					t.Fatalf("sequential estimate %+v, want %+v (the test's own error rates)", rep.Sequential, want)
				}
			}
			code, out, _ := run(t, append([]string{"sprt"}, args[:len(args)-2]...)...) // without --output
			if code != tc.code || !strings.Contains(out, fmt.Sprintf("alpha %g, beta %g; LLR bounds [%.2f, %.2f]", alpha, beta, lo, hi)) ||
				!strings.Contains(out, fmt.Sprintf("bounds [%.2f, %.2f], alpha %g, beta %g", lo, hi, alpha, beta)) {
				t.Fatalf("text: exit %d\n%s", code, out)
			}
		})
	}
}

func nearly(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestSPRTMaxGamesIsACap: --max-games is the most games a test plays,
// whether or not it is a multiple of --batch (the last batch is cut
// short): a test that has not decided by then ends without a verdict,
// exit 4, even where one more batch would have decided; one that decides
// on its last batch says so. Every test before used a multiple of the
// batch, so a cap overshot by a batch passed.
func TestSPRTMaxGamesIsACap(t *testing.T) {
	// mediocre against good, batches of 40: LLR -1.25, -2.40, then -3.05
	// at 100 deals, past the lower bound -2.94.
	solo := []string{"battleship", "--player", "mediocre", "--vs", "good", "--diff1", "-1", "--batch", "40"}
	for _, tc := range []struct {
		name    string
		args    []string
		max     int
		code    ExitCode
		verdict string
		batches []int
	}{
		{"solo, no verdict by the cap", solo, 80, ExitInconclusive, "no verdict", []int{40, 80}},
		{"solo, the cap inside a batch", solo, 95, ExitInconclusive, "no verdict", []int{40, 80, 95}},
		{"solo, decided on the short last batch", solo, 100, ExitH0, "H0 accepted", []int{40, 80, 100}},
		{"solo, the cap one batch", solo, 40, ExitInconclusive, "no verdict", []int{40}},
		// classic against greedy from seed 1 decides at 50 games.
		{"head to head, the cap inside a batch", []string{"mnk", "--player", "classic", "--vs", "greedy", "--elo1", "60", "--batch", "10", "--seed", "1"},
			16, ExitInconclusive, "no verdict", []int{10, 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := sprtJSONRun(t, tc.code, append(tc.args, "--max-games", strconv.Itoa(tc.max))...)
			if rep.Verdict != tc.verdict || rep.Games != rep.Batches[len(rep.Batches)-1].Games || !slices.Equal(batchGames(rep.Batches), tc.batches) {
				t.Fatalf("--max-games %d: %s after %d games, batches at %v; want %s, batches at %v", tc.max, rep.Verdict, rep.Games, batchGames(rep.Batches), tc.verdict, tc.batches)
			}
			checkCrossing(t, rep, tc.max)
			switch {
			case rep.Difference != nil && rep.Difference.N != rep.Games:
				t.Fatalf("the difference is over %d deals, the test played %d", rep.Difference.N, rep.Games)
			case rep.Pairs != nil && rep.Pairs.Games() != rep.Games:
				t.Fatalf("the pairs hold %d games, the test played %d", rep.Pairs.Games(), rep.Games)
			}
		})
	}
}

// TestSPRTFlagsAtTheirBounds: each flag with a range is refused just past
// it and accepted at it.
func TestSPRTFlagsAtTheirBounds(t *testing.T) {
	mnk := []string{"mnk", "--rule", "m=3", "--rule", "n=3", "--rule", "k=3", "--player", "classic", "--vs", "greedy"}
	solo := []string{"battleship", "--player", "good", "--vs", "bob", "--diff1", "-1"}
	big := strconv.Itoa(maxEvalGames + 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--alpha", "0.5"}, "--alpha 0.5, --beta 0.05: want each above 0 and below 0.5"},
		{[]string{"--beta", "0.5"}, "--alpha 0.05, --beta 0.5: want each above 0 and below 0.5"},
		{[]string{"--alpha", "0"}, "--alpha 0, --beta 0.05"},
		{[]string{"--beta", "0"}, "--alpha 0.05, --beta 0"},
		{[]string{"--alpha", "-0.01"}, "--alpha -0.01"},
		{[]string{"--beta", "NaN"}, "--beta NaN"},
		{[]string{"--batch", "0"}, "--batch 0: want 1 to 10000000"},
		{[]string{"--batch", big, "--max-games", big}, "--batch " + big + ": want 1 to 10000000"},
		{[]string{"--batch", "10", "--max-games", "9"}, "--max-games 9: want --batch (10) to 10000000"},
		{[]string{"--max-games", big}, "--max-games " + big + ": want --batch (200) to 10000000"},
		{[]string{"--batch", "10", "--max-games", "21"}, "--max-games 21: want an even number"},
		{[]string{"--batch", "1", "--max-games", "2"}, "--batch 1: want an even number"},
		{[]string{"--workers", "-1"}, "--workers -1: want 0 (all cores) to 1024"},
		{[]string{"--workers", "1025"}, "--workers 1025: want 0 (all cores) to 1024"},
		{[]string{"--elo0", "5", "--elo1", "5"}, "--elo0 and --elo1 are both 5"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := run(t, append(append([]string{"sprt"}, mnk...), tc.args...)...)
			if code != ExitUsage || !strings.Contains(errs, tc.want) || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errs, tc.want)
			}
		})
	}
	for _, diffs := range [][]string{{"--diff0", "-1", "--diff1", "-1"}, {"--diff0", "-0.5", "--diff1", "-0.5"}} {
		code, out, errs := run(t, append([]string{"sprt", "battleship", "--player", "good", "--vs", "bob"}, diffs...)...)
		if code != ExitUsage || !strings.Contains(errs, "--diff0 and --diff1 apart") || out != "" {
			t.Errorf("%v: exit %d, stderr %q; want 2, the hypotheses apart", diffs, code, errs)
		}
	}
	// At the bounds: accepted, and the figures are the flags'.
	for _, tc := range []struct {
		name    string
		args    []string
		games   int
		batches int
	}{
		{"the least batch, the cap at it", append(slices.Clone(solo), "--batch", "1", "--max-games", "1"), 1, 1},
		{"alpha and beta just below a half", append(slices.Clone(solo), "--alpha", "0.4999", "--beta", "0.4999", "--batch", "2", "--max-games", "4"), 0, 0},
		{"head to head, the least batch", append(slices.Clone(mnk), "--batch", "2", "--max-games", "4"), 4, 2},
		{"tiny error rates", append(slices.Clone(solo), "--alpha", "1e-9", "--beta", "1e-9", "--batch", "3", "--max-games", "3"), 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, append(append([]string{"sprt"}, tc.args...), "--json")...)
			if code == ExitUsage || code == ExitFailure {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var rep sprtReportJSON
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			a, _ := strconv.ParseFloat(flagValue(tc.args, "--alpha", "0.05"), 64)
			b, _ := strconv.ParseFloat(flagValue(tc.args, "--beta", "0.05"), 64)
			if lo, hi := stats.WaldBounds(a, b); rep.Alpha != a || rep.Beta != b || rep.Bounds != [2]float64{lo, hi} {
				t.Fatalf("alpha %v beta %v bounds %v; want %v %v [%v, %v]", rep.Alpha, rep.Beta, rep.Bounds, a, b, lo, hi)
			}
			if tc.games > 0 && (rep.Games != tc.games || len(rep.Batches) != tc.batches) {
				t.Fatalf("%d games in %d batches, want %d in %d", rep.Games, len(rep.Batches), tc.games, tc.batches)
			}
		})
	}
}

// flagValue is the value of flag in args, else def.
func flagValue(args []string, flag, def string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return def
}

// TestSPRTOutputOfALiveTest: a state file that another test in progress
// is writing is refused (exit 1, naming its process), before any game:
// two tests on one --output overwrote each other without a word, and the
// first to end lost its end. A file whose test has ended, or whose
// process is gone (killed), is taken over.
func TestSPRTOutputOfALiveTest(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "shared"+sprtfile.Suffix)
	holder := exec.Command("sleep", "600")
	if err := holder.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() { _ = holder.Process.Kill(); _ = holder.Wait() }()
	lo, hi := stats.WaldBounds(0.05, 0.05)
	forged := &sprtfile.State{SPRT: sprtfile.Format, State: sprtfile.InProgress, PID: holder.Process.Pid,
		Test: sprtfile.Test{Game: "battleship", A: "good", B: "bob", Kind: "paired difference", H1: -1, Unit: "shots",
			Alpha: 0.05, Beta: 0.05, Bounds: [2]float64{lo, hi}, Seed: 1},
		MaxGames: 1000, Games: 40, LLR: -0.5, Batches: []sprtfile.Batch{{Games: 40, LLR: -0.5}}}
	if err := sprtfile.Write(state, forged); err != nil {
		t.Fatal(err)
	}
	args := []string{"sprt", "battleship", "--player", "good", "--vs", "bob", "--diff1", "-1", "--batch", "20", "--max-games", "40", "--output", state}
	code, out, errs := run(t, args...)
	if code != ExitFailure || out != "" || !strings.Contains(errs, fmt.Sprintf("the test of process %d is writing it; give another file", holder.Process.Pid)) ||
		strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Fatalf("--output of a live test: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if st, err := sprtfile.Read(state); err != nil || st.PID != holder.Process.Pid || st.Games != 40 {
		t.Fatalf("the live test's file was touched: %+v, %v", st, err)
	}
	// Its process gone (as after kill -9), the file is the next test's.
	_ = holder.Process.Kill()
	_ = holder.Wait()
	if code, _, errs := run(t, args...); code != ExitInconclusive {
		t.Fatalf("--output of a test whose process is gone: exit %d, %s", code, errs)
	}
	st, err := sprtfile.Read(state)
	if err != nil || st.State != sprtfile.Finished || st.PID != os.Getpid() || st.Games != 40 {
		t.Fatalf("after taking the file over: %+v, %v", st, err)
	}
	// Finished, it is anyone's.
	if code, _, errs := run(t, args...); code != ExitInconclusive {
		t.Fatalf("--output of a finished test: exit %d, %s", code, errs)
	}
	// Two tests started at once both find no live test in the file: the
	// second to take its lock (held beside it for as long as a test
	// writes it) is refused before it writes a byte.
	unlock, err := rundir.LockBeside(state)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(state)
	code, out, errs = run(t, args...)
	if code != ExitFailure || out != "" || !strings.Contains(errs, "another test is writing it; give another file") {
		t.Fatalf("--output whose lock another test holds: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if after, _ := os.ReadFile(state); string(after) != string(before) {
		t.Fatal("the refused test wrote the file")
	}
	unlock()
	if code, _, errs := run(t, args...); code != ExitInconclusive {
		t.Fatalf("--output once its lock is free: exit %d, %s", code, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside the state: %v", entries)
	}
}

// TestSPRTOutputInAMissingDirectory: --output into a directory that is
// not there is refused before any game (exit 2); it failed only once
// the game was open and the header printed, exit 1.
func TestSPRTOutputInAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "none", "t"+sprtfile.Suffix), "cannot create a file in " + filepath.Join(dir, "none") + ": no such file or directory"},
		{filepath.Join(file, "t"+sprtfile.Suffix), "cannot create a file in " + file + ": not a directory"},
		{filepath.Join(file, "deeper", "t"+sprtfile.Suffix), "cannot create a file in " + filepath.Join(file, "deeper") + ": not a directory"},
	} {
		code, out, errs := run(t, "sprt", "battleship", "--player", "good", "--vs", "bob", "--diff1", "-1", "--output", tc.path)
		if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("--output %s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.path, code, out, errs, tc.want)
		}
	}
}
