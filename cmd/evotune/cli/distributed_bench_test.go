package cli

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/evotune/evotune/dist"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/distpool"
)

// BenchmarkQuickstartProcesses times one generation of
// configs/quickstart.yaml (20,000 games) played four ways, one after the
// other in each round (an iteration), so a change in the machine's load
// touches all four alike: on this process's local pool with one and with
// two workers, and by a coordinator in this process (an embedded server
// listening on a loopback port, as `run --serve` has) with two
// `evotune worker URL --workers 1` processes of a real build, with the
// default batch size (AutoBatchGames: 320 games here) and with batches
// of 64 games (the local default). It reports each
// way's median over the rounds (seconds), and item 8 of issue 11: the
// speed-up of two worker processes over one local worker (local-1 /
// nats-2) and the queue's overhead at equal worker count (nats-2 /
// local-2 - 1), in percent.
//
// The timed region is the generation alone: the build, the server, the
// worker processes' start and their connection (the coordinator waits
// until it has heard from both) are not timed; each generation has a
// server and workers of its own, so no batch ID was seen before. A
// worker's first batch loads the run's config, as in any run.
//
//	go test ./cmd/evotune/cli -run '^$' -bench QuickstartProcesses -benchtime 5x
func BenchmarkQuickstartProcesses(b *testing.B) {
	if testing.Short() {
		b.Skip("starts worker processes")
	}
	bin := evotuneBinary(b)
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
	took := make([][]float64, len(ways))
	round := 0
	for b.Loop() {
		b.StopTimer() // started only around each generation
		round++
		line := fmt.Sprintf("round %d:", round)
		for i, w := range ways {
			opts := engine.Options{Workers: w.workers, Generations: 1, BatchGames: w.batch, Dir: b.TempDir()}
			var stop func()
			if w.nats {
				opts.Pool, stop = workerProcesses(b, bin, w.workers)
			}
			cfg, err := engine.Load(cfgPath)
			if err != nil {
				b.Fatal(err)
			}
			began := time.Now()
			b.StartTimer()
			_, err = engine.Start(context.Background(), cfg, opts)
			b.StopTimer()
			took[i] = append(took[i], time.Since(began).Seconds())
			cfg.Close()
			if stop != nil {
				stop()
			}
			if err != nil {
				b.Fatal(err)
			}
			line += fmt.Sprintf(" %s %.3fs", w.name, took[i][len(took[i])-1])
		}
		b.Log(line)
		b.StartTimer()
	}
	med := make([]float64, len(ways))
	for i, w := range ways {
		med[i] = median(took[i])
		b.ReportMetric(med[i], w.name+"-s")
	}
	b.ReportMetric(med[0]/med[2], "speedup-x")
	b.ReportMetric(100*(med[2]/med[1]-1), "overhead-%")
	b.ReportMetric(100*(med[3]/med[1]-1), "overhead-batch64-%")
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
	srv, err := dist.Serve(dist.ServerOptions{Addr: "127.0.0.1:0", StoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	nc, err := srv.Connect("coordinator")
	if err != nil {
		b.Fatal(err)
	}
	c, err := dist.NewCoordinator(context.Background(), nc, dist.Settings{})
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
	return distpool.Pool{C: c}, stop
}
