package natspool

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/natsqueue"
)

// BenchmarkQuickstartGeneration plays the first generation of
// configs/quickstart.yaml (20,000 games) on the local pool and on
// JetStream workers in this process, each worker playing one batch at a
// time: local-1 against nats-2 is the speed-up of two workers over one,
// local-2 against nats-2 the queue's overhead at equal worker count.
// cpu-ms/op is the CPU time the process used in a generation (server,
// coordinator and workers included), which the machine's load changes
// far less than the wall time.
func BenchmarkQuickstartGeneration(b *testing.B) {
	cfgPath := filepath.Join("..", "..", "configs", "quickstart.yaml")
	for _, bc := range []struct {
		name    string
		workers int
		nats    bool
		batch   int
	}{
		{"local-1", 1, false, 0},
		{"local-2", 2, false, 0},
		{"nats-2-batch64", 2, true, 64},
		{"nats-2-batch256", 2, true, 256},
		{"nats-2-batch1000", 2, true, 1000},
	} {
		b.Run(bc.name, func(b *testing.B) {
			opts := engine.Options{Workers: bc.workers, Generations: 1, BatchGames: bc.batch}
			var cpu time.Duration // of the whole process, while timed
			for b.Loop() {
				if bc.nats {
					// A server of its own each time: a second run of the
					// same batches would find their results stored.
					b.StopTimer()
					opts.Pool = benchCluster(b, bc.workers)
					b.StartTimer()
				}
				cfg, err := engine.Load(cfgPath)
				if err != nil {
					b.Fatal(err)
				}
				opts.Dir = b.TempDir()
				began := cpuTime()
				if _, err := engine.Start(context.Background(), cfg, opts); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - began
				cfg.Close()
			}
			b.ReportMetric(20_000*float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchCluster is an in-process server with workers of one slot each,
// stopped at the benchmark's end.
func benchCluster(b *testing.B, workers int) engine.Pool {
	srv, err := natsqueue.Serve(natsqueue.ServerOptions{StoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	nc, err := srv.Connect("coordinator")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(nc.Close)
	c, err := natsqueue.NewCoordinator(context.Background(), nc, natsqueue.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	b.Cleanup(func() { cancel(); wg.Wait() })
	for k := range workers {
		wnc, err := srv.Connect(fmt.Sprint("worker", k))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(wnc.Close)
		w := &Worker{}
		b.Cleanup(w.Close)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = natsqueue.Work(ctx, wnc, Play(w), natsqueue.WorkerOptions{Slots: 1})
		}()
	}
	return Pool{C: c}
}
