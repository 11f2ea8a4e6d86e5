package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/fileio"
)

// statusEvery is how often a coordinator's status goes to run.log while
// a wave is played.
const statusEvery = 5 * time.Second

// statusPool records, for a run played on workers (--serve, --nats), what
// the coordinator knows of them in run.log, every statusEvery while a
// wave is played and when it ends: "workers: 2 connected; batches: 5 in
// flight, 59 of 64 done". In flight is published to the queue and not
// yet done (queued or being played). Nothing else records it: the
// dashboard reads these lines. Redeliveries are not known to the
// coordinator's client, so the line does not say them.
type statusPool struct {
	inner     engine.Pool
	connected func() int // the workers connected, -1 before the first status
	log       string     // run.log's path
	every     time.Duration
	now       func() time.Time
}

// recordWorkers wraps a distributed run's pool (apply's, when it plays
// the run) in a statusPool.
func recordWorkers(opts *engine.Options, p *lazyPool) {
	if opts.Pool == nil || opts.Pool != engine.Pool(p) {
		return
	}
	opts.Pool = &statusPool{inner: p, connected: func() int { return int(p.workers.Load()) },
		log: filepath.Join(opts.Dir, "run.log"), every: statusEvery, now: time.Now}
}

func (s *statusPool) Play(ctx context.Context, w engine.Wave) error {
	var done atomic.Int64
	inner := w
	inner.Done = func(b *engine.Batch, p engine.Played) {
		w.Done(b, p)
		done.Add(1)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(s.every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				s.write(int(done.Load()), len(w.Batches))
			}
		}
	}()
	err := s.inner.Play(ctx, inner)
	close(stop)
	wg.Wait()
	s.write(int(done.Load()), len(w.Batches))
	return err
}

// write appends one status line to run.log. A line is one write on a
// file opened to append, so it never interleaves with the engine's own
// lines; a log that cannot be written loses the line, not the run.
func (s *statusPool) write(done, total int) {
	connected := "unknown"
	if n := s.connected(); n >= 0 {
		connected = strconv.Itoa(n)
	}
	line := fmt.Sprintf("%s workers: %s connected; batches: %d in flight, %d of %d done\n",
		s.now().UTC().Format(time.RFC3339), connected, total-done, done, total)
	f, err := fileio.OpenAppend(s.log)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line)
}
