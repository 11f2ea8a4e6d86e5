package config

import (
	"encoding/json"
	"time"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// Racing races the individuals of a generation: the games against
// fixed opponents (baselines and hall of fame) are played in Rounds
// rounds over common deals, and after each round the individuals that,
// at the given Confidence, cannot reach the set the model keeps (the
// elites of generational, the keep best of natural-selection, the
// surviving parents of down-to-size) are given no more games.
type Racing struct {
	Rounds     int     `json:"rounds"`
	Confidence float64 `json:"confidence"`
}

func (c *Config) decodeRacing(d *yamlcheck.Checker) yamlcheck.Reader {
	return optional(d, &c.Racing, defaultRacing, func(rc *Racing) yamlcheck.Fields {
		return yamlcheck.Fields{"rounds": d.Int(&rc.Rounds), "confidence": d.Number(&rc.Confidence)}
	})
}

// MaxRaceResults bounds the per-game results racing holds for a
// generation (population x raced games per individual): 256 MB.
const MaxRaceResults = 1 << 25

func (c *Config) checkRacing(bad bad, b *Built) {
	rc := c.Racing
	if rc == nil {
		return
	}
	if rc.Rounds < 2 || rc.Rounds > 100 {
		bad("racing.rounds", "%d: want from 2 to 100", rc.Rounds)
	}
	if !(rc.Confidence >= 0.5 && rc.Confidence < 1) {
		bad("racing.confidence", "%v: want a probability from 0.5 up to (not including) 1", rc.Confidence)
	}
	f := c.Fitness
	switch {
	case c.Coevolve != nil:
		bad("racing", "races the individuals of one species: not with co-evolution")
	case f.Baselines.Weight <= 0 && f.HallOfFame.Weight <= 0:
		bad("racing", "races the games against fixed opponents (baselines, hall of fame), and neither mode has a weight")
	case b != nil:
		if n := int64(c.Evolution.MaxSize()) * int64(c.raceSlots(b)); n > MaxRaceResults {
			bad("racing", "holds every raced result of a generation: %d individuals x %d games is more than the limit of %d; lower the population or the games",
				c.Evolution.MaxSize(), c.raceSlots(b), MaxRaceResults)
		}
	}
}

// raceSlots is how many raced games an individual plays in full.
func (c *Config) raceSlots(b *Built) int {
	f := c.Fitness
	n := 0
	if f.Baselines.Weight > 0 && len(b.Evolved) > 0 {
		n += b.Evolved[0].Baselines * min(f.Baselines.Games, MaxGames)
	}
	if f.HallOfFame.Weight > 0 {
		n += min(f.HallOfFame.Members, MaxHallOfFame) * min(f.HallOfFame.Games, MaxGames)
	}
	return n
}

// Remeasure says how a finished run re-measures its best. Unless the
// config says remeasure: off, the Top best of the hall of fame each play
// Games games against every baseline opponent on fresh deals, drawn from
// a stream of their own that selection never saw, and the best of them on
// those deals is the run's recommended player; its figure is then
// measured once more, with the run's starting point beside it, on a
// second fresh sample that chose nothing (the verdict). Without baselines
// the Top meet each other in seat-swapped pairs instead, and the winner
// then meets the starting point. The hall of fame's own figures are the
// maximum of many noisy scores, biased towards luck (the winner's curse);
// picking among Top on one sample brings a little of it back, which the
// second sample removes.
type Remeasure struct {
	Top   int `json:"top"`
	Games int `json:"games"`
	// Off is remeasure: off.
	Off bool `json:"-"`
}

// MarshalJSON writes remeasure: off as "off", so the hash of a config
// that writes {top, games} is what it always was.
func (rc Remeasure) MarshalJSON() ([]byte, error) {
	if rc.Off {
		return []byte(`"off"`), nil
	}
	type plain Remeasure
	return json.Marshal(plain(rc))
}

func (c *Config) decodeRemeasure(d *yamlcheck.Checker) yamlcheck.Reader {
	section := optional(d, &c.Remeasure, DefaultRemeasure, func(rc *Remeasure) yamlcheck.Fields {
		return yamlcheck.Fields{"top": d.Int(&rc.Top), "games": d.Int(&rc.Games)}
	})
	return func(n *yaml.Node, path string) {
		if r := yamlcheck.Resolve(n); r != nil && r.Kind == yaml.ScalarNode && r.Tag != "!!null" {
			if r.Value != "off" && r.Value != "false" {
				d.Add(r.Line, path, "%q: want off, or a mapping of top and games", r.Value)
			}
			rc := DefaultRemeasure()
			rc.Off = true
			c.Remeasure = &rc
			return
		}
		section(n, path)
	}
}

// checkRemeasure refuses a written remeasure that has nothing to measure
// against, or sizes out of range. The default adapts instead.
func (c *Config) checkRemeasure(bad bad, b *Built) {
	rc := c.Remeasure
	if rc == nil || rc.Off {
		return
	}
	if b != nil && c.Fitness.Baselines.Weight <= 0 && c.Fitness.Objective == Solo {
		bad("remeasure", "re-measures a solo measure against the baseline opponents, and fitness.baselines has no weight: give it one, or write remeasure: off")
	}
	if rc.Top < 1 || rc.Top > c.Evolution.HallOfFame {
		bad("remeasure.top", "%d: want from 1 to evolution.hall-of-fame (%d)", rc.Top, c.Evolution.HallOfFame)
	}
	switch {
	case rc.Games < 1:
		bad("remeasure.games", "%d: want at least 1", rc.Games)
	case rc.Games > MaxGames:
		bad("remeasure.games", "%d: more than the limit of %d", rc.Games, MaxGames)
	case b != nil && c.Fitness.Objective == Score && rc.Games%2 != 0:
		bad("remeasure.games", "%d: want an even number: head-to-head games are played in seat-swapped pairs", rc.Games)
	}
}

// Stop ends a run before its generation budget: when the generations'
// mean fitness has stopped improving (Window), or once the run has played
// a budget of Games. Both are read from the run's history alone, after
// each generation, so a run stops at the same generation at any worker
// count and whether or not it was resumed; a clock would not (wall time
// depends on the machine), so there is no time budget.
type Stop struct {
	// Window is the number of generations whose mean fitness the trend
	// is fitted to; 0 means no trend rule.
	Window int `json:"window"`
	// Confidence is how sure the trend must be of an improvement for the
	// run to go on (one-sided, Student's t on the trend's scatter).
	Confidence float64 `json:"confidence"`
	// Games ends the run after the generation that brings its games to
	// at least this many; 0 means no such budget.
	Games int `json:"games,omitempty"`
}

func (c *Config) decodeStop(d *yamlcheck.Checker) yamlcheck.Reader {
	return optional(d, &c.Stop, defaultStop, func(sc *Stop) yamlcheck.Fields {
		return yamlcheck.Fields{"window": d.Int(&sc.Window), "confidence": d.Number(&sc.Confidence), "games": d.Int(&sc.Games)}
	})
}

func (c *Config) checkStop(bad bad) {
	sc := c.Stop
	if sc == nil {
		return
	}
	if sc.Window > 0 && sc.Window < 3 || sc.Window < 0 || sc.Window > MaxGenerations {
		bad("stop.window", "%d: want 0 (no trend rule) or from 3 to %d generations (a line through two points has no scatter to judge it by)", sc.Window, MaxGenerations)
	}
	if !(sc.Confidence >= 0.5 && sc.Confidence < 1) {
		bad("stop.confidence", "%v: want a probability from 0.5 up to (not including) 1", sc.Confidence)
	}
	if sc.Games < 0 {
		bad("stop.games", "%d: want 0 (no budget of games) or more", sc.Games)
	}
	if sc.Window == 0 && sc.Games == 0 {
		bad("stop", "neither a window nor a budget of games: give one, or leave stop out")
	}
}

// Program is how a config starts an outside program.
type Program struct {
	Command []string          `json:"command,omitempty"` // the program and its arguments
	Dir     string            `json:"dir,omitempty"`     // its working directory, relative to the config's
	Env     map[string]string `json:"env,omitempty"`     // extra environment variables
	// Timeout and Audit change no result, so they are not in the hash: a
	// resumed run may wait longer or audit more.
	Timeout string  `json:"-"` // as written (ParseTimeout)
	Audit   float64 `json:"-"`
	// ProgramFiles lists more files and directories of the program (the
	// modules a script imports), relative to Dir, whose content the
	// checkpoint records beside the files the command names. They are
	// watched, not results: not in the hash.
	ProgramFiles []string `json:"-"`
}

// ParseTimeout reads timeout:: 0, the program's default, when it is not
// written; ok is false for a value that is not a positive duration.
func (p *Program) ParseTimeout() (d time.Duration, ok bool) {
	if p.Timeout == "" {
		return 0, true
	}
	d, err := time.ParseDuration(p.Timeout)
	return d, err == nil && d > 0
}
