package engine

import (
	"fmt"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/internal/fileio"
)

// The upper limits of a config's sizes, checked by validate (and so by run
// and resume). They are far above any sensible tuning run and chosen so
// that the largest config they admit fits in memory and in a checkpoint of
// at most fileio.MaxCheckpoint bytes; README lists them.
const (
	MaxPopulation  = model.MaxPopulation  // evolution.population
	MaxOffspring   = model.MaxOffspring   // evolution.offspring (down-to-size, which checks it)
	MaxGenerations = model.MaxGenerations // evolution.generations and --generations: the history grows with it
	MaxGames       = 1_000_000            // games per opponent in any fitness mode
	MaxHallOfFame  = model.MaxHallOfFame  // evolution.hall-of-fame, fitness.hall-of-fame.members
	MaxOpponents   = 100                  // listed opponents: fitness.baselines.opponents, coevolve.opponents
	MaxWorkers     = 1_024                // run.workers and --workers
)

// Bytes a checkpoint spends, at most, per gene of a stored genome, per
// member beyond its genes, and per history row: float64s in JSON take at
// most 24 characters, plus separators and indentation.
const (
	checkpointBytesPerGene   = 32
	checkpointBytesPerMember = 160
	checkpointBytesPerRow    = 192
)

// checkLimits refuses sizes above the limits, and configs whose
// checkpoint could outgrow what the checkpoint reader accepts.
func (c *Config) checkLimits(bad func(key, format string, args ...any)) {
	f, e := c.Fitness, c.Evolution
	for _, l := range []struct {
		key   string
		value int
		max   int
	}{
		{"evolution.population", e.Population, MaxPopulation},
		{"evolution.generations", e.Generations, MaxGenerations},
		{"evolution.hall-of-fame", e.HallOfFame, MaxHallOfFame},
		{"fitness.baselines.games", f.Baselines.Games, MaxGames},
		{"fitness.population.games", f.Population.Games, MaxGames},
		{"fitness.hall-of-fame.games", f.HallOfFame.Games, MaxGames},
		{"fitness.hall-of-fame.members", f.HallOfFame.Members, MaxHallOfFame},
		{"fitness.baselines.opponents", len(f.Baselines.Opponents), MaxOpponents},
		{"run.workers", c.Run.Workers, MaxWorkers},
	} {
		if l.value > l.max {
			bad(l.key, "%d: more than the limit of %d", l.value, l.max)
		}
	}
	if c.Coevolve != nil && len(c.Coevolve.Opponents) > MaxOpponents {
		bad("coevolve.opponents", "%d: more than the limit of %d", len(c.Coevolve.Opponents), MaxOpponents)
	}
	if size := c.checkpointBound(); size > fileio.MaxCheckpoint {
		bad("evolution", "its checkpoint could reach %s, more than the limit of %s: lower population, offspring, hall-of-fame or generations",
			fileio.Size(size), fileio.Size(fileio.MaxCheckpoint))
	}
}

// checkpointBound is the most bytes the config's checkpoint can take.
func (c *Config) checkpointBound() int64 {
	e := &c.Evolution
	// A generation's pool: the population, and what the model evaluates
	// beside it (down-to-size's offspring).
	members := int64(min(e.Population, MaxPopulation)) + int64(min(max(0, e.MaxSize()-e.Population), MaxOffspring)) +
		int64(min(e.HallOfFame, MaxHallOfFame))
	rows := int64(min(e.Generations, MaxGenerations))
	var size int64
	genes := 0
	if c.main != nil && c.main.space != nil {
		genes = c.main.space.Len()
	}
	for s := 0; s < 1+btoi(c.Coevolve != nil); s++ {
		g := int64(genes)
		if s == 1 && len(c.species) > 1 {
			g = int64(c.species[len(c.species)-1].space.Len())
		}
		size += members*(g*checkpointBytesPerGene+checkpointBytesPerMember) + rows*checkpointBytesPerRow
	}
	return size + int64(len(c.text)) + 1<<16
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// check refuses options above the limits the config's own keys have.
func (o Options) check() error {
	if o.Generations > MaxGenerations {
		return fmt.Errorf("%w: %d generations, more than the limit of %d", ErrBudget, o.Generations, MaxGenerations)
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return fmt.Errorf("engine: %d workers: want 0 (all cores) to %d", o.Workers, MaxWorkers)
	}
	if o.BatchGames < 0 || o.BatchGames > MaxBatchGames {
		return fmt.Errorf("engine: batches of %d games: want 0 (the default, %d) to %d", o.BatchGames, DefaultBatchGames, MaxBatchGames)
	}
	return nil
}
