package battleship

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/enum"
)

// Reveal is what the shooter is told about a hit.
type Reveal uint8

// The reveal rules.
const (
	// RevealSunk is the classic rule: a hit is a hit, and when a ship's
	// last cell is hit the shooter is told it sank and which ship.
	RevealSunk Reveal = iota + 1
	// RevealHitsOnly says hit or miss and nothing else.
	RevealHitsOnly
	// RevealShip names the ship on every hit (and announces sinkings),
	// the rule of the competition Over 9000 played in.
	RevealShip
)

var revealNames = [...]string{RevealSunk: "sunk", RevealHitsOnly: "hits-only", RevealShip: "ship"}

func (r Reveal) String() string { return enum.Name(revealNames[:], r, "Reveal") }

// ParseReveal turns "sunk", "hits-only" or "ship" into a Reveal.
func ParseReveal(s string) (Reveal, error) {
	if r, ok := enum.Parse[Reveal](revealNames[:], s); ok {
		return r, nil
	}
	return 0, fmt.Errorf("battleship: reveal %q: want sunk, hits-only or ship", s)
}

// Rules are the rule options of a Battleship game.
type Rules struct {
	W, H   int    // board width (columns) and height (rows)
	Fleet  []int  // ship lengths, in the order ships are placed and named
	Reveal Reveal // what a hit tells the shooter
}

// ShipNames names the ships of the classic fleet, by index.
var ShipNames = []string{"Carrier", "Battleship", "Cruiser", "Submarine", "Destroyer"}

// Classic returns the classic rules: 10x10, fleet 5 4 3 3 2, sunk ships
// announced.
func Classic() Rules {
	return Rules{W: 10, H: 10, Fleet: []int{5, 4, 3, 3, 2}, Reveal: RevealSunk}
}

// Validate checks that the rules describe a playable game.
func (r Rules) Validate() error {
	var errs []error
	if r.W < 2 || r.H < 2 || r.W*r.H > MaxCells {
		errs = append(errs, fmt.Errorf("battleship: board %dx%d: want at least 2x2 and at most %d cells", r.W, r.H, MaxCells))
	}
	if len(r.Fleet) == 0 {
		errs = append(errs, errors.New("battleship: fleet is empty"))
	}
	total := 0
	for _, n := range r.Fleet {
		if n < 1 || n > max(r.W, r.H) {
			errs = append(errs, fmt.Errorf("battleship: ship of length %d does not fit a %dx%d board", n, r.W, r.H))
		}
		total += n
	}
	if total > r.W*r.H/2 {
		// Far below this the random placer still succeeds quickly; above
		// it fleets may have no legal layout at all.
		errs = append(errs, fmt.Errorf("battleship: fleet of %d cells is more than half the %d-cell board", total, r.W*r.H))
	}
	if r.Reveal < RevealSunk || r.Reveal > RevealShip {
		errs = append(errs, fmt.Errorf("battleship: bad reveal rule %v", r.Reveal))
	}
	return errors.Join(errs...)
}

// parseOptions reads rule options (size, width, height, fleet, reveal,
// placer) on top of the classic rules and the random placer, in name
// order (fitness.ReadOptions). The rules are validated once every
// option has read well.
func parseOptions(opts map[string]string) (Rules, string, error) {
	r := Classic()
	placer := "random"
	err := fitness.ReadOptions("battleship", options, opts, func(key, val string) error {
		whole := func(s string) (int, error) {
			n, err := fitness.OptionInt("battleship", key, s)
			return int(n), err
		}
		var err error
		switch key {
		case "size":
			r.W, err = whole(val)
			r.H = r.W
		case "width":
			r.W, err = whole(val)
		case "height":
			r.H, err = whole(val)
		case "fleet":
			r.Fleet = nil
			var errs []error
			for _, f := range strings.FieldsFunc(val, func(c rune) bool { return c == ',' || c == ' ' }) {
				n, err := whole(f)
				r.Fleet = append(r.Fleet, n)
				if err != nil {
					errs = append(errs, fitness.BadOption(key, err)) // each length its own
				}
			}
			err = errors.Join(errs...)
		case "reveal":
			r.Reveal, err = ParseReveal(val)
		default: // placer
			placer = val
		}
		return err
	})
	if err == nil {
		err = r.Validate()
	}
	return r, placer, err
}

// Geometry is everything about a board that can be computed once per rule
// set: the placement masks of every ship length and which placements cover
// each cell. It is immutable and shared by all games under the same rules.
type Geometry struct {
	Rules
	Cells int  // W*H
	All   Bits // every cell of the board
	// Placements[L] lists every in-bounds placement of a ship of length L,
	// horizontal ones first, each in row-major order of its first cell.
	Placements map[int][]Bits
	// Covering[L][c] lists the indices into Placements[L] that cover cell c.
	Covering map[int][][]int32
	// Lengths are the distinct ship lengths of the fleet, longest first.
	Lengths []int
}

// NewGeometry precomputes the geometry of valid rules.
func NewGeometry(r Rules) (*Geometry, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	g := &Geometry{Rules: r, Cells: r.W * r.H, Placements: map[int][]Bits{}, Covering: map[int][][]int32{}}
	g.Rules.Fleet = slices.Clone(r.Fleet)
	for c := range g.Cells {
		g.All = g.All.Set(c)
	}
	for _, L := range r.Fleet {
		if _, ok := g.Placements[L]; ok {
			continue
		}
		g.Lengths = append(g.Lengths, L)
		var ps []Bits
		for row := range r.H {
			for col := 0; col+L <= r.W; col++ {
				var m Bits
				for i := range L {
					m = m.Set(row*r.W + col + i)
				}
				ps = append(ps, m)
			}
		}
		if L > 1 {
			for row := 0; row+L <= r.H; row++ {
				for col := range r.W {
					var m Bits
					for i := range L {
						m = m.Set((row+i)*r.W + col)
					}
					ps = append(ps, m)
				}
			}
		}
		cover := make([][]int32, g.Cells)
		for i, m := range ps {
			for w := m; !w.Empty(); {
				c := w.First()
				w = w.AndNot(Cell(c))
				cover[c] = append(cover[c], int32(i))
			}
		}
		g.Placements[L] = ps
		g.Covering[L] = cover
	}
	slices.SortFunc(g.Lengths, func(a, b int) int { return b - a })
	return g, nil
}

// Name renders cell c as a column letter and row number ("A1", "J10").
func (g *Geometry) Name(c int) string {
	return string(rune('A'+c%g.W)) + strconv.Itoa(c/g.W+1)
}
