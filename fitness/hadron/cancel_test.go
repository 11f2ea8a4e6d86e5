package hadron

import (
	"context"
	"errors"
	"testing"

	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/ctxtest"
)

// TestCancelStopsTheSearch cancels a depth-16 search from the empty board
// (hours of work without its node budget, which keeps a search that does
// not look at ctx from hanging the test) at its 200th look at the context:
// it must return the context's error at that look, having looked every
// search.PollNodes nodes or sooner.
func TestCancelStopsTheSearch(t *testing.T) {
	g := mustGame(t, Options{Size: 9, Depth: MaxDepth, Nodes: 5_000_000})
	p := newPlayer(t, g, "aenigma", genome.Values{})
	s := g.newMover(p.(*Player), 1).(*searcher)
	defer s.release()
	const trip = 200
	var looks []int64 // the node count at each look
	ctx := ctxtest.TripRecording(trip, func() int64 { return s.eng.Nodes }, &looks)
	_, err := s.next(ctx, mustBoard(t, 9))
	ctxtest.CheckSearchLooks(t, err, trip, looks, s.nodes, search.PollNodes)
}

// TestCancelStopsTheGame cancels a game of deep searches in its fourth
// move or so: Play must return the context's error, no outcome, at the
// first look after the cancellation. A game never cancelled is the same
// game under a context that could be.
func TestCancelStopsTheGame(t *testing.T) {
	g := mustGame(t, Options{Size: 7, Depth: MaxDepth, Nodes: 100_000})
	a := newPlayer(t, g, "aenigma", genome.Values{})
	b := newPlayer(t, g, "tuned", Schema(7).Defaults())
	const trip = 300 // looks: about 300,000 nodes
	ctx, looks := ctxtest.Trip(trip)
	o, err := g.Play(ctx, a, b, 7)
	if !errors.Is(err, context.Canceled) || *looks != trip+1 {
		t.Fatalf("outcome %v, err %v after %d looks: want context.Canceled at look %d", o, err, *looks, trip+1)
	}
	if testing.Short() {
		return
	}
	never := ctxtest.Never()
	got, err := g.PlayRecordContext(never, a, b, 7)
	if err != nil {
		t.Fatal(err)
	}
	if want := record(t, g, a, b, 7); got.String() != want.String() || got.Nodes != want.Nodes {
		t.Fatalf("under a live context:\n%v (%d nodes)\nwithout one:\n%v (%d nodes)", got, got.Nodes, want, want.Nodes)
	}
}

// TestCancelledBeforeTheGame: a game whose context is cancelled already
// plays no move.
func TestCancelledBeforeTheGame(t *testing.T) {
	g := mustGame(t, Options{Size: 7, Depth: MaxDepth, Nodes: 100_000})
	p := newPlayer(t, g, "aenigma", genome.Values{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := g.PlayRecordContext(ctx, p, p, 1); !errors.Is(err, context.Canceled) || len(r.Moves) != 0 {
		t.Fatalf("%d moves, err %v: want none and context.Canceled", len(r.Moves), err)
	}
}
