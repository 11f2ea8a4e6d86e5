package natspool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/natsqueue"
	"github.com/evotune/evotune/rundir/rundirtest"
	"github.com/nats-io/nats.go"
)

// testConfig plays two fitness modes, seat swaps included, in a few
// seconds.
const testConfig = `name: dist
seed: 9
game: mnk
player: tuned
fitness:
  baselines:
    opponents: [random, greedy]
    games: 4
  population:
    opponents: 2
    games: 2
evolution:
  population: 6
  generations: 3
  tournament-size: 2
`

func load(t testing.TB) *engine.Setup {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dist.yaml")
	if err := os.WriteFile(path, []byte(testConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := engine.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

var local struct {
	once  sync.Once
	files map[string][]byte
}

// localRun is the files of the config run on the local pool.
func localRun(t testing.TB) map[string][]byte {
	local.once.Do(func() {
		dir := t.TempDir()
		if _, err := engine.Start(context.Background(), load(t), engine.Options{Dir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		local.files = rundirtest.Read(t, dir, false)
	})
	return local.files
}

// cluster is an in-process server, a coordinator and workers.
type cluster struct {
	srv  *natsqueue.Server
	c    *natsqueue.Coordinator
	nc   *nats.Conn
	logs bytes.Buffer
	mu   sync.Mutex
}

func (c *cluster) log(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs.WriteString(strings.TrimSpace(strings.ReplaceAll(format, "%", "")) + "\n")
}

// startCluster starts an embedded server, a coordinator on it and one
// worker per play function, each with two slots; all stop at the test's
// end.
func startCluster(t *testing.T, set natsqueue.Settings, plays ...natsqueue.PlayFunc) *cluster {
	t.Helper()
	var ws []func(*nats.Conn) natsqueue.PlayFunc
	for _, p := range plays {
		ws = append(ws, func(*nats.Conn) natsqueue.PlayFunc { return p })
	}
	return startClusterOn(t, set, ws...)
}

// startClusterOn is startCluster with play functions that know their
// worker's connection.
func startClusterOn(t *testing.T, set natsqueue.Settings, plays ...func(*nats.Conn) natsqueue.PlayFunc) *cluster {
	t.Helper()
	srv, err := natsqueue.Serve(natsqueue.ServerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	cl := &cluster{srv: srv}
	if cl.nc, err = srv.Connect("coordinator"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.nc.Close)
	if cl.c, err = natsqueue.NewCoordinator(context.Background(), cl.nc, set); err != nil {
		t.Fatal(err)
	}
	cl.c.Log = cl.log
	t.Cleanup(cl.c.Close)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		stopped := make(chan struct{})
		go func() { wg.Wait(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(stallLimit):
			t.Errorf("the workers did not stop within %v of their context's end", stallLimit)
		}
	})
	for _, play := range plays {
		nc, err := srv.Connect("worker")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = natsqueue.Work(ctx, nc, play(nc), natsqueue.WorkerOptions{Slots: 2})
		}()
	}
	return cl
}

func newWorker(t *testing.T) natsqueue.PlayFunc {
	w := &Worker{}
	t.Cleanup(w.Close)
	return Play(w)
}

// TestWorkersMatchLocal: three workers, each loading the config itself,
// give the files of a local run byte for byte.
func TestWorkersMatchLocal(t *testing.T) {
	want := localRun(t)
	cl := startCluster(t, natsqueue.Settings{}, newWorker(t), newWorker(t), newWorker(t))
	dir := t.TempDir()
	if _, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
		t.Fatal(err)
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "three workers")
}

// TestDeadWorkersJobIsRedelivered: a worker that dies holding a job
// (its connection gone, no heartbeat, no ack) loses nothing: the job goes
// to another worker once its ack wait is over.
func TestDeadWorkersJobIsRedelivered(t *testing.T) {
	want := localRun(t)
	var took atomic.Int64
	dies := func(nc *nats.Conn) natsqueue.PlayFunc {
		return func(ctx context.Context, payload []byte, _ natsqueue.Fetch) ([]byte, error) {
			took.Add(1)
			nc.Close() // dies with the job in hand
			<-ctx.Done()
			return nil, ctx.Err()
		}
	}
	good := newWorker(t)
	cl := startClusterOn(t, natsqueue.Settings{AckWait: 300 * time.Millisecond}, dies, func(*nats.Conn) natsqueue.PlayFunc { return good })
	dir := t.TempDir()
	if _, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
		t.Fatal(err)
	}
	if took.Load() == 0 {
		t.Fatal("the dying worker never took a job; the test proves nothing")
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "a worker hung on its jobs")
}

// TestJobFailingOnEveryDeliveryStopsTheRun: a batch that fails on every
// worker stops the run with one error naming the batch and the cause.
func TestJobFailingOnEveryDeliveryStopsTheRun(t *testing.T) {
	fails := func(context.Context, []byte, natsqueue.Fetch) ([]byte, error) {
		return nil, errors.New("engine: the game broke")
	}
	cl := startCluster(t, natsqueue.Settings{MaxDeliver: 3}, fails, fails)
	_, err := startWatched(t, load(t), engine.Options{Dir: t.TempDir(), Pool: Pool{C: cl.c}})
	if !errors.Is(err, natsqueue.ErrJobFailed) || !strings.Contains(err.Error(), "the game broke") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("run: %v; want one line saying a job failed on every delivery, with its cause", err)
	}
}

// garbage publishes foreign and malformed messages where the
// coordinator reads, before each wave.
type garbage struct {
	Pool
	nc  *nats.Conn
	out int
}

func (g *garbage) Play(ctx context.Context, w engine.Wave) error {
	id := w.Batches[0].ID
	// results is a worker's answer for batch id with n results.
	results := func(id string, n int) string {
		out := append([]byte("EVR\x02"), byte(len(id)))
		out = append(append(out, id...), byte(n))
		return string(append(out, make([]byte, 8*n)...))
	}
	for _, m := range []struct{ subject, data string }{
		{"evotune.results." + id, results(id, 1)},                                     // too few results
		{"evotune.results." + id, `{"batch":"` + id + `","results":[1]}`},             // the JSON of format 1
		{"evotune.results." + id, `not json`},                                         // malformed
		{"evotune.results." + id[:strings.LastIndexByte(id, '.')] + ".99999", `{}`},   // no such batch
		{"evotune.results." + id, results("someone.else.0", w.Batches[0].Games())},    // another batch's
		{"evotune.workers.hello", `{"id":`},                                           // a broken hello
		{"evotune.jobs.foreign.job", `{"format":1}`},                                  // a job of nobody
		{"evotune.jobs." + id[:strings.LastIndexByte(id, '.')] + ".99999", "EVB\x02"}, // a malformed job of no batch
		{"evotune.shared." + strings.Repeat("0", 64), "not what 000… is the hash of"}, // shared data of nobody
		{"evotune.shared.notakey", "x"},                                               // and under no key
		{"evotune.results." + id, strings.Repeat("x", natsqueue.MaxPayload-1024)},     // oversized
	} {
		msg := nats.NewMsg(m.subject)
		msg.Data = []byte(m.data)
		msg.Header.Set("Nats-Msg-Id", "garbage-"+m.subject+"-"+string(rune('a'+g.out)))
		g.out++
		if err := g.nc.PublishMsg(msg); err != nil {
			return err
		}
	}
	return g.Pool.Play(ctx, w)
}

// TestForeignAndMalformedMessagesAreIgnored: results of the wrong shape
// (five on the first batch's subject each wave, more than the default
// four deliveries), for batches that do not exist, oversized, and jobs
// of nobody, never stop or change the run: what counts against a batch
// is what the server delivered, not the messages on its subject. Before,
// four garbage messages on one batch's subject stopped the run.
func TestForeignAndMalformedMessagesAreIgnored(t *testing.T) {
	want := localRun(t)
	cl := startCluster(t, natsqueue.Settings{}, newWorker(t), newWorker(t))
	dir := t.TempDir()
	pool := &garbage{Pool: Pool{C: cl.c}, nc: cl.nc}
	if _, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: pool, BatchGames: 5}); err != nil {
		t.Fatalf("run: %v\nlog:\n%s", err, cl.logs.String())
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "with garbage on the subjects")
	log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
	if !strings.Contains(string(log), "of no copy in play: ignored") {
		t.Errorf("run.log does not note the malformed results:\n%s", log)
	}
}

// TestSameBatchesTwiceOnOneServer: a second run of the same config on the
// same server publishes batches whose IDs the server has seen and whose
// results were purged with their waves; they are queued again, not
// waited for in vain.
func TestSameBatchesTwiceOnOneServer(t *testing.T) {
	want := localRun(t)
	cl := startCluster(t, natsqueue.Settings{}, newWorker(t))
	for k := range 2 {
		dir := t.TempDir()
		_, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5})
		if err != nil {
			t.Fatalf("run %d: %v", k+1, err)
		}
		rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "the same batches again")
	}
}

// coreCounter is a pool that notes the process's GOMAXPROCS while the
// pool it wraps plays a wave.
type coreCounter struct {
	Pool
	during []int
}

func (c *coreCounter) Play(ctx context.Context, w engine.Wave) error {
	done := w.Done
	w.Done = func(b *engine.Batch, res engine.Played) {
		c.during = append(c.during, runtime.GOMAXPROCS(0))
		done(b, res)
	}
	return c.Pool.Play(ctx, w)
}

// TestOneCoreLendsTheCores: a coordinator that plays no games runs on
// one core while a wave is played and has its cores back after, and its
// run is the local run, byte for byte.
func TestOneCoreLendsTheCores(t *testing.T) {
	want := localRun(t)
	before := runtime.GOMAXPROCS(0)
	if before < 2 {
		t.Skip("one core: nothing to lend")
	}
	cl := startCluster(t, natsqueue.Settings{}, newWorker(t), newWorker(t))
	pool := &coreCounter{Pool: Pool{C: cl.c, OneCore: true}}
	dir := t.TempDir()
	if _, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: pool, BatchGames: 5}); err != nil {
		t.Fatal(err)
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "a coordinator on one core")
	if len(pool.during) == 0 || slices.ContainsFunc(pool.during, func(n int) bool { return n != 1 }) {
		t.Errorf("GOMAXPROCS while waves were played: %v, want 1", pool.during)
	}
	if after := runtime.GOMAXPROCS(0); after != before {
		t.Errorf("GOMAXPROCS after the run: %d, want %d back", after, before)
	}
}

// TestRefusalsCountNothing: workers that cannot play the run (a batch
// format of another version, a run description they cannot fetch, a
// config that does not load on them) refuse its batches, and even with
// MaxDeliver 1 the batches go to the good worker: the run is the local
// run, the coordinator is told once per refusing worker, and a refusing
// worker stops taking the run's batches while they are queued (it takes
// about one per slot and wave, not one per batch).
func TestRefusalsCountNothing(t *testing.T) {
	want := localRun(t)
	var taken atomic.Int64
	refusing := func(why func(payload []byte, fetch natsqueue.Fetch) error) natsqueue.PlayFunc {
		w := &Worker{}
		t.Cleanup(w.Close)
		return func(ctx context.Context, payload []byte, fetch natsqueue.Fetch) ([]byte, error) {
			taken.Add(1)
			if err := why(payload, fetch); err != nil {
				return nil, err
			}
			return Play(w)(ctx, payload, fetch)
		}
	}
	otherFormat := refusing(func(payload []byte, fetch natsqueue.Fetch) error {
		payload[3]++ // a batch format of another version
		return nil
	})
	noFetch := refusing(func(_ []byte, fetch natsqueue.Fetch) error {
		return natsqueue.Refuse(errors.New("the store is unreachable from here"))
	})
	cl := startCluster(t, natsqueue.Settings{MaxDeliver: 1}, otherFormat, noFetch, newWorker(t))
	var refusals []string
	var mu sync.Mutex
	cl.c.OnRefusal = func(worker, reason string) {
		mu.Lock()
		defer mu.Unlock()
		refusals = append(refusals, reason)
	}
	dir := t.TempDir()
	if _, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
		t.Fatalf("run: %v", err)
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "beside refusing workers")
	t.Logf("the refusing workers took %d batches", taken.Load())
	if len(refusals) != 2 || !slices.ContainsFunc(refusals, func(s string) bool { return strings.Contains(s, fmt.Sprintf("of format %d,", DescriptionFormat+1)) }) {
		t.Errorf("refusals told: %q, want one per refusing worker, one naming the format", refusals)
	}
	// 3 generations of about 12 batches: two refusing workers of two
	// slots each would take them all, if refusing did not stop them.
	if n := taken.Load(); n == 0 || n > 2*2*3*2 {
		t.Errorf("the refusing workers took %d batches; want some, at most a couple per slot and wave", n)
	}
}

// TestEmptyWaveTouchesNothing: a wave whose batches the journal all held
// (a distributed resume of a generation killed after its last batch)
// reaches the pool empty: it returns at once, sharing and publishing
// nothing, and says so only if ctx is done.
func TestEmptyWaveTouchesNothing(t *testing.T) {
	p := Pool{} // no coordinator: touching it would panic
	if err := p.Play(context.Background(), engine.Wave{}); err != nil {
		t.Fatalf("an empty wave: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Play(ctx, engine.Wave{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("an empty wave, cancelled: %v, want the context's error", err)
	}
}

// TestLongJobsAreNotRedelivered: a worker playing a job longer than the
// ack wait tells the server it is alive often enough (a third of the
// wait) that the job is not delivered to another worker meanwhile: every
// job is played once.
func TestLongJobsAreNotRedelivered(t *testing.T) {
	w := &Worker{}
	t.Cleanup(w.Close)
	var mu sync.Mutex
	plays := map[string]int{}
	slow := func(ctx context.Context, payload []byte, fetch natsqueue.Fetch) ([]byte, error) {
		mu.Lock()
		plays[string(payload)]++
		mu.Unlock()
		time.Sleep(2500 * time.Millisecond) // two and a half ack waits
		return Play(w)(ctx, payload, fetch)
	}
	cl := startCluster(t, natsqueue.Settings{AckWait: time.Second}, slow)
	cfg := load(t)
	if _, err := startWatched(t, cfg, engine.Options{Dir: t.TempDir(), Pool: Pool{C: cl.c}, Generations: 1, BatchGames: 1000}); err != nil {
		t.Fatal(err)
	}
	for _, n := range plays {
		if n != 1 {
			t.Fatalf("plays per job: %v, want each once", plays)
		}
	}
	if len(plays) == 0 {
		t.Fatal("no job played")
	}
}

// TestBadResultsArePlayedAgain: a worker's result the engine refuses (a
// cost no game gives) counts once against its copy, which is queued
// again and played by a good worker: the run is the local run.
func TestBadResultsArePlayedAgain(t *testing.T) {
	want := localRun(t)
	w := &Worker{}
	t.Cleanup(w.Close)
	var bad atomic.Int64
	liar := func(ctx context.Context, payload []byte, fetch natsqueue.Fetch) ([]byte, error) {
		res, err := Play(w)(ctx, payload, fetch)
		if err == nil && bad.Add(1) <= 3 {
			res = append(bytes.Clone(res[:len(res)-8]), 0, 0, 0, 0, 0, 0, 0xf0, 0x7f) // the last result +Inf
		}
		return res, err
	}
	cl := startCluster(t, natsqueue.Settings{}, liar, newWorker(t))
	dir := t.TempDir()
	if _, err := startWatched(t, load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
		t.Fatalf("run: %v", err)
	}
	if bad.Load() < 3 {
		t.Fatal("the lying worker told no lie; the test proves nothing")
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "with a worker that lied three times")
}
