package battleship

import "github.com/evotune/evotune/internal/bits128"

// MaxCells is the largest board the bitboards hold.
const MaxCells = bits128.Size

// Bits is a set of board cells, cell i = row*W + col, in two words: the
// games' shared bitboard (see internal/bits128).
type Bits = bits128.Bits

// Cell returns the set holding only cell i.
func Cell(i int) Bits { return bits128.Cell(i) }
