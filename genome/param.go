// Package genome describes parameter spaces and the points in them.
//
// A Schema is the list of tunable knobs a player declares in code (name,
// kind, range, default). A Values is one assignment of those knobs, read by
// the player through typed accessors. The package knows no game: games
// import it to declare their knobs, the engine imports it to search them.
//
// For the search, NewSpace narrows a schema by the config's `space:`
// section (or builds one from it), and a genome is a point in the resulting
// Space: a []float64 of genes in [0, 1] that Decode turns into Values and
// Encode back. Space.Random, Space.Mutate and Space.Cross are the evolution
// operators; Space.ParseSeeds reads the config's known parameter sets.
// Every random draw comes from a *rand.Rand the caller passes in, so that
// results are a function of the caller's seeds alone.
package genome

import (
	"errors"
	"fmt"
	"github.com/evotune/evotune/internal/enum"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Kind is the type of one parameter.
type Kind uint8

// The parameter kinds.
const (
	Float  Kind = iota + 1 // a real number in [Min, Max]
	Int                    // an integer in [Min, Max]
	Bool                   // true or false
	Choice                 // one of Choices
	Grid                   // Rows x Cols reals in [Min, Max], tied by a Symmetry
)

var kindNames = [...]string{Float: "float", Int: "int", Bool: "bool", Choice: "choice", Grid: "grid"}

func (k Kind) String() string { return enum.Name(kindNames[:], k, "Kind") }

// ParseKind turns a kind's name ("float", "int", ...) into a Kind.
func ParseKind(s string) (Kind, error) {
	if k, ok := enum.Parse[Kind](kindNames[:], s); ok {
		return k, nil
	}
	return 0, fmt.Errorf("genome: unknown kind %q (want float, int, bool, choice or grid)", s)
}

// Symmetry ties the cells of a Grid parameter together, so that evolution
// searches few free weights instead of every cell.
type Symmetry uint8

// The grid symmetries.
const (
	Full     Symmetry = iota + 1 // every cell is free
	Ring                         // one weight per distance from the nearest edge
	Dihedral                     // one weight per cell class under the square's symmetries
)

var symmetryNames = [...]string{Full: "full", Ring: "ring", Dihedral: "dihedral"}

func (s Symmetry) String() string { return enum.Name(symmetryNames[:], s, "Symmetry") }

// ParseSymmetry turns "full", "ring" or "dihedral" into a Symmetry.
func ParseSymmetry(s string) (Symmetry, error) {
	if x, ok := enum.Parse[Symmetry](symmetryNames[:], s); ok {
		return x, nil
	}
	return 0, fmt.Errorf("genome: unknown symmetry %q (want ring, dihedral or full)", s)
}

// Param is one tunable knob.
type Param struct {
	Name    string
	Kind    Kind
	Summary string // one line for `evotune games`

	Min, Max float64 // Float, Int and Grid cells
	Log      bool    // Float and Int: search the range on a log scale (Min > 0)

	Choices []string // Choice

	Rows, Cols int      // Grid
	Symmetry   Symmetry // Grid

	// Default is the value a player takes when nothing else is given. For a
	// Grid it holds all Rows*Cols cells, so that any symmetry can be derived
	// from it (the free weight of a class is the mean of its cells).
	Default Value

	// OptIn marks a knob that a config searches only when its space
	// section names it; one it does not name is held at Default and has
	// no gene. A knob added to a player that runs already tune is declared
	// OptIn, with a Default at which the player plays exactly as before
	// the knob existed: the genomes of those runs then keep their length
	// and meaning, their checkpoints resume, and their configs need not
	// change.
	OptIn bool
}

// Value is the value of one parameter; which field is meaningful depends on
// the parameter's Kind.
type Value struct {
	Num   float64   // Float, Int (integral), Bool (0 or 1)
	Str   string    // Choice
	Cells []float64 // Grid, Rows*Cols in row-major order
}

// Classes returns, for a grid parameter, the class of every cell under the
// parameter's symmetry and the number of classes (the free weights).
func (p *Param) Classes() (class []int, n int) {
	return GridClasses(p.Rows, p.Cols, p.Symmetry)
}

// GridClasses maps every cell of a rows x cols grid to its class under sym.
// Classes are numbered 0..n-1 in order of first appearance in row-major
// order, so the numbering is stable and independent of map order.
func GridClasses(rows, cols int, sym Symmetry) (class []int, n int) {
	class = make([]int, rows*cols)
	key := make([]int, rows*cols)
	for r := range rows {
		for c := range cols {
			switch sym {
			case Ring:
				key[r*cols+c] = min(r, c, rows-1-r, cols-1-c)
			case Dihedral:
				key[r*cols+c] = dihedralKey(r, c, rows, cols)
			default:
				key[r*cols+c] = r*cols + c
			}
		}
	}
	seen := map[int]int{}
	for i, k := range key {
		id, ok := seen[k]
		if !ok {
			id = len(seen)
			seen[k] = id
		}
		class[i] = id
	}
	return class, len(seen)
}

// dihedralKey names the orbit of (r, c) by its smallest image under the
// symmetries of the rectangle: all 8 of the square, or the 4 flips of a
// non-square board (where a transpose would leave the board).
func dihedralKey(r, c, rows, cols int) int {
	best := math.MaxInt
	for _, rc := range [][2]int{
		{r, c}, {rows - 1 - r, c}, {r, cols - 1 - c}, {rows - 1 - r, cols - 1 - c},
	} {
		best = min(best, rc[0]*cols+rc[1])
		if rows == cols {
			best = min(best, rc[1]*cols+rc[0])
		}
	}
	return best
}

// Schema is the ordered list of a player's tunable parameters.
type Schema []Param

// Lookup returns the parameter called name.
func (s Schema) Lookup(name string) (*Param, bool) {
	for i := range s {
		if s[i].Name == name {
			return &s[i], true
		}
	}
	return nil, false
}

// Validate checks the schema itself: unique names, sane ranges and defaults
// inside them. Games call it from their tests; a failure is a programmer error.
func (s Schema) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for i := range s {
		p := &s[i]
		if p.Name == "" {
			errs = append(errs, fmt.Errorf("genome: parameter %d has no name", i))
			continue
		}
		if seen[p.Name] {
			errs = append(errs, fmt.Errorf("genome: parameter %q declared twice", p.Name))
		}
		seen[p.Name] = true
		switch p.Kind {
		case Float, Int, Grid:
			if !(p.Min <= p.Max) || math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) {
				errs = append(errs, fmt.Errorf("genome: %s: bad range [%v, %v]", p.Name, p.Min, p.Max))
			}
			if p.Log && p.Min <= 0 {
				errs = append(errs, fmt.Errorf("genome: %s: log scale needs min > 0", p.Name))
			}
		case Choice:
			if len(p.Choices) == 0 {
				errs = append(errs, fmt.Errorf("genome: %s: choice with no choices", p.Name))
			}
		case Bool:
		default:
			errs = append(errs, fmt.Errorf("genome: %s: unknown kind %v", p.Name, p.Kind))
		}
		if p.Kind == Grid && (p.Rows < 1 || p.Cols < 1) {
			errs = append(errs, fmt.Errorf("genome: %s: grid of %dx%d", p.Name, p.Rows, p.Cols))
		}
		if p.Kind == Grid && (p.Symmetry == 0 || int(p.Symmetry) >= len(symmetryNames)) {
			errs = append(errs, fmt.Errorf("genome: %s: grid with symmetry %v", p.Name, p.Symmetry))
		}
		if p.Kind == Int && (p.Min != math.Trunc(p.Min) || p.Max != math.Trunc(p.Max)) {
			errs = append(errs, fmt.Errorf("genome: %s: int range [%v, %v] is not integral", p.Name, p.Min, p.Max))
		}
		if err := p.Check(p.Default); err != nil {
			errs = append(errs, fmt.Errorf("genome: default: %w", err))
		}
	}
	return errors.Join(errs...)
}

// Check reports whether v is a legal value of p.
func (p *Param) Check(v Value) error {
	inRange := func(x float64) bool { return x >= p.Min && x <= p.Max }
	switch p.Kind {
	case Float:
		if math.IsNaN(v.Num) || !inRange(v.Num) {
			return fmt.Errorf("%s: %v is outside [%v, %v]", p.Name, v.Num, p.Min, p.Max)
		}
	case Int:
		if v.Num != math.Trunc(v.Num) {
			return fmt.Errorf("%s: %v is not an integer", p.Name, v.Num)
		}
		if !inRange(v.Num) {
			return fmt.Errorf("%s: %s is outside [%s, %s]", p.Name, p.num(v.Num), p.num(p.Min), p.num(p.Max))
		}
	case Bool:
		if v.Num != 0 && v.Num != 1 {
			return fmt.Errorf("%s: %v is not a bool", p.Name, v.Num)
		}
	case Choice:
		if !slices.Contains(p.Choices, v.Str) {
			return fmt.Errorf("%s: %q is not one of %s", p.Name, v.Str, strings.Join(p.Choices, ", "))
		}
	case Grid:
		if len(v.Cells) != p.Rows*p.Cols {
			return fmt.Errorf("%s: %d cells, want %dx%d = %d", p.Name, len(v.Cells), p.Rows, p.Cols, p.Rows*p.Cols)
		}
		for i, x := range v.Cells {
			if math.IsNaN(x) || !inRange(x) {
				return fmt.Errorf("%s: cell %d (row %d, col %d) = %v is outside [%v, %v]",
					p.Name, i, i/p.Cols, i%p.Cols, x, p.Min, p.Max)
			}
		}
	}
	return nil
}

// Format renders a value for humans (`evotune games`, reports).
func (p *Param) Format(v Value) string {
	switch p.Kind {
	case Int:
		return strconv.FormatInt(int64(v.Num), 10)
	case Bool:
		return strconv.FormatBool(v.Num != 0)
	case Choice:
		return v.Str
	case Grid:
		return fmt.Sprintf("%dx%d grid", p.Rows, p.Cols)
	default:
		return strconv.FormatFloat(v.Num, 'g', -1, 64)
	}
}

// Range renders the legal range of p for humans.
func (p *Param) Range() string {
	switch p.Kind {
	case Bool:
		return "true|false"
	case Choice:
		return strings.Join(p.Choices, "|")
	case Grid:
		return fmt.Sprintf("%dx%d %s in [%v, %v]", p.Rows, p.Cols, p.Symmetry, p.Min, p.Max)
	default:
		s := fmt.Sprintf("[%s, %s]", p.num(p.Min), p.num(p.Max))
		if p.Log {
			s += " log"
		}
		return s
	}
}

// num renders a number of p's range for humans: an int's in full
// (1048576, not 1.048576e+06), a float's in its shortest form.
func (p *Param) num(x float64) string {
	if p.Kind == Int && x == math.Trunc(x) && math.Abs(x) < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmtNum(x)
}
