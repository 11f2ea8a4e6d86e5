package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/evotune/evotune/fitness"
)

// Pool plays a generation's games, a wave of batches at a time. The
// local pool (the default) plays them on this machine's cores; another
// implementation may send them to other machines (see packages natsqueue and natspool).
//
// A generation's games are cut into batches of consecutive games; a
// batch's ID is derived from (run, generation, batch index), so the same
// batch has the same ID after a resume. The engine reduces results in
// batch order once a wave is played, never in the order batches finish,
// so a run's files do not depend on the pool, its workers or their speed.
// A generation may be played in several waves (one per chunk of its game
// list, or per round of a race); a wave's batches are consecutive.
type Pool interface {
	// Play plays every batch of w. It calls w.Done once per batch that
	// finished, as it finishes, possibly from several goroutines at once,
	// and returns after every batch is done or on the first failure. On
	// failure it returns the error of the lowest failing batch it knows
	// of; on cancellation, ctx.Err().
	Play(ctx context.Context, w Wave) error
}

// Wave is a list of batches to play at once.
type Wave struct {
	Batches []*Batch
	// Done receives a finished batch's games as played: one result per
	// game in order, each seen from the game's first player (its score,
	// or its cost in a solo game), and the notes of those a referee said
	// something of. It may be called concurrently.
	Done func(b *Batch, p Played)
	// Games, when not nil, is told how many of the wave's games are
	// finished so far; it may be called concurrently.
	Games func(done int)
	// Log notes what a pool did that the user may want to know (a
	// result ignored, a batch retried) in run.log.
	Log func(format string, args ...any)
}

// Batch is one work unit: consecutive games of one generation.
type Batch struct {
	ID    string // "<run>.<generation>.<index>": the same after a resume
	Gen   int    // generation, from 0
	Index int    // position in the generation, from 0
	First int    // the generation's number of its first game, from 0
	jobs  []job
	in    *evalState
}

// Games is how many games the batch holds.
func (b *Batch) Games() int { return len(b.jobs) }

// Program says the batch's games are played by an outside program or
// by UCI engines, which a worker plays only when allowed to
// (natspool.Worker.AllowPrograms).
func (b *Batch) Program() bool {
	if b.in == nil {
		return false
	}
	r := b.in.r
	return r.program != nil || (r.engines != nil && len(r.engines.byName) > 0)
}

// evalState is what the batches of one generation share: the players
// they are played by.
type evalState struct {
	r       *runner
	gen     int
	players [][]fitness.Player
	hof     [][]fitness.Player
	hofOf   [][]Member // each species' hall of fame, as genes
	genomes [][][]float64
}

// DefaultBatchGames is how many games a batch holds unless
// Options.BatchGames says otherwise: fitness.BatchSize, so a game that
// plays batches (an outside program) gets the same batches as before.
const DefaultBatchGames = fitness.BatchSize

// MaxBatchGames bounds Options.BatchGames.
const MaxBatchGames = 1 << 16

// autoBatchGames is the size of a generation's batches on a pool other
// than the local one when Options.BatchGames is 0: the generation's
// games cut into about 64 batches (enough for a few dozen workers to
// share evenly), rounded up to a multiple of DefaultBatchGames, at least
// DefaultBatchGames and at most 1024, so a generation of many fast games
// is not cut into hundreds of batches whose cost in messages would rival
// their games'. It depends on the number of games alone, never on
// timing, so a resumed generation is cut as it was the first time.
func autoBatchGames(games int) int {
	per := (games + 63) / 64
	per = (per + DefaultBatchGames - 1) / DefaultBatchGames * DefaultBatchGames
	return min(max(per, DefaultBatchGames), 1024)
}

// localPool plays batches on this process's goroutines.
type localPool struct{ workers int }

// LocalPool returns the pool that plays games on up to workers goroutines
// of this process: what Options.Pool nil means.
func LocalPool(workers int) Pool { return localPool{workers: max(1, workers)} }

func (p localPool) Play(ctx context.Context, w Wave) error {
	if len(w.Batches) == 0 {
		return ctx.Err()
	}
	st := w.Batches[0].in
	r := st.r
	_, batches := r.game.(fitness.Batcher)
	_, soloBatches := r.game.(fitness.SoloBatcher)
	if batches || soloBatches {
		// A game that plays batches (an outside program, pipelined) runs
		// its own goroutines; its failures come back as errors.
		var games atomic.Int64
		_, err := fitness.Parallel(ctx, len(w.Batches), p.workers, func(i int) (struct{}, error) {
			b := w.Batches[i]
			res, err := r.play(ctx, b.jobs, st.players, nil)
			if err != nil {
				return struct{}{}, err
			}
			w.Done(b, res)
			if w.Games != nil {
				w.Games(int(games.Add(int64(len(b.jobs)))))
			}
			return struct{}{}, nil
		}, nil)
		return err
	}
	// Games are handed out one by one across the wave's batches, so a
	// wave of few batches still keeps every worker busy; a batch is done
	// when its last game is.
	type slot struct {
		b   *Batch
		off int
	}
	var slots []slot
	for _, b := range w.Batches {
		for k := range b.jobs {
			slots = append(slots, slot{b, k})
		}
	}
	left := make([]atomic.Int64, len(w.Batches))
	results := make([][]float64, len(w.Batches))
	notes := make([][]*Note, len(w.Batches))
	where := make(map[*Batch]int, len(w.Batches))
	for i, b := range w.Batches {
		left[i].Store(int64(len(b.jobs)))
		results[i] = make([]float64, len(b.jobs))
		notes[i] = make([]*Note, len(b.jobs))
		where[b] = i
	}
	var trap panicTrap
	_, err := fitness.Parallel(ctx, len(slots), p.workers, func(i int) (x float64, err error) {
		s := slots[i]
		defer trap.recover(s.b.jobs[s.off].seed, &x)
		var n *Note
		x, n, err = r.playOne(ctx, s.b.jobs[s.off], st.players)
		if err != nil {
			return x, err
		}
		k := where[s.b]
		results[k][s.off] = x
		if n != nil {
			n.Game = s.off
			notes[k][s.off] = n
		}
		if left[k].Add(-1) == 0 {
			played := Played{Results: results[k]}
			for _, n := range notes[k] {
				if n != nil {
					played.Notes = append(played.Notes, *n)
				}
			}
			w.Done(s.b, played)
		}
		return x, nil
	}, w.Games)
	if trap.err != nil {
		return &panicked{trap.err, trap.stack}
	}
	return err
}

// panicked is a game's panic caught by the local pool, with its stack for
// run.log.
type panicked struct {
	err   error
	stack []byte
}

func (p *panicked) Error() string { return p.err.Error() }
func (p *panicked) Unwrap() error { return p.err }

// playWave plays batches through the run's pool and adds their results
// to stats in batch order. Batches the journal already holds are not
// played again.
func (r *runner) playWave(ctx context.Context, st *evalState, wave []*Batch, played int, stats [][][nModes]modeStats) error {
	results := make([][]float64, len(wave))
	notes := make([][]Note, len(wave))
	var todo []*Batch
	replayed := 0
	for i, b := range wave {
		if res, ok := r.journal.Lookup(b.Index, len(b.jobs)); ok {
			ns, err := decodeNotes(r.journal.Notes(b.Index), len(b.jobs))
			if err == nil {
				err = r.checkResults(b, res)
			}
			if err == nil {
				results[i], notes[i] = res, ns
				replayed += len(res)
				continue
			}
			r.logf("generation %d: the journal's line for batch %s is not played again from: %v", st.gen+1, b.ID, err)
		}
		todo = append(todo, b)
	}
	r.replayed += replayed
	pos := make(map[*Batch]int, len(wave))
	for i, b := range wave {
		pos[b] = i
	}
	w := Wave{Batches: todo, Done: func(b *Batch, p Played) {
		if len(p.Results) != len(b.jobs) || checkNotes(p.Notes, len(b.jobs)) != nil {
			return // a pool's defect; reported below as a missing batch
		}
		results[pos[b]], notes[pos[b]] = p.Results, p.Notes
		if r.checkResults(b, p.Results) == nil { // otherwise the generation fails below
			r.journal.AppendNotes(b.Index, p.Results, encodeNotes(p.Notes))
		}
	}}
	w.Log = func(format string, args ...any) {
		r.logf("generation %d: "+format, append([]any{st.gen + 1}, args...)...)
	}
	if r.progress != nil {
		base := played + replayed
		r.progress.Games(base)
		w.Games = func(done int) { r.progress.Games(base + done) }
	}
	err := r.pool.Play(ctx, w)
	var pe *panicked
	switch {
	case errors.As(err, &pe):
		r.logf("generation %d: %v\n%s", st.gen+1, pe.err, pe.stack)
		return fmt.Errorf("engine: generation %d: %w; the generation is not checkpointed", st.gen+1, pe.err)
	case errors.Is(err, context.Canceled):
		return err
	case err != nil:
		return fmt.Errorf("engine: generation %d: %w", st.gen+1, err)
	}
	if jerr := r.journal.Failure(); jerr != nil {
		return jerr
	}
	for i, b := range wave {
		if results[i] == nil {
			return fmt.Errorf("engine: generation %d: the pool returned no results for batch %s", st.gen+1, b.ID)
		}
		if err := r.checkResults(b, results[i]); err != nil {
			return fmt.Errorf("engine: generation %d: %w; the generation is not checkpointed", st.gen+1, err)
		}
	}
	for i, b := range wave {
		r.noted(b, notes[i])
		for k, j := range b.jobs {
			x := results[i][k]
			if r.rated != nil {
				r.rated.record(j, x)
			}
			if r.race != nil {
				r.race.record(j, x)
			}
			if j.solo {
				stats[j.sp][j.a][j.mode].add(x)
			} else {
				stats[j.sp][j.a][j.mode].addPaired(x, j.swap)
			}
			switch {
			case j.between:
				stats[j.bsp][j.b][j.mode].add(x) // the cost counts for both roles (the rivals maximise it)
			case j.b >= 0:
				stats[j.bsp][j.b][j.mode].addPaired(1-x, j.swap)
			}
		}
	}
	return nil
}

// playChunk plays jobs outside a generation (re-measuring the best) on
// this process's local pool, without the journal, and adds their results
// to stats in job order.
func (r *runner) playChunk(ctx context.Context, gen int, chunk []job, played int, players [][]fitness.Player, stats [][][nModes]modeStats) error {
	st := &evalState{r: r, gen: gen, players: players}
	var wave []*Batch
	for k := 0; k < len(chunk); k += r.batchGames {
		wave = append(wave, &Batch{ID: fmt.Sprintf("%s.extra.%d", r.runID(), (played+k)/r.batchGames), Gen: gen, Index: k / r.batchGames,
			First: played + k, jobs: chunk[k:min(len(chunk), k+r.batchGames)], in: st})
	}
	pool, jn := r.pool, r.journal
	r.pool, r.journal = LocalPool(r.workers), nil
	defer func() { r.pool, r.journal = pool, jn }()
	return r.playWave(ctx, st, wave, played, stats)
}
