package natsqueue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// waveLimit bounds a wave of these tests: their jobs take milliseconds,
// so a wave still waiting after it waits for a result that will never
// come (a job refused or rejected and never queued again), and the test
// fails then, saying so, not at the test binary's deadline.
const waveLimit = 45 * time.Second

// testWorker is a play function and, when not nil, what it waits for
// before it starts.
type testWorker struct {
	play  PlayFunc
	after <-chan struct{}
}

// playWave plays jobs on a coordinator with set and the workers, and
// returns what Play logged, how many times the workers played each job,
// and Play's error; onRefusal, when not nil, is the coordinator's
// OnRefusal.
func playWave(t *testing.T, set Settings, jobs int, accept func(i int, result []byte) error, onRefusal func(worker, reason string), workers ...testWorker) (log string, played map[string]int, err error) {
	t.Helper()
	srv, err := Serve(ServerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	conn := func() *nats.Conn {
		nc, err := srv.Connect("test")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), waveLimit, fmt.Errorf("the wave waited %v for results that never came", waveLimit))
	defer cancel()
	c, err := NewCoordinator(ctx, conn(), set)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.OnRefusal = onRefusal
	var mu sync.Mutex
	var logs strings.Builder
	played = map[string]int{}
	var wg sync.WaitGroup
	wctx, stop := context.WithCancel(ctx)
	for _, w := range workers {
		nc := conn()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w.after != nil {
				select {
				case <-w.after:
				case <-wctx.Done():
					return
				}
			}
			_ = Work(wctx, nc, func(ctx context.Context, payload []byte, fetch Fetch) ([]byte, error) {
				mu.Lock()
				played[string(payload)]++
				mu.Unlock()
				return w.play(ctx, payload, fetch)
			}, WorkerOptions{Slots: 2})
		}()
	}
	w := Wave{Group: "r.0", Accept: accept, Log: func(format string, args ...any) {
		mu.Lock()
		fmt.Fprintf(&logs, format+"\n", args...)
		mu.Unlock()
	}}
	for i := range jobs {
		w.Jobs = append(w.Jobs, Job{ID: fmt.Sprintf("r.0.%d", i), Payload: []byte(fmt.Sprint("job ", i))})
	}
	err = c.Play(ctx, w)
	if cause := context.Cause(ctx); ctx.Err() != nil {
		t.Fatalf("%v: %v\nlog:\n%s", err, cause, logs.String())
	}
	stop()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return logs.String(), played, err
}

func echo(_ context.Context, payload []byte, _ Fetch) ([]byte, error) {
	return append([]byte("played "), payload...), nil
}

// TestRejectedResultsAreQueuedAgain: a result Accept refuses counts once
// against its copy, which is queued again (a fresh copy, played again)
// until one is taken; MaxDeliver refused copies end the wave with one
// error naming the job. A refused result that was not queued again left
// the wave waiting for ever.
func TestRejectedResultsAreQueuedAgain(t *testing.T) {
	var refused atomic.Int64
	lies := func(n int64) func(i int, result []byte) error {
		return func(i int, result []byte) error {
			if i == 1 && refused.Add(1) <= n {
				return errors.New("a cost no game gives")
			}
			if want := fmt.Sprint("played job ", i); string(result) != want {
				return fmt.Errorf("result %q, want %q", result, want)
			}
			return nil
		}
	}
	log, played, err := playWave(t, Settings{MaxDeliver: 3}, 3, lies(2), nil, testWorker{play: echo})
	if err != nil {
		t.Fatalf("two results of job 1 refused, three copies allowed: %v\n%s", err, log)
	}
	if played["job 1"] != 3 || played["job 0"] != 1 || played["job 2"] != 1 {
		t.Errorf("plays %v; want job 1 three times (two refused), the others once", played)
	}
	if strings.Count(log, "job r.0.1: a cost no game gives; queued again") != 2 {
		t.Errorf("log:\n%s", log)
	}
	refused.Store(0)
	log, _, err = playWave(t, Settings{MaxDeliver: 3}, 3, lies(3), nil, testWorker{play: echo})
	if !errors.Is(err, ErrJobFailed) || !strings.Contains(err.Error(), "job r.0.1: failed on every delivery (3 results, none good): a cost no game gives") {
		t.Fatalf("three results of job 1 refused, three copies allowed: %v\n%s", err, log)
	}
	// By default four copies: three refused results are survived, a
	// fourth ends the wave.
	refused.Store(0)
	log, played, err = playWave(t, Settings{}, 3, lies(3), nil, testWorker{play: echo})
	if err != nil || played["job 1"] != 4 {
		t.Fatalf("three results of job 1 refused, the default copies: %v, plays %v\n%s", err, played, log)
	}
	refused.Store(0)
	log, _, err = playWave(t, Settings{}, 3, lies(4), nil, testWorker{play: echo})
	if !errors.Is(err, ErrJobFailed) || !strings.Contains(err.Error(), "(4 results, none good)") {
		t.Fatalf("four results of job 1 refused, the default copies: %v\n%s", err, log)
	}
}

// TestRefusalsAndFailuresAreJudgedApart: a worker's refusal of a run
// queues the job again and counts nothing, so a good worker that joins
// once the coordinator has heard the refusal plays every job, even with
// one delivery allowed; a worker's failure counts against the job, which
// after MaxDeliver deliveries fails with the reason reported.
func TestRefusalsAndFailuresAreJudgedApart(t *testing.T) {
	refuses := func(context.Context, []byte, Fetch) ([]byte, error) {
		return nil, Refuse(errors.New("no programs here"))
	}
	heard := make(chan struct{})
	var once sync.Once
	var reasons []string
	onRefusal := func(_, reason string) {
		reasons = append(reasons, reason)
		once.Do(func() { close(heard) })
	}
	log, played, err := playWave(t, Settings{MaxDeliver: 1}, 4, func(int, []byte) error { return nil }, onRefusal,
		testWorker{play: refuses}, testWorker{play: echo, after: heard})
	total := 0
	for _, n := range played {
		total += n
	}
	if err != nil || len(played) != 4 || total <= 4 || len(reasons) != 1 || reasons[0] != "no programs here" {
		t.Fatalf("beside a refusing worker: %v; plays %v, refusals told %q\n%s", err, played, reasons, log)
	}
	fails := func(context.Context, []byte, Fetch) ([]byte, error) { return nil, errors.New("the game broke") }
	log, played, err = playWave(t, Settings{MaxDeliver: 2}, 1, func(int, []byte) error { return nil }, nil, testWorker{play: fails})
	if !errors.Is(err, ErrJobFailed) || !strings.Contains(err.Error(), "the game broke") || played["job 0"] != 2 {
		t.Fatalf("a job failing everywhere, two deliveries: %v, played %v\n%s", err, played, log)
	}
}

// TestHeaderValue: text from a worker for a header is one line of at
// most 1,000 characters (runes, not bytes): 1,000 are kept whole, a
// 1,001st is cut.
func TestHeaderValue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"a reason", "a reason"},
		{strings.Repeat("é", 1000), strings.Repeat("é", 1000)},
		{strings.Repeat("é", 1001), strings.Repeat("é", 1000)},
		{"two\nlines", "two; lines"},
	} {
		if got := headerValue(tc.in); got != tc.want {
			t.Errorf("headerValue(%.20q...) = %.20q... (%d runes), want %d runes", tc.in, got, len([]rune(got)), len([]rune(tc.want)))
		}
	}
}
