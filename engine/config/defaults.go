package config

import (
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
)

// The defaults of a config, in one place: what a file starts from
// (defaults), what depends on what else it wrote (settle), and what
// depends on its game (WithGame, once engine.Prepare has built the game,
// and Plan, once it has built the species). The evolution: section's are
// the model package's (model.Defaults and each model's own settings).
// configs/reference.yaml states every one; engine's
// TestReferenceStatesTheDefaults holds the two together.

// defaults returns the config every file starts from.
func defaults() Config {
	return Config{
		Seed: 1,
		Fitness: Fitness{
			Baselines:  Baselines{Weight: 1, Games: 100},
			Population: Population{Weight: 1, Opponents: 4, Games: 10},
			HallOfFame: HallOfFame{Weight: 1, Members: 5, Games: 10},
		},
		Evolution: model.Defaults(),
	}
}

// defaultRacing is a racing: section that writes no key.
func defaultRacing() Racing { return Racing{Rounds: 5, Confidence: 0.95} }

// defaultStop is a stop: section that writes no key.
func defaultStop() Stop { return Stop{Window: 8, Confidence: 0.8} }

// DefaultRemeasure is a remeasure: section that writes no key, and the
// remeasure of a config without one.
func DefaultRemeasure() Remeasure { return Remeasure{Top: 3, Games: 1000} }

// settle fills in the defaults that depend on what the file wrote: a
// fitness mode counts when its section is written (baselines also by
// default when nothing else is, so the smallest config works), the
// model's own (the down-to-size model breeds a population's worth of
// offspring), and the run's name, the file's without name:.
func (c *Config) settle() {
	f := &c.Fitness
	if !c.Has("fitness.baselines") && (c.Has("fitness.population") || c.Has("fitness.hall-of-fame")) {
		f.Baselines.Weight = 0
	}
	if !c.Has("fitness.population") {
		f.Population.Weight = 0
	}
	if !c.Has("fitness.hall-of-fame") {
		f.HallOfFame.Weight = 0
	}
	c.Evolution.Settle(c.Has)
	if c.Name == "" {
		c.Name, c.nameFromFile = strings.TrimSuffix(filepath.Base(c.file), filepath.Ext(c.file)), true
	}
}

// Game is what a config's game says of itself: the facts the defaults
// and checks that depend on the game read.
type Game struct {
	Name       string       // the game's name (a program's, whose config may leave game: out)
	Solo       fitness.Solo // its solo measure, when HasSolo
	HasSolo    bool
	HeadToHead bool // it plays two players against each other
}

// WithGame returns a copy of the config with the defaults that depend on
// its game g filled in: the game's name, when the config leaves it to a
// program; the objective, by default the game's solo measure when there
// is one (a name that is not score is taken as meant for a solo measure,
// so later checks know what was asked for even when Check refuses it);
// and a solo measure's baseline opponent, the game's default one. The
// copy's evolution: section is its own: Plan sets it.
func (c *Config) WithGame(g Game) *Config {
	r := *c
	r.Evolution = c.Evolution.Clone()
	if r.Game == "" {
		r.Game = g.Name
	}
	f := &r.Fitness
	switch {
	case f.objective == "" && g.HasSolo:
		f.objective = g.Solo.Measure
	case f.objective == "":
		f.objective = Score.String()
	}
	f.Objective = Solo
	if f.objective == Score.String() {
		f.Objective = Score
	}
	if f.Objective == Solo && g.HasSolo && g.Solo.Opponent != "" && f.Baselines.Weight > 0 && len(f.Baselines.Opponents) == 0 {
		f.Baselines.Opponents = []string{g.Solo.DefaultOpponent}
	}
	return &r
}

// Built is what engine.Prepare built of a config's species: the facts
// Plan and the checks that depend on them read.
type Built struct {
	Game
	// Main is the main species as far as it was built: its genes (0 when
	// its space could not be built), seeds and baseline opponents.
	Main Species
	// Evolved are the species a run evolves: the main one when its space
	// was built, then the rivals when theirs was.
	Evolved []Species
}

// Species is what was built of one species.
type Species struct {
	Genes, Seeds, Baselines int
}

// Uses is what the config asks of a run beyond its evolution: section,
// for a model to refuse what it cannot honour.
func (c *Config) Uses(b *Built) model.Uses {
	f := c.Fitness
	return model.Uses{Score: f.Objective == Score, Racing: c.Racing != nil, Coevolve: c.Coevolve != nil,
		Baselines: f.Baselines.Weight > 0, Population: f.Population.Weight > 0, HallOfFame: f.HallOfFame.Weight > 0,
		BaselineGames: f.Baselines.Games, PopulationGames: f.Population.Games, Rated: f.Population.Rating != MeanScore,
		Genes: b.Main.Genes, BaselineOpponents: b.Main.Baselines}
}

// Plan settles what depends on the species the config's game was built
// with (b), on a config WithGame returned: the model is told what the
// rest of the config asks of it (Evolution.Uses), a config that names no
// model gets its default (model.Evolution.ChooseDefault; legacy keeps
// the one of before the solo default, as a run begun then resumes), and
// the model plans what depends on it (spsa's autoselect, its
// generations).
func (c *Config) Plan(b *Built, legacy bool) {
	c.Evolution.Uses = c.Uses(b)
	c.Evolution.ChooseDefault(c.Fitness.Objective == Solo, legacy, c.Has)
	c.Evolution.Plan()
}
