// Package natspool joins the engine to the NATS work queue (package
// natsqueue): a Pool that plays a generation's batches on workers through
// NATS JetStream, the wire between them (the run's and each batch's
// description, a worker's results: wire.go), and the Worker that plays
// them. It is the only package that knows both, and sits above them, so
// neither the engine nor natsqueue imports the other.
package natspool

import (
	"context"
	"errors"
	"runtime"
	"strings"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/natsqueue"
)

// Pool plays batches through a natsqueue.Coordinator.
type Pool struct {
	C *natsqueue.Coordinator
	// OneCore runs the process on one core (GOMAXPROCS 1) while a wave
	// is played, for a coordinator that plays no games itself: it only
	// waits on the network then, and with every core its idle threads
	// spin looking for work (a fifth of its CPU) on cores that workers
	// beside it need. The process gets its cores back between waves.
	OneCore bool
}

var _ engine.Pool = Pool{}

// Play publishes the wave's batches as jobs and hands their results to
// w.Done as they come.
func (p Pool) Play(ctx context.Context, w engine.Wave) error {
	if len(w.Batches) == 0 {
		return ctx.Err()
	}
	if p.OneCore {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	// What every batch of the run shares (the config) is stored once
	// per wave and fetched by each worker once per run; a batch names it
	// by its key.
	run, err := runDescriptionOf(w.Batches[0])
	if err != nil {
		return err
	}
	key, err := p.C.Share(ctx, run)
	if err != nil {
		return err
	}
	jobs := make([]natsqueue.Job, len(w.Batches))
	for i, b := range w.Batches {
		jobs[i] = natsqueue.Job{ID: b.ID, Payload: descriptionOf(b, key)}
	}
	id := w.Batches[0].ID
	group := id[:strings.LastIndexByte(id, '.')] // run.generation
	games := 0
	return p.C.Play(ctx, natsqueue.Wave{Group: group, Jobs: jobs, Log: w.Log,
		Accept: func(i int, data []byte) error {
			b := w.Batches[i]
			res, err := decodeResults(b, data)
			if err != nil {
				return err
			}
			w.Done(b, res)
			games += b.Games()
			if w.Games != nil {
				w.Games(games)
			}
			return nil
		}})
}

// Play returns the function a worker plays jobs with: each job's games
// one after another (a worker plays several jobs at once instead).
func Play(w *Worker) natsqueue.PlayFunc {
	return func(ctx context.Context, payload []byte, fetch natsqueue.Fetch) ([]byte, error) {
		res, err := w.PlayBatch(ctx, payload, 1, Fetch(fetch))
		if errors.Is(err, ErrRefused) {
			return nil, natsqueue.Refuse(err) // the worker's failing, not the batch's
		}
		return res, err
	}
}
