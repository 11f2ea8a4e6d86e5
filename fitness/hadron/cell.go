package hadron

import (
	"fmt"
	"github.com/evotune/evotune/internal/enum"
	"strconv"
	"strings"
)

// Color is what occupies a cell, and whose turn it is.
type Color uint8

// The colours. White moves first.
const (
	Empty Color = iota
	White
	Black
)

var colorNames = [...]string{Empty: "empty", White: "white", Black: "black"}

func (c Color) String() string { return enum.Name(colorNames[:], c, "Color") }

// Other returns the opponent of White or Black.
func (c Color) Other() Color { return White + Black - c }

// side is the stone index of White (0) or Black (1).
func (c Color) side() int { return int(c) - 1 }

// sign is +1 for White and -1 for Black: a stone's contribution to the
// white-minus-black balance of its neighbours.
func (c Color) sign() int8 { return int8(3 - 2*int(c)) }

// Cell is a square of the board, 0-based. It is written as in the
// tournament: row letter then column number, "A1" top left, "I9" bottom
// right on 9x9.
type Cell struct{ Row, Col int }

func (c Cell) String() string {
	if c.Row < 0 || c.Row >= 26 {
		return fmt.Sprintf("Cell(%d,%d)", c.Row, c.Col)
	}
	return string(rune('A'+c.Row)) + strconv.Itoa(c.Col+1)
}

// ParseCell reads a cell in tournament notation ("E5", "e5") on a board of
// the given size.
func ParseCell(s string, size int) (Cell, error) {
	t := strings.TrimSpace(s)
	if len(t) < 2 {
		return Cell{}, fmt.Errorf("hadron: cell %q: want a row letter and a column number, like A1", s)
	}
	r := int(strings.ToUpper(t[:1])[0]) - 'A'
	c, err := strconv.Atoi(t[1:])
	if err != nil || r < 0 || r >= size || c < 1 || c > size {
		return Cell{}, fmt.Errorf("hadron: cell %q: not on a %dx%d board (A1..%s)", s, size, size, Cell{size - 1, size - 1})
	}
	return Cell{r, c - 1}, nil
}
