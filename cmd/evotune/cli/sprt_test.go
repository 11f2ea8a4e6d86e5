package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/internal/proctest"
)

// sprtJSON is what these tests read of sprt --json.
type sprtJSON struct {
	Verdict string
	Games   int
	LLR     float64
	Pairs   [5]int `json:"pentanomial"`
	Score   struct {
		Value float64
		CI95  [2]float64
	}
	Difference struct {
		Value float64
		CI95  [2]float64
		N     int
	}
	Batches []struct {
		Games int
		LLR   float64
	}
}

func sprtRun(t *testing.T, want ExitCode, args ...string) (sprtJSON, string) {
	t.Helper()
	code, out, errs := run(t, append([]string{"sprt"}, args...)...)
	if code != want {
		t.Fatalf("sprt %s: exit %d (%v), want %d (%v)\n%s%s", strings.Join(args, " "), code, code, want, want, out, errs)
	}
	var rep sprtJSON
	if strings.Contains(strings.Join(args, " "), "--json") {
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("sprt --json: %v\n%s", err, out)
		}
	}
	return rep, out
}

// TestSPRTVerdicts: each verdict has its exit code, and the figures the
// test ends on are eval's on the same deals (the same --seed and games).
func TestSPRTVerdicts(t *testing.T) {
	mnk := []string{"mnk", "--player", "classic", "--vs", "greedy", "--batch", "40", "--seed", "5", "--json"}
	h1, _ := sprtRun(t, ExitOK, append(mnk, "--elo1", "50")...)
	if h1.Verdict != "H1 accepted" || h1.LLR < 2.94 || h1.Games%40 != 0 {
		t.Fatalf("classic, far stronger than greedy, against bounds 0 and 50: %+v", h1)
	}
	// The bounds crossed only at the last batch.
	for _, b := range h1.Batches[:len(h1.Batches)-1] {
		if b.LLR >= 2.94 || b.LLR <= -2.94 {
			t.Fatalf("a bound crossed at %d games, but the test went on: %+v", b.Games, h1.Batches)
		}
	}
	code, out, errs := run(t, "eval", "mnk", "--player", "classic", "--vs", "greedy", "--games", itoa(h1.Games), "--seed", "5", "--json")
	if code != ExitOK {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	var ev struct {
		Matches []struct {
			Score float64
			CI95  [2]float64
			Pairs [5]int `json:"pentanomial"`
		}
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	if m := ev.Matches[0]; m.Pairs != h1.Pairs || m.Score != h1.Score.Value || m.CI95 != h1.Score.CI95 {
		t.Errorf("sprt ended on %v, score %v %v; eval of the same games says %v, %v %v", h1.Pairs, h1.Score.Value, h1.Score.CI95, m.Pairs, m.Score, m.CI95)
	}
	h0, _ := sprtRun(t, ExitH0, append(mnk, "--elo0", "300", "--elo1", "400")...)
	if h0.Verdict != "H0 accepted" || h0.LLR > -2.94 {
		t.Fatalf("classic against bounds 300 and 400 Elo: %+v", h0)
	}
	capped, _ := sprtRun(t, ExitInconclusive, append(mnk, "--elo1", "50", "--max-games", "40")...)
	if capped.Verdict != "no verdict" || capped.Games != 40 || len(capped.Batches) != 1 {
		t.Fatalf("capped at 40 games: %+v", capped)
	}
	// Solo: over9000 needs some 11 shots fewer than bob on the same deals.
	solo, text := sprtRun(t, ExitOK, "battleship", "--player", "over9000", "--vs", "bob", "--diff1", "-1", "--batch", "20")
	if !strings.Contains(text, "H1 accepted: the mean of over9000 - bob in shots is nearer -1 (H1) than 0 (H0) after ") {
		t.Errorf("solo verdict:\n%s", text)
	}
	_ = solo
	solo, _ = sprtRun(t, ExitH0, "battleship", "--player", "bob", "--vs", "over9000", "--diff1", "-1", "--batch", "20", "--json")
	if solo.Difference.N != solo.Games || solo.Difference.CI95[0] < 5 {
		t.Errorf("bob - over9000: %+v", solo.Difference)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSPRTIndependentOfWorkers: decisions are taken at batch boundaries
// in seed order, so the whole output is the same at 1, 2 or 3 workers.
func TestSPRTIndependentOfWorkers(t *testing.T) {
	for _, args := range [][]string{
		{"mnk", "--rule", "m=4", "--rule", "n=4", "--rule", "k=3", "--player", "classic", "--vs", "random", "--elo1", "30", "--batch", "10"},
		{"battleship", "--player", "over9000", "--vs", "tuned", "--diff1", "-0.5", "--batch", "15", "--max-games", "90"},
	} {
		var first string
		for _, w := range []string{"1", "2", "3"} {
			code, out, errs := run(t, append(append([]string{"sprt"}, args...), "--workers", w)...)
			if code == ExitFailure || code == ExitUsage {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if first == "" {
				first = out
			} else if out != first {
				t.Fatalf("--workers %s differs from --workers 1:\n%s\n%s", w, out, first)
			}
		}
	}
}

func TestSPRTRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mnk", "--player", "classic"}, "give --player A and --vs B"},
		{[]string{"mnk", "--player", "classic", "--vs", "greedy", "--elo0", "5"}, "--elo0 and --elo1 are both 5"},
		{[]string{"mnk", "--player", "classic", "--vs", "greedy", "--batch", "3"}, "want an even number"},
		{[]string{"mnk", "--player", "classic", "--vs", "greedy", "--alpha", "0.7"}, "--alpha 0.7"},
		{[]string{"mnk", "--player", "classic", "--vs", "greedy", "--max-games", "10"}, "--max-games 10"},
		{[]string{"mnk", "--player", "classic", "--vs", "greedy", "--elo-model", "bayes"}, "--elo-model"},
		{[]string{"battleship", "--player", "over9000", "--vs", "bob"}, "give bounds on the mean of A - B in shots"},
		{[]string{"battleship", "--player", "over9000", "--vs", "bob", "--head-to-head", "--diff1", "-1"}, "--diff0 and --diff1 bound a solo test"},
	} {
		code, out, errs := run(t, append([]string{"sprt"}, tc.args...)...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("sprt %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}

// TestSPRTInterruptedAndRunAgain: an outside program's tuned:FILE player
// against its fair coin. Ctrl-C during the test exits 130; the same
// command run again ends exactly as a test that was never interrupted,
// at 1 worker or 3.
func TestSPRTInterruptedAndRunAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	dir := t.TempDir()
	bin := coinbotCopy(t, dir)
	params := filepath.Join(dir, "heavier.yaml")
	if err := os.WriteFile(params, []byte("bias: 0.6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// bias 0.6 against 0.5 scores 6/11: +32 Elo, between the bounds, so
	// the test takes many batches.
	args := []string{"sprt", "coin", "--command", bin, "--player", "tuned:" + params, "--vs", "fair",
		"--elo0", "0", "--elo1", "40", "--batch", "20", "--workers", "2"}
	slow := func(cmd *exec.Cmd) *exec.Cmd {
		cmd.Env = append(cmd.Env, "COINBOT_SLOW=2ms")
		return cmd
	}
	state := filepath.Join(dir, "coin.sprt.json")
	cmd := slow(evotune(append(args, "--output", state)...))
	var stdout proctest.Buffer
	var errb strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The header, then the first batch.
	proctest.WaitFor(t, "the first batch's line", func() bool { return strings.Count(stdout.String(), "\n") >= 2 })
	first := len(stdout.String())
	// The state file is written before the batch line is printed.
	if st, err := sprtfile.Read(state); err != nil || st.State != sprtfile.InProgress || len(st.Batches) < 1 || st.PID != cmd.Process.Pid {
		t.Fatalf("after the first batch, --output holds %+v (%v), want the test in progress", st, err)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	err := waitOrKill(t, cmd)
	rest := stdout.String()[first:]
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted) {
		t.Fatalf("interrupted: %v, stderr %q, stdout after the first batch %q; want exit 130", err, errb.String(), rest)
	}
	if strings.Contains(rest, "accepted") {
		t.Fatalf("an interrupted test gave a verdict: %s", rest)
	}
	if st, err := sprtfile.Read(state); err != nil || st.State != sprtfile.Stopped || st.Verdict != "" {
		t.Fatalf("after Ctrl-C, --output holds %+v (%v), want the test stopped without a verdict", st, err)
	}
	var outs []string
	for _, w := range []string{"2", "1", "3"} {
		a := append(args[:len(args)-1:len(args)-1], w)
		if w == "2" {
			a = append(a, "--output", state)
		}
		var out, errb strings.Builder
		cmd := slow(evotune(a...))
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := runWatched(t, cmd)
		if err != nil {
			if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitH0) {
				t.Fatalf("--workers %s: %v: %s", w, err, errb.String())
			}
		}
		outs = append(outs, out.String())
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Fatalf("the run after Ctrl-C and runs at 1 and 3 workers differ:\n%s\n%s\n%s", outs[0], outs[1], outs[2])
	}
	if !strings.Contains(outs[0], "accepted") || strings.Count(outs[0], "\n") < 4 {
		t.Fatalf("want a verdict after several batches:\n%s", outs[0])
	}
	// --output ends on the verdict, every batch's LLR as printed.
	st, err := sprtfile.Read(state)
	if err != nil || st.State != sprtfile.Finished || !strings.Contains(outs[0], st.Verdict+":") || st.Estimate == nil {
		t.Fatalf("--output after the test: %+v (%v)", st, err)
	}
	for _, b := range st.Batches {
		if !strings.Contains(outs[0], fmt.Sprintf("%d games: LLR %+.2f [", b.Games, b.LLR)) {
			t.Errorf("--output's batch at %d games, LLR %+.2f, is not a line printed:\n%s", b.Games, b.LLR, outs[0])
		}
	}
	if last := st.Batches[len(st.Batches)-1]; last.Games != st.Games || last.LLR != st.LLR || strings.Count(outs[0], " games: LLR ") != len(st.Batches) {
		t.Errorf("--output has %d batches ending at %+v; the test printed %d and ended at %d games, LLR %v", len(st.Batches), last, strings.Count(outs[0], " games: LLR "), st.Games, st.LLR)
	}
	// and refuses to replace a file that is not a test's state.
	code, _, errs := run(t, append(args, "--output", params)...)
	if code != ExitUsage || !strings.Contains(errs, "is not an evotune sprt state file") {
		t.Errorf("--output over a parameter file: exit %d, %s", code, errs)
	}
}

// TestSPRTSequentialEstimate: a test that stops says A's Elo allowing
// for where it stopped (fishtest's estimate), which sits on the far side
// of the pairs' own figure from the bound it crossed: below it after a
// pass, above it after a fail; --json holds it with its interval.
func TestSPRTSequentialEstimate(t *testing.T) {
	type est struct {
		Value float64
		CI95  [2]float64
	}
	var rep struct {
		Verdict    string
		Elo        est
		Sequential struct {
			Elo est
			LOS float64
		}
	}
	mnk := []string{"sprt", "mnk", "--player", "classic", "--vs", "greedy", "--batch", "40", "--seed", "5"}
	for _, tc := range []struct {
		bounds  []string
		code    ExitCode
		verdict string
		below   bool // the sequential estimate below the pairs' own
	}{
		{[]string{"--elo1", "50"}, ExitOK, "H1 accepted", true},
		{[]string{"--elo0", "300", "--elo1", "400"}, ExitH0, "H0 accepted", false},
	} {
		code, out, errs := run(t, append(append(mnk, tc.bounds...), "--json")...)
		if code != tc.code {
			t.Fatalf("%v: exit %d: %s", tc.bounds, code, errs)
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		q := rep.Sequential.Elo
		if rep.Verdict != tc.verdict || !(q.CI95[0] < q.Value && q.Value < q.CI95[1]) || (q.Value < rep.Elo.Value) != tc.below ||
			!(rep.Sequential.LOS > 0.9 && rep.Sequential.LOS <= 1) {
			t.Errorf("%v: %s, Elo %+v, sequential %+v", tc.bounds, rep.Verdict, rep.Elo, rep.Sequential)
		}
		_, text, _ := run(t, append(mnk, tc.bounds...)...)
		if !strings.Contains(text, "  logistic Elo allowing for where the test stopped (fishtest's estimate): "+formatElo(stats.Estimate{Value: q.Value, CI95: q.CI95})) ||
			!strings.Contains(text, "which leans towards the bound the test crossed)") {
			t.Errorf("%v: the verdict does not give the estimate:\n%s", tc.bounds, text)
		}
	}
}
