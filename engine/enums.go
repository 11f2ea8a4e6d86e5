package engine

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
