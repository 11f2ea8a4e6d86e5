package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
)

// liteConfig is the quickstart made small: a finished run in well under
// a second, with a remeasure so the fresh figures show.
const liteConfig = `name: lite
seed: 1
game: battleship
player: tuned
seeds:
  - {}
fitness:
  objective: shots
  baselines:
    opponents: [random]
    games: 40
evolution:
  model: generational
  population: 8
  generations: 6
  elitism: 2
remeasure:
  top: 2
  games: 60
`

// finishedRun runs config text to its end in dir/name and returns the
// run directory and its checkpoint.
func finishedRun(t testing.TB, dir, name, text string) (string, *engine.Checkpoint) {
	t.Helper()
	cfgFile := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(cfgFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.Load(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	run := filepath.Join(dir, name)
	if _, err := engine.Start(context.Background(), cfg, engine.Options{Dir: run, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ck, _, err := engine.ReadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	return run, ck
}

// serve starts the dashboard over dirs on a loopback port.
func serve(t testing.TB, token string, dirs ...string) (*httptest.Server, *Server) {
	t.Helper()
	s, err := New(dirs, token)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { s.Close(); ts.Close() })
	return ts, s
}

// get fetches path from ts and returns the status and body.
func get(t testing.TB, ts *httptest.Server, path string, mod ...func(*http.Request)) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mod {
		m(req)
	}
	// A page that never ends (an event stream served where it should be
	// refused) fails the test instead of hanging it.
	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b []byte
	buf := make([]byte, 1<<16)
	for {
		n, err := res.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			break
		}
	}
	return res.StatusCode, string(b)
}
