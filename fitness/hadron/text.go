package hadron

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evotune/evotune/internal/bits128"
)

// String draws the board: a side-to-move line, column numbers, then one
// row per line headed by its letter, W and B for stones, . for empty.
// ParseBoard reads it back.
func (b *Board) String() string {
	n := b.g.n
	w := len(strconv.Itoa(n))
	var sb strings.Builder
	fmt.Fprintf(&sb, "to-move: %v\n ", b.toMove)
	for c := range n {
		fmt.Fprintf(&sb, " %*d", w, c+1)
	}
	sb.WriteByte('\n')
	for r := range n {
		sb.WriteByte(byte('A' + r))
		for c := range n {
			ch := '.'
			switch b.At(Cell{r, c}) {
			case White:
				ch = 'W'
			case Black:
				ch = 'B'
			}
			fmt.Fprintf(&sb, " %*c", w, ch)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// ParseBoard reads a board drawn as String draws it. Row letters and the
// column-number line are optional; cells may be separated by spaces or
// not; lines starting with # are comments. Without a "to-move:" line the
// side to move follows from the stone counts (White when they are equal).
// The position need not be reachable by play.
func ParseBoard(text string) (*Board, error) {
	b, _, err := parseBoard(text, "")
	return b, err
}

// parseBoard is ParseBoard that also accepts the characters of marks as
// empty cells and returns where each one was drawn, so tests can draw the
// cells they expect to be special.
func parseBoard(text, marks string) (*Board, map[byte][]Cell, error) {
	var rows [][]string
	toMove := Empty
	for ln, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			if strings.TrimSpace(k) != "to-move" {
				return nil, nil, fmt.Errorf("hadron: board line %d: unknown header %q (want to-move)", ln+1, k)
			}
			switch strings.TrimSpace(v) {
			case "white":
				toMove = White
			case "black":
				toMove = Black
			default:
				return nil, nil, fmt.Errorf("hadron: board line %d: to-move %q: want white or black", ln+1, strings.TrimSpace(v))
			}
			continue
		}
		tok := strings.Fields(line)
		if isNumbers(tok) {
			continue // the column-number line
		}
		rows = append(rows, tok)
	}
	n := len(rows)
	if err := checkSize(n); err != nil {
		return nil, nil, fmt.Errorf("hadron: board of %d rows: %s", n, unwrapPrefix(err))
	}
	b := newBoard(geoms[n])
	found := map[byte][]Cell{}
	for r, tok := range rows {
		if len(tok) >= 2 && tok[0] == string(rune('A'+r)) && (len(tok) == n+1 || len(tok) == 2 && len(tok[1]) == n) {
			tok = tok[1:] // a row letter
		}
		if len(tok) == 1 && len(tok[0]) > 1 {
			tok = strings.Split(tok[0], "")
		}
		if len(tok) != n {
			return nil, nil, fmt.Errorf("hadron: board row %c: %d cells, want %d", 'A'+r, len(tok), n)
		}
		for c, t := range tok {
			i := r*n + c
			switch {
			case t == "W":
				b.stones[0] = b.stones[0].Or(bits128.Cell(i))
			case t == "B":
				b.stones[1] = b.stones[1].Or(bits128.Cell(i))
			case t == ".":
			case len(t) == 1 && strings.Contains(marks, t):
				found[t[0]] = append(found[t[0]], Cell{r, c})
			default:
				return nil, nil, fmt.Errorf("hadron: board cell %v: %q is not W, B or an empty cell (.)", Cell{r, c}, t)
			}
		}
	}
	nw, nb := b.stones[0].Count(), b.stones[1].Count()
	if toMove == Empty {
		toMove = White
		if nw > nb {
			toMove = Black
		}
	}
	b.toMove = toMove
	b.reset()
	return &b, found, nil
}

func isNumbers(tok []string) bool {
	for _, t := range tok {
		if _, err := strconv.Atoi(t); err != nil {
			return false
		}
	}
	return len(tok) > 0
}

// unwrapPrefix drops the "hadron: " of an error about to be wrapped in
// another hadron error.
func unwrapPrefix(err error) string { return strings.TrimPrefix(err.Error(), "hadron: ") }
