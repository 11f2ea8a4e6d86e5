package search_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness/search"
)

// tripwire is the counters game that cancels a context at its trip-th
// node. Every node the search visits calls Settle (an inner node) or Leaf
// (a leaf) once, so visits counts the nodes visited.
type tripwire struct {
	*counters
	trip, visits int64
	cancel       context.CancelFunc
}

func (w *tripwire) visit() {
	if w.visits++; w.visits == w.trip {
		w.cancel()
	}
}

func (w *tripwire) Settle(depth, ply int) (float64, search.Move, search.Node) {
	w.visit()
	return w.counters.Settle(depth, ply)
}

func (w *tripwire) Leaf(m search.Move, ply int) float64 {
	w.visit()
	return w.counters.Leaf(m, ply)
}

// bigCounters is a counters game whose depth-12 search takes millions of
// nodes, far more than any trip point here.
func bigCounters(seed uint64) *counters {
	return newCounters(rand.New(rand.NewPCG(seed, 9)), 6, 9)
}

// TestCancelStopsWithinPollNodes cancels searches at nodes of every phase
// (the first iteration, a deep one, the first node) and checks that each
// stops within PollNodes nodes of the cancellation with the context's
// error and no move, and that the position is given back as it was.
func TestCancelStopsWithinPollNodes(t *testing.T) {
	for _, trip := range []int64{1, 2, search.PollNodes - 1, search.PollNodes, search.PollNodes + 1, 5000, 123_457} {
		for _, budget := range []int64{0, 200_000} {
			t.Run(fmt.Sprintf("trip %d budget %d", trip, budget), func(t *testing.T) {
				c := bigCounters(uint64(trip))
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				w := &tripwire{counters: c, trip: trip, cancel: cancel}
				s := search.Searcher[*tripwire]{Pos: w,
					Options: search.Options{Depth: 12, Nodes: budget, Decided: counterWin / 2, Narrow: true},
					Table:   search.NewTable(12)}
				m, err := s.ChooseContext(ctx, rootMoves(c))
				if !errors.Is(err, context.Canceled) || m != search.NoMove {
					t.Fatalf("move %d, err %v after %d nodes: want no move and context.Canceled", m, err, s.Nodes)
				}
				if s.Nodes < trip || s.Nodes > trip+search.PollNodes {
					t.Errorf("stopped at node %d, cancelled at node %d: want within %d nodes", s.Nodes, trip, search.PollNodes)
				}
				if c.played != 0 || slices.ContainsFunc(c.counts, func(k int) bool { return k != 0 }) {
					t.Errorf("position not given back: %d moves played, counts %v", c.played, c.counts)
				}
			})
		}
	}
}

// TestCancelledBeforeTheSearch: a context cancelled already stops the
// search before its first node.
func TestCancelledBeforeTheSearch(t *testing.T) {
	c := bigCounters(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := search.Searcher[*counters]{Pos: c, Options: search.Options{Depth: 12, Decided: counterWin / 2}, Table: search.NewTable(10)}
	if m, err := s.ChooseContext(ctx, rootMoves(c)); m != search.NoMove || !errors.Is(err, context.Canceled) || s.Nodes != 0 {
		t.Fatalf("move %d, err %v, %d nodes: want no move, context.Canceled and no node", m, err, s.Nodes)
	}
	// The searcher is not spoiled: the next search is a whole one.
	fresh := search.Searcher[*counters]{Pos: c, Options: search.Options{Depth: 4, Decided: counterWin / 2}, Table: search.NewTable(10)}
	want := fresh.Choose(rootMoves(c))
	s.Options.Depth = 4
	if m, err := s.ChooseContext(context.Background(), rootMoves(c)); m != want || err != nil || s.Nodes != fresh.Nodes {
		t.Fatalf("after a cancelled search: move %d, err %v, %d nodes; want %d, nil, %d", m, err, s.Nodes, want, fresh.Nodes)
	}
}

// TestLiveContextChangesNothing: under a context that is never cancelled
// the search is Choose's, node for node, and a node budget still stops it
// at exactly budget+1 nodes when the budget is not a multiple of
// PollNodes, is one, or lies just around one: the budget and the looks at
// ctx share one comparison per node.
func TestLiveContextChangesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := bigCounters(3)
	searcher := func(budget int64) *search.Searcher[*counters] {
		return &search.Searcher[*counters]{Pos: c,
			Options: search.Options{Depth: 7, Nodes: budget, Decided: counterWin / 2}, Table: search.NewTable(12)}
	}
	first, full := searcher(0), searcher(0)
	first.Options.Depth = 1
	first.Choose(rootMoves(c))
	full.Choose(rootMoves(c))
	for _, budget := range []int64{0, 1, search.PollNodes - 1, search.PollNodes, search.PollNodes + 1,
		2 * search.PollNodes, 2*search.PollNodes + 1, 3*search.PollNodes + 7, 40_000} {
		plain, live := searcher(budget), searcher(budget)
		want := plain.Choose(rootMoves(c))
		got, err := live.ChooseContext(ctx, rootMoves(c))
		if err != nil || got != want || live.Nodes != plain.Nodes {
			t.Errorf("budget %d: move %d, %d nodes, err %v; Choose gives %d, %d nodes", budget, got, live.Nodes, err, want, plain.Nodes)
		}
		if budget >= first.Nodes && budget < full.Nodes && live.Nodes != budget+1 {
			t.Errorf("budget %d: %d nodes, want budget+1", budget, live.Nodes)
		}
	}
}
