package fitness

import (
	"context"
	"sync"
	"sync/atomic"
)

// Parallel calls fn(i) for every i in [0, n) on up to workers goroutines and
// returns the results in index order, so what a caller computes from them
// does not depend on the number of workers or on scheduling. Each fn(i)
// must derive its randomness from i (and its own seeds), not from shared
// state. progress, if not nil, is called after each finished call with the
// count so far; it may be called from several goroutines at once.
//
// When ctx is cancelled, Parallel stops handing out work and returns
// ctx.Err() with the partial results.
func Parallel[T any](ctx context.Context, n, workers int, fn func(i int) T, progress func(done int)) ([]T, error) {
	out := make([]T, n)
	if n == 0 {
		return out, ctx.Err()
	}
	workers = max(1, min(workers, n))
	// Hand out work in small chunks: one atomic add per chunk keeps the
	// counter off the hot path of games that take microseconds.
	chunk := max(1, min(64, n/(workers*8)))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				start := int(next.Add(int64(chunk))) - chunk
				if start >= n {
					return
				}
				end := min(start+chunk, n)
				for i := start; i < end; i++ {
					out[i] = fn(i)
				}
				d := done.Add(int64(end - start))
				if progress != nil {
					progress(int(d))
				}
			}
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}
