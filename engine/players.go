package engine

import (
	"errors"
	"slices"

	"github.com/evotune/evotune/fitness"
)

// The players of a config as its run plays them, for measures made
// outside a run (the quality benchmark, evotune bench): the main
// species' tuned player at any genome, its starting point and the
// opponents its recommendation is measured against.

// TunedPlayer is the config's tuned player (the main species') at
// genes, with the settings of its player spec, as the run builds its
// individuals.
func (s *Setup) TunedPlayer(genes []float64) (fitness.Player, error) {
	sp := s.species[0]
	vals, err := sp.space.Decode(genes)
	if err != nil {
		return nil, err
	}
	return sp.build(s.game, vals)
}

// StartGenes is the run's starting point, as its verdict has it: the
// config's first seed, else the player's defaults (nil when the space
// excludes them).
func (s *Setup) StartGenes() []float64 { return startGenes(s.species[0]) }

// LowerIsBetter says whether the config's objective is a cost (a solo
// measure) rather than a score.
func (s *Setup) LowerIsBetter() bool { return s.species[0].minimise }

// ErrNoBaselines is returned by Baselines for a config that lists no
// baseline opponents.
var ErrNoBaselines = errors.New("the config lists no baseline opponents (fitness.baselines.opponents)")

// Baselines are the config's baseline opponents, built, and their specs
// as written: a solo objective's opponents (placers), or the players a
// score is taken against; a solo game of one seat has one baseline, the
// game alone: a nil player and the spec "".
func (s *Setup) Baselines() ([]fitness.Player, []string, error) {
	players, specs := s.baselines()
	if len(players) == 0 {
		return nil, nil, ErrNoBaselines
	}
	return players, specs, nil
}

// baselines are the main species' baselines, built, and their specs,
// one for one: a solo game of one seat has one baseline, the game alone
// (a nil player), whose spec is "" (no opponent is written for it).
func (s *Setup) baselines() ([]fitness.Player, []string) {
	players := slices.Clone(s.species[0].baselines)
	if s.alone() {
		return players, []string{""}
	}
	return players, slices.Clone(s.cfg.Fitness.Baselines.Opponents)
}

// alone says the main species' one baseline is the game alone: a solo
// game of one seat.
func (s *Setup) alone() bool {
	b := s.species[0].baselines
	return len(b) == 1 && b[0] == nil
}
