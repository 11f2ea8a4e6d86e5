package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evotune/evotune/internal/enum"
)

// Model is the breeding scheme.
type Model uint8

// The models.
const (
	// Generational breeds a whole new population by selection, crossover
	// and mutation (eaopt's ModGenerational), keeping Elitism best as they are.
	Generational Model = iota + 1
	// DownToSize breeds Offspring children and keeps the best Population
	// of parents and children together (eaopt's ModDownToSize).
	DownToSize
	// NaturalSelection keeps the Keep best and replaces the rest with fresh
	// random genomes: the scheme Aenigma's parameters were found with.
	NaturalSelection
	// CMAES samples each generation from CMA-ES's normal distribution over
	// the normalised genome and updates it by the generation's ranking
	// (gonum's CmaEsChol, driven ask/tell; see cmaes.go).
	CMAES
	// RandomSearch draws every generation afresh, uniformly: the baseline
	// a search model has to beat.
	RandomSearch
)

// Selection picks parents.
type Selection uint8

// The selections.
const (
	Tournament Selection = iota + 1
	Roulette
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

var (
	modelNames = [...]string{Generational: "generational", DownToSize: "down-to-size", NaturalSelection: "natural-selection",
		CMAES: "cmaes", RandomSearch: "random-search"}
	selectionNames = [...]string{Tournament: "tournament", Roulette: "roulette"}
	objectiveNames = [...]string{Solo: "solo", Score: "score"}
)

func (m Model) String() string     { return enum.Name(modelNames[:], m, "Model") }
func (s Selection) String() string { return enum.Name(selectionNames[:], s, "Selection") }
func (o Objective) String() string { return enum.Name(objectiveNames[:], o, "Objective") }

// unknown refuses a name that a config gave for one of names.
func unknown(kind, s string, names []string) error {
	return fmt.Errorf("unknown %s %q (want %s)", kind, s, strings.Join(enum.List(names), ", "))
}

// MarshalJSON writes the name, so checkpoints and hashes read well.
func (m Model) MarshalJSON() ([]byte, error)     { return json.Marshal(m.String()) }
func (s Selection) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }
func (o Objective) MarshalJSON() ([]byte, error) { return json.Marshal(o.String()) }

// ParseModel reads a model name.
func ParseModel(s string) (Model, error) {
	if m, ok := enum.Parse[Model](modelNames[:], s); ok {
		return m, nil
	}
	return 0, unknown("model", s, modelNames[:])
}

// ParseSelection reads a selection name.
func ParseSelection(s string) (Selection, error) {
	if x, ok := enum.Parse[Selection](selectionNames[:], s); ok {
		return x, nil
	}
	return 0, unknown("selection", s, selectionNames[:])
}

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
