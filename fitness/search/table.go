package search

import "strconv"

// Bound says how a stored value relates to the true negamax value.
type Bound uint8

// The bounds; the zero Bound marks an empty slot.
const (
	Exact Bound = iota + 1 // the value itself
	Lower                  // a fail-high: the value is at least this
	Upper                  // a fail-low: the value is at most this
)

func (b Bound) String() string {
	switch b {
	case Exact:
		return "exact"
	case Lower:
		return "lower"
	case Upper:
		return "upper"
	}
	return "bound(" + strconv.Itoa(int(b)) + ")"
}

// Entry is one slot of a Table: 24 bytes.
type Entry struct {
	key   uint64
	value float64
	depth int8
	bound Bound // 0: empty slot
	move  Move  // best or refuting move, NoMove for none
}

// Table is a transposition table: always-replace, indexed by the low bits
// of the hash, so its length must be a power of two. Always-replace is
// simple and a pure function of the game so far, which keeps games
// reproducible; clear a table (clear(t)) before a new game.
type Table []Entry

// NewTable returns an empty table of 2^bits entries.
func NewTable(bits int) Table { return make(Table, 1<<bits) }
