package engine

import (
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// checkFoundations checks what the rest stands on, changing nothing: a
// game or a program to play it, a player, and program keys only with a
// program. It says whether there is a game to prepare.
func (c *Config) checkFoundations(p *yamlcheck.Checker) bool {
	bad := func(key, format string, args ...any) { p.Add(p.Line(key), key, format, args...) }
	if c.Game == "" && len(c.Command) == 0 {
		bad("game", "missing: name a game (see 'evotune games') or the command of a program that plays one")
		return false
	}
	if c.Player == "" {
		bad("player", "missing: name the tunable player")
	}
	if len(c.Command) == 0 {
		for _, key := range []string{"dir", "env", "timeout", "audit"} {
			if c.has(key) {
				bad(key, "belongs to a command: (an outside program), and there is none")
			}
		}
	}
	return true
}

// check validates the prepared config's meaning, changing nothing, and
// records every problem.
func (c *Config) check(p *yamlcheck.Checker) {
	bad := func(key, format string, args ...any) { p.Add(p.Line(key), key, format, args...) }
	c.checkObjective(bad)
	c.checkFitness(bad)
	c.checkEvolution(bad)
	c.checkLimits(bad)
	c.checkRacing(bad)
	c.checkRemeasure(bad)
	c.checkStop(bad)
	c.checkRating(bad)
	if !c.nameFromFile && !validName(c.Name) {
		bad("name", "%q: %s: it names the run directory runs/NAME", c.Name, nameRule)
	}
	if c.Run.Workers < 0 {
		bad("run.workers", "%d: want 0 (all cores) or more", c.Run.Workers)
	}
}

func (c *Config) checkObjective(bad func(key, format string, args ...any)) {
	f := &c.Fitness
	if !c.hasSolo && f.objective != Score.String() {
		bad("fitness.objective", "%s has no solo measure: use score", c.Game)
	} else if _, err := ParseObjective(f.objective, c.solo.Measure); err != nil {
		bad("fitness.objective", "%s", err)
		return
	}
	if f.Objective == Score && !fitness.HasHeadToHead(c.game) {
		bad("fitness.objective", "%s has no head-to-head play: use %s", c.Game, c.solo.Measure)
	}
}

func (c *Config) checkFitness(bad func(key, format string, args ...any)) {
	f := c.Fitness
	for _, m := range []struct {
		key    string
		weight float64
		games  int
	}{
		{"fitness.baselines", f.Baselines.Weight, f.Baselines.Games},
		{"fitness.population", f.Population.Weight, f.Population.Games},
		{"fitness.hall-of-fame", f.HallOfFame.Weight, f.HallOfFame.Games},
	} {
		if m.weight < 0 {
			bad(m.key+".weight", "%v: want 0 or more", m.weight)
		}
		if m.weight > 0 && m.games < 1 {
			bad(m.key+".games", "%d: want at least 1", m.games)
		}
	}
	if f.Baselines.Weight+f.Population.Weight+f.HallOfFame.Weight <= 0 {
		bad("fitness", "no fitness mode has a positive weight")
	}
	if c.Coevolve != nil && f.Population.Weight <= 0 && f.HallOfFame.Weight <= 0 {
		bad("fitness", "co-evolving species meet only through the population or hall-of-fame modes: give one a weight")
	}
	if f.Objective == Solo && c.game != nil && c.Coevolve == nil {
		against := "measured alone"
		if c.solo.Opponent != "" {
			against = fmt.Sprintf("measured against %vs", c.solo.Opponent)
		}
		if f.Population.Weight > 0 {
			bad("fitness.population", "the %s objective is %s: population games need the score objective", c.solo.Measure, against)
		}
		if f.HallOfFame.Weight > 0 {
			bad("fitness.hall-of-fame", "the %s objective is %s: hall-of-fame games need the score objective", c.solo.Measure, against)
		}
	}
	if f.Baselines.Weight > 0 && c.game != nil {
		opps := f.Baselines.Opponents
		if f.Objective == Solo && !c.hasSolo {
			return // said already: the game has no solo measure
		}
		switch {
		case f.Objective == Solo && c.solo.Opponent == "":
			if len(opps) > 0 {
				bad("fitness.baselines.opponents", "%s games of %s have no opponent: leave this out", c.solo.Measure, c.Game)
			}
			return
		case f.Objective == Solo:
		case len(opps) == 0:
			bad("fitness.baselines.opponents", "missing: name the players every individual meets")
		}
	}
	if f.Objective == Score {
		// Head-to-head games are played in seat-swapped pairs on one deal.
		for _, m := range []struct {
			key    string
			weight float64
			games  int
		}{{"fitness.baselines.games", f.Baselines.Weight, f.Baselines.Games},
			{"fitness.population.games", f.Population.Weight, f.Population.Games},
			{"fitness.hall-of-fame.games", f.HallOfFame.Weight, f.HallOfFame.Games}} {
			if m.weight > 0 && m.games > 0 && m.games%2 != 0 {
				bad(m.key, "%d: want an even number: head-to-head games are played in seat-swapped pairs", m.games)
			}
		}
	}
	if f.Population.Weight > 0 && f.Population.Opponents < 1 {
		bad("fitness.population.opponents", "%d: want at least 1", f.Population.Opponents)
	}
	if f.HallOfFame.Weight > 0 && f.HallOfFame.Members < 1 {
		bad("fitness.hall-of-fame.members", "%d: want at least 1", f.HallOfFame.Members)
	}
}

func (c *Config) checkEvolution(bad func(key, format string, args ...any)) {
	e := &c.Evolution
	e.Check(c.has, bad)
	if c.Fitness.HallOfFame.Weight > 0 && c.Fitness.HallOfFame.Members > e.HallOfFame {
		bad("fitness.hall-of-fame.members", "%d: more than the %d kept (evolution.hall-of-fame)", c.Fitness.HallOfFame.Members, e.HallOfFame)
	}
	if e.Population < 2 {
		return
	}
	if c.Fitness.Population.Weight > 0 && c.Fitness.Population.Opponents > e.Population-1 {
		bad("fitness.population.opponents", "%d: more than the %d others in a population of %d",
			c.Fitness.Population.Opponents, e.Population-1, e.Population)
	}
	if n := len(c.main.starts); n > e.Population {
		bad("seeds", "%s for a population of %d", english.Count(n, "seed"), e.Population)
	}
}
