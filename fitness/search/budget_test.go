package search_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness/search"
)

// TestNodeBudgetExact checks the node budget exactly: Nodes counts the nodes of the
// last Choose; the first iteration always finishes; a later iteration
// stops at the first node past the budget (Nodes is then budget+1, whether
// that node is an inner node or a leaf), and the move of the last finished
// iteration is played.
func TestNodeBudgetExact(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 2))
		c := newCounters(rng, 4, 6)
		searcher := func(depth int, nodes int64) *search.Searcher[*counters] {
			return &search.Searcher[*counters]{Pos: c,
				Options: search.Options{Depth: depth, Nodes: nodes, Decided: counterWin / 2}, Table: search.NewTable(10)}
		}
		first := searcher(1, 0)
		first.Choose(rootMoves(c))
		full := searcher(5, 0)
		full.Choose(rootMoves(c))
		if first.Nodes < 1 || full.Nodes <= first.Nodes {
			t.Fatalf("seed %d: %d nodes at depth 1, %d at depth 5: want 1 <= depth 1 < depth 5", seed, first.Nodes, full.Nodes)
		}
		bests := deepen(c, 5)
		for _, budget := range []int64{1, first.Nodes + 1, (first.Nodes + full.Nodes) / 2, full.Nodes - 1, full.Nodes} {
			s := searcher(5, budget)
			got := s.Choose(rootMoves(c))
			switch {
			case budget < first.Nodes:
				if s.Nodes != first.Nodes+1 { // the second iteration's first node stops it
					t.Errorf("seed %d budget %d: %d nodes, want the first iteration's %d and one", seed, budget, s.Nodes, first.Nodes)
				}
			case budget >= full.Nodes:
				if s.Nodes != full.Nodes || got != bests[len(bests)-1] {
					t.Errorf("seed %d budget %d: %d nodes and move %d, want %d and %d", seed, budget, s.Nodes, got, full.Nodes, bests[len(bests)-1])
				}
			default:
				if s.Nodes != budget+1 {
					t.Errorf("seed %d budget %d: %d nodes, want budget+1", seed, budget, s.Nodes)
				}
				if !slices.Contains(bests, got) {
					t.Errorf("seed %d budget %d: move %d is no iteration's best %v", seed, budget, got, bests)
				}
			}
		}
	}
}
