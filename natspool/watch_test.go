package natspool

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
)

// stallLimit is how long a run of these tests may go without a batch
// finishing before it fails: their batches take milliseconds, a few
// seconds on a machine under load; under -race beside the CLI's and
// engine's -race tests on 2 cores one wave went 45 s without one (and
// passed in every other gate run), so 2 minutes without one means a
// batch that will never finish (a result refused and never queued
// again, a job lost), and the test says so then, not at the test
// binary's deadline.
const stallLimit = 2 * time.Minute

// watchedPool is a pool that notes when a batch last finished.
type watchedPool struct {
	engine.Pool
	mu      sync.Mutex
	playing bool
	last    time.Time // a batch finished, or a wave began
	wave    int       // batches of the wave in play
	done    int       // of which finished
}

func (p *watchedPool) Play(ctx context.Context, w engine.Wave) error {
	p.mu.Lock()
	p.playing, p.last, p.wave, p.done = true, time.Now(), len(w.Batches), 0
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.playing = false
		p.mu.Unlock()
	}()
	inner := w.Done
	w.Done = func(b *engine.Batch, res engine.Played) {
		p.mu.Lock()
		p.last, p.done = time.Now(), p.done+1
		p.mu.Unlock()
		inner(b, res)
	}
	return p.Pool.Play(ctx, w)
}

// stalled says what the run waits for when no batch has finished for
// stallLimit while a wave is played, "" otherwise.
func (p *watchedPool) stalled() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.playing || time.Since(p.last) < stallLimit {
		return ""
	}
	return fmt.Sprintf("no batch finished for %v: %d of the wave's %d batches done, the rest never came", stallLimit, p.done, p.wave)
}

// startWatched starts cfg on opts.Pool and fails t, saying what it
// waited for, once no batch has finished for stallLimit.
func startWatched(t *testing.T, cfg *engine.Setup, opts engine.Options) (*engine.Result, error) {
	t.Helper()
	w := &watchedPool{Pool: opts.Pool}
	opts.Pool = w
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if why := w.stalled(); why != "" {
					cancel(fmt.Errorf("%s", why))
					return
				}
			}
		}
	}()
	res, err := engine.Start(ctx, cfg, opts)
	if cause := context.Cause(ctx); err != nil && cause != nil && cause != context.Canceled {
		t.Fatalf("run: %v: %v", err, cause)
	}
	return res, err
}
