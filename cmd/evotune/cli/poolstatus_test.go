package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/cmd/evotune/dashboard"
	"github.com/evotune/evotune/engine"
)

// slowPool finishes a wave's batches one by one, a tick apart.
type slowPool struct{ tick time.Duration }

func (p slowPool) Play(ctx context.Context, w engine.Wave) error {
	for _, b := range w.Batches {
		time.Sleep(p.tick)
		w.Done(b, engine.Played{})
	}
	return nil
}

// TestStatusPoolWritesLines: while a wave is played the coordinator's
// status goes to run.log as lines the dashboard reads, the last one when
// the wave ends, with every batch done; the wave's own Done still sees
// every batch.
func TestStatusPoolWritesLines(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "run.log")
	workers := -1
	s := &statusPool{inner: slowPool{tick: 20 * time.Millisecond}, connected: func() int { return workers }, log: log, every: 15 * time.Millisecond,
		now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	batches := make([]*engine.Batch, 6)
	for i := range batches {
		batches[i] = &engine.Batch{Index: i}
	}
	seen := 0
	if err := s.Play(context.Background(), engine.Wave{Batches: batches, Done: func(*engine.Batch, engine.Played) { seen++ }}); err != nil {
		t.Fatal(err)
	}
	workers = 3
	if err := s.Play(context.Background(), engine.Wave{Batches: batches[:2], Done: func(*engine.Batch, engine.Played) { seen++ }}); err != nil {
		t.Fatal(err)
	}
	if seen != 8 {
		t.Errorf("the wave saw %d batches done, want 8", seen)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 3 {
		t.Fatalf("%d lines:\n%s", len(lines), data)
	}
	for _, want := range []string{
		"2026-01-02T03:04:05Z workers: unknown connected; batches: 0 in flight, 6 of 6 done",
		"2026-01-02T03:04:05Z workers: 3 connected; batches: 0 in flight, 2 of 2 done",
	} {
		if !strings.Contains(string(data), want+"\n") {
			t.Errorf("run.log lacks %q:\n%s", want, data)
		}
	}
	if !strings.Contains(lines[0], " in flight, ") || strings.Contains(lines[0], "6 of 6") {
		t.Errorf("no line while the wave was played: %q", lines[0])
	}
}

// TestDashboardShowsCoordinatorStatus: a run played through its own queue
// (--serve with --play, no other worker) writes its status lines, and the
// dashboard's page of the run shows its workers' panel from them.
func TestDashboardShowsCoordinatorStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds a NATS server")
	}
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, []byte("name: q\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 20}\nevolution:\n  population: 4\n  generations: 2\n  tournament-size: 2\n  elitism: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := t.TempDir()
	dir := filepath.Join(runs, "q")
	if code, _, errs := run(t, "run", cfg, "--out", dir, "--serve", freeAddr(t), "--play", "2", "--quiet"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(filepath.Join(dir, "run.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), " workers: ") || !strings.Contains(string(data), " done\n") {
		t.Fatalf("run.log has no status line:\n%s", data)
	}
	srv, err := dashboard.New([]string{runs}, "")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer func() { srv.Close(); ts.Close() }()
	res, err := http.Get(ts.URL + "/run?r=0/q")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `id="workers-panel"`) || !strings.Contains(string(body), "redelivered: not recorded") {
		t.Errorf("the page has no workers panel:\n%s", body)
	}
}
