package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"
)

// TestUIRefusesBadUsage: an address beyond loopback without a token, an
// address that is not one and a directory that is not there are usage
// errors, before anything listens.
func TestUIRefusesBadUsage(t *testing.T) {
	t.Setenv(uiTokenEnv, "")
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"ui", t.TempDir(), "--addr", "0.0.0.0:0"}, "--token"},
		{[]string{"ui", t.TempDir(), "--addr", "nonsense"}, "HOST:PORT"},
		{[]string{"ui", filepath.Join(t.TempDir(), "absent")}, "absent"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.says) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", tc.args, code, errs, tc.says)
		}
	}
}

// TestUIServesUntilInterrupted: evotune ui prints its address, serves the
// runs under the directory given, asks for the token it was given, or
// for a random one it made and printed (another user of the machine
// reaches loopback too: without it, nothing), and ends with exit 130
// when interrupted.
func TestUIServesUntilInterrupted(t *testing.T) {
	runs := t.TempDir()
	dir := copyRun(t)
	if err := os.Rename(dir, filepath.Join(runs, "no-rivals")); err != nil {
		t.Fatal(err)
	}
	for _, token := range []string{"", "a-token-of-the-users-own-choice"} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errs proctest.Buffer
		done := make(chan ExitCode, 1)
		args := []string{"ui", runs, "--addr", "127.0.0.1:0"}
		if token != "" {
			args = append(args, "--token", token)
		}
		go func() { done <- dispatch(ctx, &env{stdout: &out, stderr: &errs}, args) }()
		var url string
		for deadline := time.Now().Add(30 * time.Second); url == ""; {
			if m := regexp.MustCompile(`http://\S+`).FindString(out.String()); m != "" {
				url = m
			} else if time.Now().After(deadline) {
				t.Fatalf("no address printed: %q %q", out.String(), errs.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		base := strings.SplitN(url, "?", 2)[0]
		res, err := http.Get(base)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized || strings.Contains(string(body), "no-rivals") {
			t.Errorf("token %q: GET %s without it: %d, want %d and no run", token, base, res.StatusCode, http.StatusUnauthorized)
		}
		if printed := strings.TrimPrefix(url[len(base):], "?token="); token != "" && printed != token || token == "" && len(printed) < 32 {
			t.Errorf("token %q: the address printed carries %q", token, printed)
		}
		jar, _ := cookiejar.New(nil)
		res, err = (&http.Client{Jar: jar}).Get(url) // the address printed carries the token, then a cookie
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "no-rivals") {
			t.Errorf("token %q: the address printed: %d, want the list with the run:\n%.300s", token, res.StatusCode, body)
		}
		cancel()
		select {
		case code := <-done:
			if code != ExitInterrupted {
				t.Errorf("exit %d after an interrupt, want 130: %s", code, errs.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatal("evotune ui did not stop")
		}
	}
}

// TestCompareCommand: two runs of one game, as text and JSON; one run and
// runs of two games are usage errors.
func TestCompareCommand(t *testing.T) {
	a, b := copyRun(t), copyRun(t)
	code, out, errs := run(t, "compare", a, b, "--games", "20", "--workers", "2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"battleship: the recommended bests of 2 runs", "vs random", "paired differences", a + " - " + b + " vs random: +0.00 [+0.00, +0.00] shots over 20 deals (no demonstrated difference)"} {
		if !strings.Contains(out, s) {
			t.Errorf("the report does not say %q:\n%s", s, out)
		}
	}
	checkTableText(t, out)
	// The fresh figures lead: measured here, then the run's own verdict
	// and its gain over its start; the figure that chose it comes last.
	if h := firstLineWith(out, "as selected"); !inOrder(h, "run", "vs random", "in its run: fresh", "fresh - start", "as selected") {
		t.Errorf("the table's columns: %q, want the fresh figures first", h)
	}
	code, out, errs = run(t, "compare", a, b, "--games", "20", "--json")
	if code != ExitOK {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var doc struct {
		Runs  []struct{ Dir string } `json:"runs"`
		Diffs []struct {
			Difference float64 `json:"difference"`
			Deals      int     `json:"deals"`
		} `json:"paired_differences"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Runs) != 2 || len(doc.Diffs) != 1 || doc.Diffs[0].Deals != 20 {
		t.Errorf("--json: %v %+v\n%s", err, doc, out)
	}
	if code, _, errs := run(t, "compare", a); code != ExitUsage || !strings.Contains(errs, "two or more") {
		t.Errorf("one run: exit %d, %s", code, errs)
	}
	mnk := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "mnk.yaml")
	if err := os.WriteFile(cfg, []byte("game: mnk\nplayer: tuned\nfitness:\n  baselines: {games: 2, opponents: [random]}\nevolution:\n  population: 3\n  generations: 1\n  tournament-size: 2\n  elitism: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "run", cfg, "--out", mnk, "--quiet"); code != ExitOK {
		t.Fatalf("mnk run: %s", errs)
	}
	if code, _, errs := run(t, "compare", a, mnk, "--games", "2"); code != ExitUsage || !strings.Contains(errs, "do not compare") {
		t.Errorf("two games: exit %d, %s", code, errs)
	}
}

// checkTableText fails for a line that ends in a space, or an interval
// whose figures are written to different precisions.
func checkTableText(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimRight(l, " ") != l {
			t.Errorf("a line ends in spaces: %q", l)
		}
	}
	for _, m := range intervalPattern.FindAllStringSubmatch(out, -1) {
		if d := decimals(m[1]); d != decimals(m[2]) || d != decimals(m[3]) {
			t.Errorf("an interval of mixed precision: %q", m[0])
		}
	}
}

var intervalPattern = regexp.MustCompile(`([-+]?[0-9.]+) \[([-+]?[0-9.]+), ([-+]?[0-9.]+)\]`)

func decimals(s string) int {
	if _, frac, ok := strings.Cut(s, "."); ok {
		return len(frac)
	}
	return 0
}

func firstLineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// inOrder reports whether s holds each of words, in that order.
func inOrder(s string, words ...string) bool {
	at := 0
	for _, w := range words {
		i := strings.Index(s[at:], w)
		if i < 0 {
			return false
		}
		at += i + len(w)
	}
	return true
}

// TestCompareEveryRunThatRuns: compare takes the runs the other commands
// take: an outside solo game of one role (no opponent: the game alone),
// and a player with settings (tuned@depth=2); neither panics nor is
// refused.
func TestCompareEveryRunThatRuns(t *testing.T) {
	dir := t.TempDir()
	mnk := filepath.Join(dir, "mnk.yaml")
	if err := os.WriteFile(mnk, []byte("game: mnk\nplayer: tuned@depth=2\nfitness:\n  baselines: {games: 4, opponents: [random]}\nevolution:\n  population: 3\n  generations: 1\n  tournament-size: 2\n  elitism: 1\nremeasure: {top: 2, games: 20}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, config, want string
	}{
		{"solo game of one role", rawbotConfig(t, dir, nil, ""), "vs (no opponent)"},
		{"player with settings", mnk, "vs random"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One run and a copy of it: two runs of one game, played once.
			a := filepath.Join(t.TempDir(), "run")
			if code, _, errs := run(t, "run", tc.config, "--out", a, "--quiet", "--workers", "1"); code != ExitOK {
				t.Fatalf("run: exit %d: %s", code, errs)
			}
			b := filepath.Join(t.TempDir(), "copy")
			if err := os.CopyFS(b, os.DirFS(a)); err != nil {
				t.Fatal(err)
			}
			code, out, errs := run(t, "compare", "--games", "20", "--workers", "1", a, b)
			if code != ExitOK {
				t.Fatalf("compare: exit %d: %s", code, errs)
			}
			if !strings.Contains(out, tc.want) || !strings.Contains(out, "paired differences") {
				t.Errorf("compare does not say %q, or the paired differences:\n%s", tc.want, out)
			}
			checkTableText(t, out)
		})
	}
}
