package config

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evotune/evotune/internal/enum"
)

// Objective is what fitness measures.
type Objective uint8

// The objectives.
const (
	// Solo is the game's solo measure (Battleship's shots to sink a
	// placer's fleet), lower is better. Configs name it by the measure's
	// name, which fitness.Solo declares.
	Solo Objective = iota + 1
	// Score is the mean head-to-head score (win 1, draw 1/2), higher is better.
	Score
)

var objectiveNames = [...]string{Solo: "solo", Score: "score"}

func (o Objective) String() string { return enum.Name(objectiveNames[:], o, "Objective") }

// unknown refuses a name that a config gave for one of names.
func unknown(kind, s string, names []string) error {
	return fmt.Errorf("unknown %s %q (want %s)", kind, s, strings.Join(enum.List(names), ", "))
}

// MarshalJSON writes the name, so checkpoints and hashes read well.
func (o Objective) MarshalJSON() ([]byte, error) { return json.Marshal(o.String()) }

// ParseObjective reads an objective name: "score", or the name of the
// game's solo measure (measure; "" when the game has none).
func ParseObjective(s, measure string) (Objective, error) {
	switch {
	case s == Score.String():
		return Score, nil
	case measure != "" && s == measure:
		return Solo, nil
	case measure != "":
		return 0, fmt.Errorf("unknown objective %q (want %s or score)", s, measure)
	}
	return 0, fmt.Errorf("unknown objective %q (want score)", s)
}

// Minimise reports whether lower values of the objective are better.
func (o Objective) Minimise() bool { return o == Solo }

// RatingModel is how the population mode turns games among individuals
// into a fitness.
type RatingModel uint8

// The rating models. The zero value is the default, the mean score.
const (
	// MeanScore: an individual's mean score in its population games.
	MeanScore RatingModel = iota
	// BradleyTerry: the score the individual is expected to make against
	// the whole generation, from Bradley-Terry ratings fitted to every
	// game among the generation's individuals and hall-of-fame members;
	// so an individual's fitness draws on every game of the generation,
	// not on its few opponents' luck. The hall of fame admits by rating.
	BradleyTerry
)

var ratingNames = [...]string{MeanScore: "mean", BradleyTerry: "bradley-terry"}

func (m RatingModel) String() string { return enum.Name(ratingNames[:], m, "RatingModel") }

// MarshalJSON writes the name; the default is left out of configs' JSON
// (omitempty), so their hash is that of a config without the key.
func (m RatingModel) MarshalJSON() ([]byte, error) { return json.Marshal(m.String()) }

// ParseRatingModel reads "mean" or "bradley-terry".
func ParseRatingModel(s string) (RatingModel, error) {
	if m, ok := enum.Parse[RatingModel](ratingNames[:], s); ok {
		return m, nil
	}
	return 0, unknown("rating", s, ratingNames[:])
}

// Rates reports whether a run of the config fits ratings.
func (c *Config) Rates() bool { return c.Fitness.Population.Rating == BradleyTerry }

func (c *Config) checkRating(bad bad, b *Built) {
	if !c.Rates() {
		return
	}
	f := c.Fitness
	switch {
	case f.Population.Weight <= 0:
		bad("fitness.population.rating", "bradley-terry rates the population games, and fitness.population has no weight")
	case c.Coevolve != nil:
		bad("fitness.population.rating", "bradley-terry rates players of one species; co-evolving species do not play their own kind")
	case b != nil && f.Objective != Score:
		bad("fitness.population.rating", "bradley-terry rates head-to-head games: it needs the score objective")
	}
}
