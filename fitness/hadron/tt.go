package hadron

import (
	"strconv"
	"sync"
)

// bound says how a stored score relates to the true negamax value.
type bound uint8

const (
	boundExact bound = iota + 1 // the value itself
	boundLower                  // a fail-high: the value is at least this
	boundUpper                  // a fail-low: the value is at most this
)

func (b bound) String() string {
	switch b {
	case boundExact:
		return "exact"
	case boundLower:
		return "lower"
	case boundUpper:
		return "upper"
	}
	return "bound(" + strconv.Itoa(int(b)) + ")"
}

type ttEntry struct {
	key   uint64
	value float64
	depth int8
	bound bound
	move  int8 // best or refuting move, -1 for none
}

// ttBits sizes the table: 64 Ki entries of 24 bytes. A depth-4 search
// visits tens of thousands of nodes per move, so this holds a move's tree
// and most of the last one's.
const ttBits = 16

// table is a transposition table, owned by one player for one game. It is
// always-replace: simple, and a pure function of the game so far, which is
// what keeps games reproducible.
type table []ttEntry

// tables recycles tables between games. A recycled table is cleared
// before use, so what a game sees never depends on earlier games.
var tables = sync.Pool{New: func() any {
	t := make(table, 1<<ttBits)
	return &t
}}

func getTable() *table {
	t := tables.Get().(*table)
	clear(*t)
	return t
}

func putTable(t *table) { tables.Put(t) }
