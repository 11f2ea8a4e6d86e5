package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/cputime"
)

// Budget is the games a config's run plays, counted from the config alone.
type Budget struct {
	Generations int `json:"generations"`
	// First is the games of generation 1, which meets no hall of fame
	// yet; Later the games of each later generation once the hall of
	// fame is full (before, fewer).
	First int `json:"first_generation"`
	Later int `json:"later_generations"`
	// Remeasure is the games of the end of the run (the remeasure, on by
	// default): the best ranked on fresh deals, the winner measured again.
	Remeasure int `json:"remeasure"`
	// Total is every game of the run.
	Total int64 `json:"total"`
	// AtMost says Total is an upper bound: racing stops the games of
	// clear losers early, and a hall of fame that a generation cannot
	// fill at once fills only with distinct genomes.
	AtMost bool `json:"at_most"`
}

// BudgetOf counts the games of a run given a budget of generations
// (run --generations; 0: the config's), refusing one the model cannot
// plan, as run refuses it.
func (s *Setup) BudgetOf(generations int) (Budget, error) {
	if err := s.checkBudget(generations); err != nil {
		return Budget{}, err
	}
	if generations == 0 {
		generations = s.cfg.Evolution.Generations
	}
	return s.budget(generations), nil
}

func (s *Setup) budget(generations int) Budget {
	r := &runner{Setup: s}
	// A model that plays its own pairs (model.Pairer) decides the
	// population mode's games; a valid config's models start.
	if r.startModels() == nil {
		defer r.closeModels()
	}
	// A generation's whole pool enters the hall of fame, so after g
	// generations it holds at most the genomes they made (fewer where
	// genomes repeat), up to its size; the hall-of-fame mode meets the
	// first members of it.
	capacity := s.cfg.Evolution.HallOfFame
	if s.cfg.Fitness.HallOfFame.Weight > 0 {
		capacity = min(capacity, s.cfg.Fitness.HallOfFame.Members)
	}
	// A generation's games depend on its size and the hall of fame it
	// meets alone (gen enters only the deals, not their number), so each
	// pair is counted once: a long budget costs a loop, not a schedule a
	// generation.
	type shape struct{ size, hof int }
	counted := map[shape]int{}
	gamesAt := func(gen, size, hofSize int) int {
		if n, ok := counted[shape{size, hofSize}]; ok {
			return n
		}
		sizes := make([]int, len(s.species))
		hof := make([][]fitness.Player, len(s.species))
		for s := range sizes {
			sizes[s] = size
			hof[s] = make([]fitness.Player, hofSize)
		}
		n := r.scheduleEach(gen, sizes, hof, nil)
		counted[shape{size, hofSize}] = n
		return n
	}
	b := Budget{Generations: generations, AtMost: s.cfg.Racing != nil}
	made := 0 // genomes made by the generations before gen
	for gen := range b.Generations {
		size := s.cfg.Evolution.Size(gen)
		hofSize := min(capacity, made)
		n := gamesAt(gen, size, hofSize)
		switch gen {
		case 0:
			b.First = n
		default:
			b.Later = n
			b.AtMost = b.AtMost || hofSize < capacity && s.cfg.Fitness.HallOfFame.Weight > 0
		}
		b.Total += int64(n)
		made = min(made+size, capacity) // no more than the hall of fame holds matters
	}
	b.Remeasure = s.endGames(b.Generations)
	b.Total += int64(b.Remeasure)
	return b
}

// genomesMade is how many genomes a run's first generations make, up to
// at most (the hall of fame holds no more).
func (s *Setup) genomesMade(generations, most int) int {
	made := 0
	for gen := 0; gen < generations && made < most; gen++ {
		made += s.cfg.Evolution.Size(gen)
	}
	return min(made, most)
}

// Timing is what a sample of a config's games cost on this machine.
type Timing struct {
	Games int `json:"games"` // games timed
	// Mean is a game's cost over the sample, SE the standard error of
	// that mean.
	Mean time.Duration `json:"mean_ns"`
	SE   time.Duration `json:"se_ns"`
	// CPU says the cost is CPU time of this process (every thread, the
	// garbage collector's too). Otherwise it is wall time: for an outside
	// program, whose work is in processes of its own, timed over batches
	// played through one process as a run pipelines them; and where the
	// system has no CPU clock.
	CPU bool `json:"cpu"`
	// AtLeast is set when not one game finished within the sample's wall
	// time: a game costs at least that.
	AtLeast time.Duration `json:"at_least_ns,omitempty"`
	// Generation is the generation whose games were timed, from 1: the
	// first, or the second when the first plays none (a hall of fame
	// alone, empty until the first generation ends).
	Generation int `json:"generation"`
}

// Estimate is the cost of games of the sample's kind with its 95%
// interval from the sample's spread (the uncertainty of the sample, not
// of the players evolution will find, which may be faster or slower).
// With no game timed, all three are the least it costs (AtLeast each).
func (t Timing) Estimate(games int64) (mid, lo, hi time.Duration) {
	n := float64(games)
	if t.Games == 0 {
		at := time.Duration(n * float64(t.AtLeast))
		return at, at, at
	}
	half := 1.959963984540054 * float64(t.SE)
	m := float64(t.Mean)
	return time.Duration(n * m), time.Duration(n * max(0, m-half)), time.Duration(n * (m + half))
}

// Sample limits of TimeGames.
const (
	sampleGames = 5000             // games timed at most
	sampleWall  = 5 * time.Second  // wall time at most; a game then in play is cut short and not counted
	sampleUnits = 20               // units timed at least, cost permitting
	sampleUnit  = 16               // built-in games timed together, so reading the clock costs nothing of note
	sampleSeed  = 0x7e57a11c0ffee1 // orders the sample; any fixed value
)

// TimeGames plays a sample of the config's first generation and times it
// until it has spent budget, about: up to sampleGames games spread over
// the whole schedule (every mode, individual and opponent), played in a
// shuffled order so that a sample cut short is still spread, after one
// unit untimed that builds what a game builds once (tables, an outside
// program's process). Built-in games are played as the local pool plays
// them, one game a call (not through a batch's machinery, which costs a
// short game more than the game), timed sampleUnit at a time in CPU
// time; an outside program's in batches, pipelined as a run plays them,
// in wall time. The games are the run's own (its seeds and random
// genomes, its deals), played and thrown away.
func TimeGames(ctx context.Context, s *Setup, budget time.Duration) (_ Timing, err error) {
	defer func() {
		// A game that panics is a defect the run reports with its seed;
		// here it is one line, not a stack trace.
		if v := recover(); v != nil {
			err = fmt.Errorf("engine: timing the games: %w: %v", errGamePanicked, v)
		}
	}()
	r := &runner{Setup: s, workers: 1}
	if err := r.startModels(); err != nil {
		return Timing{}, err
	}
	defer r.closeModels()
	pools, err := r.ask(0)
	if err != nil {
		return Timing{}, err
	}
	players := make([][]fitness.Player, len(pools))
	for i, sp := range s.species {
		for _, genes := range pools[i] {
			p, err := r.player(sp, genes)
			if err != nil {
				return Timing{}, err
			}
			players[i] = append(players[i], p)
		}
	}
	sizes := make([]int, len(pools))
	for s := range pools {
		sizes[s] = len(pools[s])
	}
	hof := make([][]fitness.Player, len(pools))
	total := r.scheduleEach(0, sizes, hof, nil)
	second := false
	if total == 0 {
		// A first generation that plays nothing (a hall of fame alone,
		// empty until it ends): the games of the next, against a hall
		// of fame of the first generation's members.
		for i := range hof {
			hof[i] = players[i][:min(len(players[i]), r.cfg.Fitness.HallOfFame.Members)]
		}
		total = r.scheduleEach(0, sizes, hof, nil)
		second = true
	}
	step := max(1, total/sampleGames)
	var jobs []job
	i := 0
	r.scheduleEach(0, sizes, hof, func(j job) bool {
		if i%step == 0 {
			jobs = append(jobs, j)
		}
		i++
		return len(jobs) < sampleGames
	})
	rng := fitness.NewRand(sampleSeed)
	rng.Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })

	// The CPU of outside processes (a program, engines) is not this
	// process's: they are timed by the clock.
	t := Timing{CPU: s.program == nil && s.engines == nil && cputime.ProcessSupported(), Generation: 1}
	if second {
		t.Generation = 2
	}
	clock := cputime.Process
	unit := 1
	if !t.CPU {
		start := time.Now()
		clock = func() time.Duration { return time.Since(start) }
	}
	if s.program != nil {
		unit = DefaultBatchGames
	} else {
		unit = sampleUnit
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, sampleWall)
	defer cancel()
	var costs []float64 // a game's mean cost in each unit
	spent := time.Duration(0)
	for k := 0; k < len(jobs); k += unit {
		if len(costs) >= sampleUnits && spent >= budget {
			break
		}
		batch := jobs[k:min(k+unit, len(jobs))]
		before := clock()
		if s.program != nil {
			_, err = r.play(ctx, batch, players, nil)
		} else {
			for _, j := range batch {
				if _, _, err = r.playOne(ctx, j, players); err != nil {
					break
				}
			}
		}
		cost := clock() - before
		if err != nil {
			if parent.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				if t.Games == 0 {
					t.AtLeast = sampleWall
				}
				break
			}
			return Timing{}, err
		}
		if k == 0 && len(jobs) > unit {
			continue // the warm-up, untimed
		}
		spent += cost
		costs = append(costs, float64(cost)/float64(len(batch)))
		t.Games += len(batch)
	}
	if len(costs) > 0 {
		mean, sd := fitness.MeanSD(costs)
		t.Mean, t.SE = time.Duration(mean), time.Duration(sd/math.Sqrt(float64(len(costs))))
	}
	return t, parent.Err()
}
