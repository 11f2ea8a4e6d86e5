package hadron

import (
	"fmt"
	"testing"

	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/internal/bits128"
)

// TestLeafIsPlaySettleUndo checks the searcher's one-call horizon child
// against the three calls it stands for, on every legal cell of the golden
// positions: the same value, and the board given back as it was. A Leaf
// that drifted from Settle (another loss score, say) would change moves
// only where the golden positions happen to reach it.
func TestLeafIsPlaySettleUndo(t *testing.T) {
	for _, size := range []int{7, 9} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			for i, b := range goldenPositions(size, 30) {
				s := searcher{b: b, w: Aenigma, salt: uint64(i)}
				s.saved[0] = s.b.derived()
				var cells [maxCells]int8
				for _, c := range bits128.AppendCells(cells[:0], b.legal) {
					m := search.Move(c)
					got := s.Leaf(m, 1)
					if s.b != b {
						t.Fatalf("position %d: Leaf(%d) changed the board", i, c)
					}
					s.Play(m)
					want, _, n := s.Settle(0, 1)
					s.Undo(m)
					if s.b != b {
						t.Fatalf("position %d: Play, Undo(%d) changed the board", i, c)
					}
					if n != search.Settled || got != want {
						t.Errorf("position %d cell %d: Leaf = %v, Play+Settle+Undo = %v (%v)", i, c, got, want, n)
					}
				}
			}
		})
	}
}
