package engine

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/evotune/evotune/rundir"
)

// TestJournalBeginLogsDamage: opening a generation's journal that holds
// damaged lines says how many, for the generation numbered from 1, and
// keeps the whole entries.
func TestJournalBeginLogsDamage(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	r := &runner{dir: dir, Setup: loadText(t, t.TempDir(), smallConfig), batchGames: 4, log: &log,
		now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	path := filepath.Join(dir, rundir.JournalFile)
	if err := r.beginJournal(2, nil, nil, 10); err != nil {
		t.Fatal(err)
	}
	r.journal.Append(1, []float64{1, 0})
	r.journal.Close()
	appendTo(t, path, "{garbage\n"+`{"batch":3,"results":[1`)
	if err := r.beginJournal(2, nil, nil, 10); err != nil {
		t.Fatal(err)
	}
	defer rundir.RemoveJournal(dir, r.journal)
	if want := "2026-01-02T03:04:05Z generation 3: 2 damaged journal lines ignored (a kill during a write)\n"; log.String() != want {
		t.Fatalf("run.log %q, want %q", log.String(), want)
	}
	if res, ok := r.journal.Lookup(1, 2); !ok || !slices.Equal(res, []float64{1, 0}) {
		t.Fatalf("batch 1 kept as %v, %v", res, ok)
	}
	if got := journalBatches(t, path); got != 1 {
		t.Fatalf("the rewritten journal holds %d batches, want 1", got)
	}
}

// idPool records the ID of every batch it plays.
type idPool struct {
	Pool
	ids []string
}

func (p *idPool) Play(ctx context.Context, w Wave) error {
	for _, b := range w.Batches {
		p.ids = append(p.ids, b.ID)
	}
	return p.Pool.Play(ctx, w)
}

// TestBatchIDs: a batch's ID is "<run>.<generation>.<index>", the run
// part 16 hex digits from the config's hash and the batch size: the same
// for two runs of one config, another for another batch size.
func TestBatchIDs(t *testing.T) {
	ids := func(batch int) []string {
		p := &idPool{Pool: LocalPool(2)}
		startText(t, smallConfig, Options{Dir: t.TempDir(), Pool: p, BatchGames: batch})
		return p.ids
	}
	a, b, c := ids(64), ids(64), ids(32)
	re := regexp.MustCompile(`^([0-9a-f]{16})\.(\d+)\.(\d+)$`)
	m := re.FindStringSubmatch(a[0])
	if m == nil || m[2] != "0" || m[3] != "0" {
		t.Fatalf("first batch ID %q", a[0])
	}
	if !slices.Equal(a, b) {
		t.Fatal("two runs of one config have other batch IDs")
	}
	if n := re.FindStringSubmatch(c[0]); n == nil || n[1] == m[1] {
		t.Fatalf("batches of 32 have IDs %q, of 64 %q: want another run part", c[0], a[0])
	}
	last := re.FindStringSubmatch(a[len(a)-1])
	if last[1] != m[1] || last[2] == "0" {
		t.Fatalf("last batch ID %q: want the run's part and a later generation", a[len(a)-1])
	}
}
