package config

import (
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
	// MaxMemberGames bounds the games a checkpoint may say a member
	// pooled: far above what any run plays (a generation's games per
	// individual over every generation), so adding a generation's games
	// can never overflow into negative games.
	MaxMemberGames = 1 << 53
)

// Bytes a checkpoint spends, at most, per gene of a stored genome, per
// member beyond its genes, and per history row beyond its best's genes
// (the model's own state says its own, model.Settings.StateBound):
// float64s in JSON take at most 24 characters, plus separators and
// indentation.
const (
	CheckpointBytesPerGene   = 32
	CheckpointBytesPerMember = 160
	CheckpointBytesPerRow    = 192
)

// checkLimits refuses sizes above the limits, and, once the species are
// built (b), configs whose checkpoint could outgrow what the checkpoint
// reader accepts.
func (c *Config) checkLimits(bad bad, b *Built) {
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
	if b == nil {
		return
	}
	if size := c.CheckpointBound(b); size > fileio.MaxCheckpoint {
		bad("evolution", "its checkpoint could reach %s, more than the limit of %s: lower population, offspring, hall-of-fame or generations",
			fileio.Size(size), fileio.Size(fileio.MaxCheckpoint))
	}
}

// CheckpointBound is the most bytes the checkpoint of a run of the
// config can take, with the species b says were built.
func (c *Config) CheckpointBound(b *Built) int64 {
	e := &c.Evolution
	// A generation's pool: the population, and what the model evaluates
	// beside it (down-to-size's offspring).
	members := int64(min(e.Population, MaxPopulation)) + int64(min(max(0, e.MaxSize()-e.Population), MaxOffspring)) +
		int64(min(e.HallOfFame, MaxHallOfFame))
	rows := int64(min(e.Generations, MaxGenerations))
	var size int64
	for s := 0; s < 1+btoi(c.Coevolve != nil); s++ {
		g := int64(b.Main.Genes)
		if s == 1 && len(b.Evolved) > 1 {
			g = int64(b.Evolved[len(b.Evolved)-1].Genes)
		}
		// A history row keeps the generation's best genes; the model's
		// state may grow with the generations (CMA-ES's told figures).
		size += members*(g*CheckpointBytesPerGene+CheckpointBytesPerMember) + rows*(CheckpointBytesPerRow+g*CheckpointBytesPerGene)
		size += e.StateBound(int(g))
	}
	return size + int64(len(c.text)) + 1<<16
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
