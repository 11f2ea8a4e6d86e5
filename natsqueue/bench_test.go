package natsqueue

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// BenchmarkEmptyJobs measures the queue alone: a wave of 300 jobs whose
// play does nothing, on two in-process workers of one slot each. Its
// time per job is what a batch costs beyond its games.
func BenchmarkEmptyJobs(b *testing.B) {
	for _, size := range []int{100, 4000} {
		b.Run(fmt.Sprintf("payload%d", size), func(b *testing.B) {
			srv, err := Serve(ServerOptions{StoreDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			nc, err := srv.Connect("coordinator")
			if err != nil {
				b.Fatal(err)
			}
			defer nc.Close()
			c, err := NewCoordinator(context.Background(), nc, Settings{})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for k := range 2 {
				wnc, err := srv.Connect(fmt.Sprint("worker", k))
				if err != nil {
					b.Fatal(err)
				}
				defer wnc.Close()
				wg.Add(1)
				go func() {
					defer wg.Done()
					_ = Work(ctx, wnc, func(context.Context, []byte, Fetch) ([]byte, error) { return make([]byte, 100), nil }, WorkerOptions{Slots: 1})
				}()
			}
			defer func() { cancel(); wg.Wait() }()
			payload := make([]byte, size)
			const jobs = 300
			round := 0
			for b.Loop() {
				round++
				w := Wave{Group: fmt.Sprint("r", round), Accept: func(int, []byte) error { return nil }}
				for i := range jobs {
					w.Jobs = append(w.Jobs, Job{ID: fmt.Sprintf("r%d.%d", round, i), Payload: payload})
				}
				if err := c.Play(context.Background(), w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*jobs), "µs/job")
		})
	}
}
