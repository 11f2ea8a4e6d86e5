package config

import (
	"fmt"

	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/yamlcheck"
)

// CheckFoundations checks what the rest stands on, changing nothing: a
// game or a program to play it, a player, and program keys only with a
// program. It says whether there is a game to prepare.
func (c *Config) CheckFoundations(p *yamlcheck.Checker) bool {
	bad := p.Report
	if c.Game == "" && len(c.Command) == 0 {
		bad("game", "missing: name a game (see 'evotune games') or the command of a program that plays one")
		return false
	}
	if c.Player == "" {
		bad("player", "missing: name the tunable player")
	}
	if len(c.Command) == 0 {
		for _, key := range []string{"dir", "env", "timeout", "audit", "program-files"} {
			switch {
			case !c.Has(key):
			case key != "audit":
				bad(key, "belongs to a command: (an outside program), and there is none")
			case len(c.Engines) == 0:
				bad(key, "belongs to a command: (an outside program) or engines:, and there is neither")
			}
		}
	}
	return true
}

// Check validates the config's meaning, changing nothing, and records
// every problem in p. b is what engine.Prepare built of its game, on a
// config it prepared (WithGame, Plan); nil checks only what needs no
// game: what depends on the objective, the species or the model's view
// of the run (Evolution.Uses) is left out.
func (c *Config) Check(p *yamlcheck.Checker, b *Built) {
	bad := p.Report
	if b != nil {
		c.checkObjective(bad, &b.Game)
	}
	c.checkFitness(bad, b)
	c.checkEvolution(bad, b)
	c.checkLimits(bad, b)
	c.checkRacing(bad, b)
	c.checkRemeasure(bad, b)
	c.checkStop(bad)
	c.checkRating(bad, b)
	c.checkEngines(bad)
	if !c.nameFromFile && !validName(c.Name) {
		bad("name", "%q: %s: it names the run directory runs/NAME", c.Name, nameRule)
	}
	if c.Run.Workers < 0 {
		bad("run.workers", "%d: want 0 (all cores) or more", c.Run.Workers)
	}
}

// bad reports a problem at a key (yamlcheck.Checker.Report).
type bad = func(key, format string, args ...any)

func (c *Config) checkObjective(bad bad, g *Game) {
	f := &c.Fitness
	if !g.HasSolo && f.objective != Score.String() {
		bad("fitness.objective", "%s has no solo measure: use score", c.Game)
	} else if _, err := ParseObjective(f.objective, g.Solo.Measure); err != nil {
		bad("fitness.objective", "%s", err)
		return
	}
	if f.Objective == Score && !g.HeadToHead {
		bad("fitness.objective", "%s has no head-to-head play: use %s", c.Game, g.Solo.Measure)
	}
}

func (c *Config) checkFitness(bad bad, b *Built) {
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
	if b != nil && !c.checkGameModes(bad, &b.Game) {
		return
	}
	if f.Population.Weight > 0 && f.Population.Opponents < 1 {
		bad("fitness.population.opponents", "%d: want at least 1", f.Population.Opponents)
	}
	if f.HallOfFame.Weight > 0 && f.HallOfFame.Members < 1 {
		bad("fitness.hall-of-fame.members", "%d: want at least 1", f.HallOfFame.Members)
	}
}

// checkGameModes checks the fitness modes against the game g and the
// objective; false ends checkFitness (what it would check next was said
// already, or does not apply).
func (c *Config) checkGameModes(bad bad, g *Game) bool {
	f := c.Fitness
	if f.Objective == Solo && c.Coevolve == nil {
		against := "measured alone"
		if g.Solo.Opponent != "" {
			against = fmt.Sprintf("measured against %vs", g.Solo.Opponent)
		}
		if f.Population.Weight > 0 {
			bad("fitness.population", "the %s objective is %s: population games need the score objective", g.Solo.Measure, against)
		}
		if f.HallOfFame.Weight > 0 {
			bad("fitness.hall-of-fame", "the %s objective is %s: hall-of-fame games need the score objective", g.Solo.Measure, against)
		}
	}
	if f.Baselines.Weight > 0 {
		opps := f.Baselines.Opponents
		if f.Objective == Solo && !g.HasSolo {
			return false // said already: the game has no solo measure
		}
		switch {
		case f.Objective == Solo && g.Solo.Opponent == "":
			if len(opps) > 0 {
				bad("fitness.baselines.opponents", "%s games of %s have no opponent: leave this out", g.Solo.Measure, c.Game)
			}
			return false
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
	return true
}

func (c *Config) checkEvolution(bad bad, b *Built) {
	e := &c.Evolution
	if b != nil {
		e.Check(c.Has, bad)
	} else {
		// The models' own checks see what the rest of the config asks of
		// the run (Uses), which takes the game.
		e.CheckWritten(c.Has, bad)
	}
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
	if b != nil && b.Main.Seeds > e.Population {
		bad("seeds", "%s for a population of %d", english.Count(b.Main.Seeds, "seed"), e.Population)
	}
}
