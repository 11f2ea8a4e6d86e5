package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/yamlcheck"
	"github.com/evotune/evotune/rundir"
	"gopkg.in/yaml.v3"
)

// RemeasureConfig asks for an unbiased figure of the best: when a run
// ends, the Top best of the hall of fame each play Games games against
// every baseline opponent on fresh deals, drawn from a stream of their
// own that selection never saw. The hall of fame's own figures are the
// maximum of many noisy scores, biased towards luck (the winner's curse);
// these are not.
type RemeasureConfig struct {
	Top   int `json:"top"`
	Games int `json:"games"`
}

// Remeasured is the fresh-deal figure of one hall-of-fame member.
type Remeasured struct {
	Rank    int        `json:"rank"` // its place in the hall of fame, from 1
	Genes   []float64  `json:"genes"`
	Fitness float64    `json:"fitness"`
	Games   int        `json:"games"`
	CI95    [2]float64 `json:"ci95"`
}

func (c *Config) decodeRemeasure(d *yamlcheck.Checker) yamlcheck.Reader {
	return func(n *yaml.Node, path string) {
		rc := defaultRemeasure()
		c.Remeasure = &rc
		d.Map(n, path, yamlcheck.Fields{
			"top":   d.Int(&rc.Top),
			"games": d.Int(&rc.Games),
		})
	}
}

// checkRemeasure refuses a remeasure that has nothing fixed to measure
// against, or sizes out of range.
func (c *Config) checkRemeasure(bad func(key, format string, args ...any)) {
	rc := c.Remeasure
	if rc == nil {
		return
	}
	if c.Fitness.Baselines.Weight <= 0 {
		bad("remeasure", "re-measures against the baseline opponents, and fitness.baselines has no weight: give it one, or leave remeasure out")
	}
	if rc.Top < 1 || rc.Top > c.Evolution.HallOfFame {
		bad("remeasure.top", "%d: want from 1 to evolution.hall-of-fame (%d)", rc.Top, c.Evolution.HallOfFame)
	}
	switch {
	case rc.Games < 1:
		bad("remeasure.games", "%d: want at least 1", rc.Games)
	case rc.Games > MaxGames:
		bad("remeasure.games", "%d: more than the limit of %d", rc.Games, MaxGames)
	case c.Fitness.Objective == Score && rc.Games%2 != 0:
		bad("remeasure.games", "%d: want an even number: head-to-head games are played in seat-swapped pairs", rc.Games)
	}
}

// remeasures reports whether species sp is re-measured at the end of a run.
func (r *runner) remeasures(sp *species) bool {
	return r.cfg.Remeasure != nil && len(sp.baselines) > 0
}

// remeasureMissing reports whether a finished checkpoint lacks the figures
// the config asks for (a run killed between its last generation and them
// cannot be, since both are in one checkpoint; an older evotune's can).
func (r *runner) remeasureMissing(ck *Checkpoint) bool {
	for s, st := range ck.states() {
		if r.remeasures(r.cfg.species[s]) && len(st.Remeasured) == 0 {
			return true
		}
	}
	return false
}

// remeasure plays the top of every species' hall of fame on fresh deals
// and records the figures in states. The deals depend on the run's seed
// only, not on the generation the run ended at, so a run resumed with a
// raised budget re-measures as a straight run to that budget does.
func (r *runner) remeasure(ctx context.Context, states []SpeciesState) error {
	// The progress display counts a generation's games; these are not one.
	saved := r.progress
	r.progress = nil
	defer func() { r.progress = saved }()
	// The last generation's race and ratings are done with; these games
	// are not theirs to record.
	r.race, r.rated, r.ratings = nil, nil, nil
	rc := r.cfg.Remeasure
	for s, sp := range r.cfg.species {
		if !r.remeasures(sp) {
			continue
		}
		top := states[s].HallOfFame[:min(rc.Top, len(states[s].HallOfFame))]
		players := make([][]fitness.Player, len(r.cfg.species))
		for _, m := range top {
			p, err := r.player(sp, m.Genes)
			if err != nil {
				return err
			}
			players[s] = append(players[s], p)
		}
		stats := make([][][nModes]modeStats, len(r.cfg.species))
		stats[s] = make([][nModes]modeStats, len(top))
		solo := r.cfg.Fitness.Objective == Solo
		chunk := make([]job, 0, min(jobChunk, len(top)*len(sp.baselines)*rc.Games))
		played := 0
		flush := func() error {
			if len(chunk) == 0 {
				return nil
			}
			if err := r.playChunk(ctx, r.budget-1, chunk, played, players, stats); err != nil {
				return fmt.Errorf("remeasuring the best: %w", err)
			}
			played += len(chunk)
			chunk = chunk[:0]
			return nil
		}
		for i := range top {
			for o, opp := range sp.baselines {
				for g := range rc.Games {
					j := job{sp: s, a: i, b: -1, opp: opp, mode: modeBaselines, solo: solo}
					// The generation slot holds 0 and the purpose is one
					// selection never draws from: these deals are fresh.
					j.seed = r.stream(0, sp.offset+purposeRemeasure, uint64(o), uint64(g))
					if !solo {
						j.seed, j.swap = r.stream(0, sp.offset+purposeRemeasure, uint64(o), uint64(g/2)), g%2 == 1
					}
					chunk = append(chunk, j)
					if len(chunk) == jobChunk {
						if err := flush(); err != nil {
							return err
						}
					}
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		out := make([]Remeasured, len(top))
		for i, m := range top {
			c := combine(m.Genes, 0, stats[s][i], [nModes]float64{modeBaselines: 1})
			if !finite(c.Fitness, c.CI95[0], c.CI95[1]) {
				return fmt.Errorf("engine: remeasuring the best: %w: hall-of-fame member %d%s scored %v", ErrNotFinite, i+1, labelled(sp), c.Fitness)
			}
			if r.cfg.Fitness.Objective == Score {
				c.CI95 = [2]float64{max(0, c.CI95[0]), min(1, c.CI95[1])}
			}
			out[i] = Remeasured{Rank: i + 1, Genes: slices.Clone(m.Genes), Fitness: c.Fitness, Games: c.Games, CI95: c.CI95}
		}
		states[s].Remeasured = out
	}
	return nil
}

// checkRemeasured checks a checkpoint's fresh-deal figures against its
// hall of fame.
func checkRemeasured(prefix string, st SpeciesState, score bool) error {
	for i, m := range st.Remeasured {
		field := fmt.Sprintf("%sremeasured[%d]", prefix, i)
		switch {
		case m.Rank < 1 || m.Rank > len(st.HallOfFame):
			return fmt.Errorf("%s.rank: %d, the hall of fame has %d members", field, m.Rank, len(st.HallOfFame))
		case !slices.Equal(m.Genes, st.HallOfFame[m.Rank-1].Genes):
			return fmt.Errorf("%s.genes: not those of hall-of-fame member %d", field, m.Rank)
		case m.Games < 1:
			return fmt.Errorf("%s.games: %d", field, m.Games)
		case !finite(m.Fitness) || m.Fitness < 0 || score && m.Fitness > 1:
			return fmt.Errorf("%s.fitness: %v is out of range", field, m.Fitness)
		case !finite(m.CI95[0], m.CI95[1]) || m.CI95[0] > m.Fitness || m.CI95[1] < m.Fitness:
			return fmt.Errorf("%s.ci95: [%v, %v] does not hold its fitness %v", field, m.CI95[0], m.CI95[1], m.Fitness)
		}
	}
	return nil
}

// finishRemeasure adds the missing figures to a finished run's checkpoint.
func (r *runner) finishRemeasure(ctx context.Context, ck *Checkpoint) error {
	states := ck.states()
	if err := r.remeasure(ctx, states); err != nil {
		return err
	}
	ck.SpeciesState = states[0]
	if len(states) > 1 {
		ck.Rivals = &states[1]
	}
	data, err := ck.encode()
	if err != nil {
		return err
	}
	r.logf("remeasured the best of the finished run on fresh deals")
	return r.writeFile(rundir.CheckpointFile, data)
}

// spendingSummary is what validate says of racing, ratings and the
// remeasure: nothing for a config without them.
func (c *Config) spendingSummary() string {
	var s string
	if rc := c.Racing; rc != nil {
		s += fmt.Sprintf("  racing: %s at confidence %g, keeping the best %d\n", english.Count(rc.Rounds, "round"), rc.Confidence, c.Evolution.Kept())
	}
	if c.rates() {
		s += "  population mode rated by Bradley-Terry; the hall of fame admits by rating\n"
	}
	if rc := c.Remeasure; rc != nil {
		s += fmt.Sprintf("  remeasure: the best %d on %d fresh games per baseline opponent at the end\n", rc.Top, rc.Games)
	}
	return s
}
