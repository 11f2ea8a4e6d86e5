package natspool

import (
	"bytes"
	"context"
	"errors"
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

func load(t testing.TB) *engine.Config {
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
	t.Cleanup(func() { cancel(); wg.Wait() })
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
	w := &engine.Worker{}
	t.Cleanup(w.Close)
	return Play(w)
}

// TestWorkersMatchLocal: three workers, each loading the config itself,
// give the files of a local run byte for byte.
func TestWorkersMatchLocal(t *testing.T) {
	want := localRun(t)
	cl := startCluster(t, natsqueue.Settings{}, newWorker(t), newWorker(t), newWorker(t))
	dir := t.TempDir()
	if _, err := engine.Start(context.Background(), load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
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
	if _, err := engine.Start(context.Background(), load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := engine.Start(ctx, load(t), engine.Options{Dir: t.TempDir(), Pool: Pool{C: cl.c}})
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

// TestForeignAndMalformedMessagesAreIgnored: results of the wrong shape,
// for batches that do not exist, oversized, and jobs of nobody, never
// stop or change the run.
func TestForeignAndMalformedMessagesAreIgnored(t *testing.T) {
	want := localRun(t)
	cl := startCluster(t, natsqueue.Settings{MaxDeliver: 6}, newWorker(t), newWorker(t))
	dir := t.TempDir()
	pool := &garbage{Pool: Pool{C: cl.c}, nc: cl.nc}
	if _, err := engine.Start(context.Background(), load(t), engine.Options{Dir: dir, Pool: pool, BatchGames: 5}); err != nil {
		t.Fatalf("run: %v\nlog:\n%s", err, cl.logs.String())
	}
	rundirtest.Same(t, want, rundirtest.Read(t, dir, false), "with garbage on the subjects")
	if !strings.Contains(cl.logs.String(), "queued again") {
		t.Errorf("the coordinator did not log the malformed results:\n%s", cl.logs.String())
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
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := engine.Start(ctx, load(t), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5})
		cancel()
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
	w.Done = func(b *engine.Batch, res []float64) {
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
	if _, err := engine.Start(context.Background(), load(t), engine.Options{Dir: dir, Pool: pool, BatchGames: 5}); err != nil {
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
