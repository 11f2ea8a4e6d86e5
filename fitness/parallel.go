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
// When a call fails, Parallel starts no call of a higher index, lets the
// lower ones finish, and returns the error of the lowest failing index:
// the same error at any worker count, not whichever came first. When ctx
// is cancelled, Parallel stops handing out work and returns ctx.Err().
// Either way the results so far come back too.
func Parallel[T any](ctx context.Context, n, workers int, fn func(i int) (T, error), progress func(done int)) ([]T, error) {
	out := make([]T, n)
	if n == 0 {
		return out, ctx.Err()
	}
	workers = max(1, min(workers, n))
	// Hand out work in small chunks: one atomic add per chunk keeps the
	// counter off the hot path of games that take microseconds.
	chunk := max(1, min(64, n/(workers*8)))
	var next, done atomic.Int64
	// limit is the lowest failing index so far (n: none). Indices below it
	// still run, so the lowest failing index of all is always found.
	var limit atomic.Int64
	limit.Store(int64(n))
	errs := make([]*indexedError, workers) // each worker's first, which is its lowest
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				start := int(next.Add(int64(chunk))) - chunk
				if start >= int(limit.Load()) {
					return
				}
				end := min(start+chunk, n)
				for i := start; i < end; i++ {
					if i >= int(limit.Load()) {
						break
					}
					v, err := fn(i)
					if err != nil {
						lowerLimit(&limit, int64(i))
						if errs[w] == nil {
							errs[w] = &indexedError{i, err}
						}
						break
					}
					out[i] = v
				}
				d := done.Add(int64(end - start))
				if progress != nil {
					progress(int(d))
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return out, err
	}
	var first *indexedError
	for _, e := range errs {
		if e != nil && (first == nil || e.i < first.i) {
			first = e
		}
	}
	if first != nil {
		return out, first.err
	}
	return out, nil
}

type indexedError struct {
	i   int
	err error
}

// lowerLimit sets limit to i if i is lower.
func lowerLimit(limit *atomic.Int64, i int64) {
	for {
		cur := limit.Load()
		if i >= cur || limit.CompareAndSwap(cur, i) {
			return
		}
	}
}
