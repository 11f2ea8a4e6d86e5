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
	for _, s := range []string{"battleship: the recommended bests of 2 runs", "vs random", "paired differences", a + " - " + b + " vs random: +0 [+0, +0] shots over 20 deals (no demonstrated difference)"} {
		if !strings.Contains(out, s) {
			t.Errorf("the report does not say %q:\n%s", s, out)
		}
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
