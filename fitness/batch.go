package fitness

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
)

// Match is one game of a batch: A takes the first seat, B the second (the
// opponent of a solo game; nil when it has none).
type Match struct {
	A, B Player
	Seed uint64
}

// Batcher is implemented by games that play many games at once more
// cheaply than one at a time: an outside program pipelines a batch's
// requests instead of waiting for each reply. PlayBatch plays ms as Play
// would, one by one, and returns the outcomes in order; on failure its
// error is that of the lowest failing match, naming its seed (Seeded).
type Batcher interface {
	PlayBatch(ctx context.Context, ms []Match) ([]Outcome, error)
}

// SoloBatcher is Batcher for solo games: PlaySoloBatch plays ms as
// PlaySolo would and returns the costs in order.
type SoloBatcher interface {
	PlaySoloBatch(ctx context.Context, ms []Match) ([]float64, error)
}

// BatchSize is how many games a batch holds. It is fixed, not derived
// from the worker count, so which games share a batch, and so which error
// a failing run reports, is the same at any worker count.
const BatchSize = 64

// PlayMatches plays every match on up to workers goroutines, in batches
// when g is a Batcher, and returns the outcomes in order. Like Parallel,
// it returns the error of the lowest failing match (of the lowest failing
// batch, for a Batcher) and starts no game after it.
func PlayMatches(ctx context.Context, g Game, ms []Match, workers int, progress func(done int)) ([]Outcome, error) {
	if b, ok := g.(Batcher); ok {
		return batched(ctx, ms, workers, progress, b.PlayBatch)
	}
	return Parallel(ctx, len(ms), workers, func(i int) (o Outcome, err error) {
		m := ms[i]
		defer func() { err = Failed(m.Seed, err) }()
		defer catchPanic(&err)
		return g.Play(ctx, m.A, m.B, m.Seed)
	}, progress)
}

// PlaySoloMatches is PlayMatches for solo games: it returns the costs of
// the matches' A players. A cost the game's rules rule out (Solo.Admits:
// below 0, past MaxCost or the game's own bounds, a fraction of a whole
// measure), which an outside program can send, fails its game with
// ErrImpossibleCost, naming its seed, wherever it is played: eval, sprt
// and compare read costs only from here.
func PlaySoloMatches(ctx context.Context, g SoloGame, ms []Match, workers int, progress func(done int)) ([]float64, error) {
	solo := g.Solo()
	if b, ok := g.(SoloBatcher); ok {
		return batched(ctx, ms, workers, progress, func(ctx context.Context, batch []Match) ([]float64, error) {
			costs, err := b.PlaySoloBatch(ctx, batch)
			if err != nil {
				return costs, err
			}
			for k, cost := range costs[:min(len(costs), len(batch))] {
				if err := solo.check(cost); err != nil {
					return costs, Failed(batch[k].Seed, err)
				}
			}
			return costs, nil
		})
	}
	return Parallel(ctx, len(ms), workers, func(i int) (cost float64, err error) {
		m := ms[i]
		defer func() { err = Failed(m.Seed, err) }()
		defer catchPanic(&err)
		cost, err = g.PlaySolo(ctx, m.A, m.B, m.Seed)
		if err == nil {
			err = solo.check(cost)
		}
		return cost, err
	}, progress)
}

// ErrImpossibleCost is a solo game's cost that its rules rule out.
var ErrImpossibleCost = errors.New("not a cost the game gives")

// check refuses a cost s does not admit.
func (s Solo) check(cost float64) error {
	if s.Admits(cost) {
		return nil
	}
	measure := s.Measure
	if measure == "" {
		measure = "cost"
	}
	return fmt.Errorf("%s %v: %w (want %s)", measure, cost, ErrImpossibleCost, s.Bounds())
}

func batched[T any](ctx context.Context, ms []Match, workers int, progress func(int), play func(context.Context, []Match) ([]T, error)) ([]T, error) {
	n := (len(ms) + BatchSize - 1) / BatchSize
	var done atomic.Int64
	parts, err := Parallel(ctx, n, workers, func(b int) ([]T, error) {
		batch := ms[b*BatchSize : min(len(ms), (b+1)*BatchSize)]
		out, err := playBatchSafely(ctx, batch, play)
		if err != nil {
			return nil, failedBatch(batch, err)
		}
		if len(out) != len(batch) {
			return nil, fmt.Errorf("fitness: a batch of %d games gave %d results", len(batch), len(out))
		}
		if progress != nil {
			progress(int(done.Add(int64(len(batch)))))
		}
		return out, nil
	}, nil)
	out := make([]T, 0, len(ms))
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, err
}

// PanicError is a panic of a game or a player, caught where the game was
// played: a defect in one game stops the evaluation with an error (a
// runtime failure, exit 1, naming the game's seed) instead of crashing
// the process with a stack trace.
type PanicError struct {
	Value any
	Stack []byte // where it panicked, for a log
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// catchPanic, deferred, turns a panic into *err.
func catchPanic(err *error) {
	if p := recover(); p != nil {
		*err = &PanicError{Value: p, Stack: debug.Stack()}
	}
}

func playBatchSafely[T any](ctx context.Context, batch []Match, play func(context.Context, []Match) ([]T, error)) (out []T, err error) {
	defer catchPanic(&err)
	return play(ctx, batch)
}

// failedBatch says which batch failed when its error does not name the
// game (Seeded) itself.
func failedBatch(batch []Match, err error) error {
	var seeded Seeded
	if errors.As(err, &seeded) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("fitness: a batch of %d games, the first with seed %d: %w", len(batch), batch[0].Seed, err)
}
