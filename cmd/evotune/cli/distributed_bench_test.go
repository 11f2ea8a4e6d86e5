package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/natspool"
	"github.com/evotune/evotune/natsqueue"
)

// BenchmarkQuickstartProcesses times the generations of
// configs/quickstart.yaml (20,000 games each) played four ways, one after
// the other in each round (an iteration), so a change in the machine's
// load touches all four alike: on this process's local pool with one and
// with two workers, and by a coordinator in this process (an embedded
// server listening on a loopback port, as `run --serve` has) with two
// `evotune worker URL --workers 1` processes of this test binary (a
// coordinator takes workers of its own build only), with the
// default batch size (AutoBatchGames: 320 games here) and with batches
// of 64 games (the local default).
//
// Each way runs the first three generations of the run. A generation is
// timed from its start to the next one's (or the run's end): its games,
// the checkpoint with its derived files, and breeding. The first
// generation also pays what a run pays once (each worker fetches the
// run's config; the players' tables are built), so it is reported apart:
// first-s, and later-s for the median of generations 2 and 3 over the
// rounds, which is what the rest of a run's generations cost. Item 8 of
// issue 11 is reported on the later generations: the speed-up of two
// worker processes over one local worker (local-1 / nats-2) and the
// queue's overhead at equal worker count (nats-2 / local-2 - 1), in
// percent; the same on the first generation as first-speedup-x.
//
// Not timed: the build, the server, the worker processes' start and
// their connection (the coordinator waits until it has heard from both).
// Each way has a server and workers of its own, so no batch ID was seen
// before.
//
//	go test ./cmd/evotune/cli -run '^$' -bench QuickstartProcesses -benchtime 5x
func BenchmarkQuickstartProcesses(b *testing.B) {
	if testing.Short() {
		b.Skip("starts worker processes")
	}
	bin := os.Args[0] // started as the evotune command (TestMain)
	cfgPath := filepath.Join("..", "..", "..", "configs", "quickstart.yaml")
	ways := []struct {
		name    string
		workers int // local goroutines, or worker processes
		nats    bool
		batch   int
	}{
		{"local-1", 1, false, 0},
		{"local-2", 2, false, 0},
		{"nats-2", 2, true, 0},
		{"nats-2-batch64", 2, true, 64},
	}
	const gens = 3
	first := make([][]float64, len(ways))
	later := make([][]float64, len(ways))
	round := 0
	for b.Loop() {
		b.StopTimer() // started only around the generations
		round++
		line := fmt.Sprintf("round %d:", round)
		for i, w := range ways {
			clock := &genClock{}
			opts := engine.Options{Workers: w.workers, Generations: gens, BatchGames: w.batch, Dir: b.TempDir(), Progress: clock}
			var stop func()
			if w.nats {
				opts.Pool, stop = workerProcesses(b, bin, w.workers)
			}
			cfg, err := engine.Load(cfgPath)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			_, err = engine.Start(context.Background(), cfg, opts)
			b.StopTimer()
			took := clock.took(time.Now())
			cfg.Close()
			if stop != nil {
				stop()
			}
			if err != nil {
				b.Fatal(err)
			}
			if len(took) != gens {
				b.Fatalf("%s: timed %d generations, want %d", w.name, len(took), gens)
			}
			first[i] = append(first[i], took[0])
			later[i] = append(later[i], took[1:]...)
			line += fmt.Sprintf(" %s %.3fs", w.name, took)
		}
		b.Log(line)
		b.StartTimer()
	}
	var medFirst, medLater []float64
	for i, w := range ways {
		medFirst, medLater = append(medFirst, median(first[i])), append(medLater, median(later[i]))
		b.ReportMetric(medFirst[i], w.name+"-first-s")
		b.ReportMetric(medLater[i], w.name+"-later-s")
	}
	b.ReportMetric(medLater[0]/medLater[2], "speedup-x")
	b.ReportMetric(100*(medLater[2]/medLater[1]-1), "overhead-%")
	b.ReportMetric(100*(medLater[3]/medLater[1]-1), "overhead-batch64-%")
	b.ReportMetric(medFirst[0]/medFirst[2], "first-speedup-x")
}

// genClock is a Progress that notes when each generation starts.
type genClock struct{ starts []time.Time }

func (c *genClock) StartGeneration(gen, budget, games int)                       { c.starts = append(c.starts, time.Now()) }
func (c *genClock) Games(done int)                                               {}
func (c *genClock) EndGeneration(gen int, s engine.GenStats, best engine.Member) {}

// took returns how long each generation took, the last one ending at end.
func (c *genClock) took(end time.Time) []float64 {
	var out []float64
	for i, t := range c.starts {
		next := end
		if i+1 < len(c.starts) {
			next = c.starts[i+1]
		}
		out = append(out, next.Sub(t).Seconds())
	}
	return out
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// workerProcesses starts an embedded server on a free loopback port, a
// coordinator on it in this process, and n `evotune worker` processes
// of one slot each, and waits until the coordinator has heard from all
// of them. stop ends them all.
func workerProcesses(b *testing.B, bin string, n int) (engine.Pool, func()) {
	b.Helper()
	const token = "bench-token"
	srv, err := natsqueue.Serve(natsqueue.ServerOptions{Addr: "127.0.0.1:0", StoreDir: b.TempDir(), Token: token})
	if err != nil {
		b.Fatal(err)
	}
	nc, err := srv.Connect("coordinator")
	if err != nil {
		b.Fatal(err)
	}
	c, err := natsqueue.NewCoordinator(context.Background(), nc, natsqueue.Settings{Build: ownBuild(), CheckWorker: checkWorkerBuild})
	if err != nil {
		b.Fatal(err)
	}
	var cmds []*exec.Cmd
	var logs []*bytes.Buffer
	stop := func() {
		for _, cmd := range cmds {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		c.Close()
		nc.Close()
		srv.Close()
	}
	url := "nats://" + srv.Addr().String()
	for range n {
		cmd := exec.Command(bin, "worker", url, "--workers", "1", "--quiet")
		cmd.Env = append(os.Environ(), tokenEnv+"="+token, "EVOTUNE_AS_MAIN=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			stop()
			b.Fatal(err)
		}
		cmds, logs = append(cmds, cmd), append(logs, &errb)
	}
	for deadline := time.Now().Add(time.Minute); c.Workers().Workers < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			stop()
			for _, l := range logs {
				b.Logf("worker: %s", l)
			}
			b.Fatalf("heard from %d of %d workers in a minute", c.Workers().Workers, n)
		}
	}
	return natspool.Pool{C: c, OneCore: true}, stop // as run --serve without --play
}
