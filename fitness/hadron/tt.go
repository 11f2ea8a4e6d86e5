package hadron

import (
	"sync"

	"github.com/evotune/evotune/fitness/search"
)

// table is the shared search's transposition table.
type table = search.Table

// ttBits sizes the table: 64 Ki entries of 24 bytes. A depth-4 search
// visits tens of thousands of nodes per move, so this holds a move's tree
// and most of the last one's.
const ttBits = 16

// tables recycles tables between games. A recycled table is cleared
// before use, so what a game sees never depends on earlier games.
var tables = sync.Pool{New: func() any {
	t := search.NewTable(ttBits)
	return &t
}}

func getTable() *table {
	t := tables.Get().(*table)
	clear(*t)
	return t
}

func putTable(t *table) { tables.Put(t) }
