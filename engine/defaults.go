package engine

import (
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/engine/model"
)

// The defaults of a config, in one place: what a file starts from
// (defaults), what depends on what else it wrote (settle), and what
// depends on its game (settleGame, once prepare has built the game).
// The evolution: section's are the model package's (model.Defaults and
// each model's own settings). configs/reference.yaml states every one;
// TestReferenceStatesTheDefaults holds the two together.

// defaults returns the config every file starts from.
func defaults() Config {
	return Config{
		Seed: 1,
		Fitness: FitnessConfig{
			Baselines:  BaselinesMode{Weight: 1, Games: 100},
			Population: PopulationMode{Weight: 1, Opponents: 4, Games: 10},
			HallOfFame: HallOfFameMode{Weight: 1, Members: 5, Games: 10},
		},
		Evolution: model.Defaults(),
	}
}

// defaultRacing is a racing: section that writes no key.
func defaultRacing() RacingConfig { return RacingConfig{Rounds: 5, Confidence: 0.95} }

// defaultStop is a stop: section that writes no key.
func defaultStop() StopConfig { return StopConfig{Window: 8, Confidence: 0.8} }

// defaultRemeasure is a remeasure: section that writes no key, and the
// remeasure of a config without one.
func defaultRemeasure() RemeasureConfig { return RemeasureConfig{Top: 3, Games: 1000} }

// defaultRemeasureGames, when positive, replaces the default's games in
// what a run plays (not in what validate says): a variable only so the
// package's tests, which finish many small runs, can keep the default on
// and cheap.
var defaultRemeasureGames = 0

// settle fills in the defaults that depend on what the file wrote: a
// fitness mode counts when its section is written (baselines also by
// default when nothing else is, so the smallest config works), the
// model's own (the down-to-size model breeds a population's worth of
// offspring), and the run's name, the file's without name:.
func (c *Config) settle() {
	f := &c.Fitness
	if !c.has("fitness.baselines") && (c.has("fitness.population") || c.has("fitness.hall-of-fame")) {
		f.Baselines.Weight = 0
	}
	if !c.has("fitness.population") {
		f.Population.Weight = 0
	}
	if !c.has("fitness.hall-of-fame") {
		f.HallOfFame.Weight = 0
	}
	c.Evolution.Settle(c.has)
	if c.Name == "" {
		c.Name, c.nameFromFile = strings.TrimSuffix(filepath.Base(c.file), filepath.Ext(c.file)), true
	}
}

// settleGame fills in the defaults that depend on the game. The objective
// is by default the game's solo measure when there is one; a name that is
// not score is taken as meant for a solo measure, so later checks know
// what was asked for even when checkObjective refuses it. Solo games are
// by default played against the game's default opponent.
func (c *Config) settleGame() {
	if c.Game == "" {
		c.Game = c.game.Name() // a program's, whose config may leave game: out
	}
	f := &c.Fitness
	switch {
	case f.objective == "" && c.hasSolo:
		f.objective = c.solo.Measure
	case f.objective == "":
		f.objective = Score.String()
	}
	f.Objective = Solo
	if f.objective == Score.String() {
		f.Objective = Score
	}
	if f.Objective == Solo && c.hasSolo && c.solo.Opponent != "" && f.Baselines.Weight > 0 && len(f.Baselines.Opponents) == 0 {
		f.Baselines.Opponents = []string{c.solo.DefaultOpponent}
	}
}
