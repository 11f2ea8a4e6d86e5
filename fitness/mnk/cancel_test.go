package mnk

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/internal/ctxtest"
)

// TestCancelStopsTheSearch cancels tuned's depth-12 search of the empty
// 9,9,5 board (hours of work without its node budget, which keeps a
// search that does not look at ctx from hanging the test) at its 200th
// look at the context.
func TestCancelStopsTheSearch(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 12, Nodes: 3_000_000})
	pl := gm.own(mustPlayer(t, gm, "tuned"))
	s := gm.newSearcher(pl.w, 1, fitness.NewRand(1))
	defer s.release()
	const trip = 200
	var looks []int64
	ctx := ctxtest.TripRecording(trip, func() int64 { return s.eng.Nodes }, &looks)
	var p position
	_, err := s.next(ctx, &p)
	ctxtest.CheckSearchLooks(t, err, trip, looks, s.nodes, search.PollNodes)
}

// TestCancelStopsThePerfectSolver cancels perfect's first move on 4,4,4
// (about 200,000 positions) at its 50th look at the context. Its table
// outlives the game, so what the cancelled search left in it must still
// be true: the same solver then values every first move as a fresh one.
func TestCancelStopsThePerfectSolver(t *testing.T) {
	gm := mustGame(t, Rules{M: 4, N: 4, K: 4}, Limits{})
	s := gm.newSolverMover(fitness.NewRand(1))
	defer s.release()
	const trip = 50
	var looks []int64
	ctx := ctxtest.TripRecording(trip, func() int64 { return s.nodes }, &looks)
	var p position
	_, err := s.next(ctx, &p)
	ctxtest.CheckSearchLooks(t, err, trip, looks, s.nodes, search.PollNodes)
	if p != (position{}) {
		t.Fatalf("the position was not given back: %+v", p)
	}
	if testing.Short() {
		return
	}
	if _, err := s.next(context.Background(), &p); err != nil {
		t.Fatal(err)
	}
	fresh := &solver{gm: gm, g: gm.g, tt: make([]solverEntry, len(s.tt))}
	for _, c := range gm.g.order {
		if got, want := s.moveValue(&p, c), fresh.moveValue(&p, c); got != want {
			t.Errorf("after a cancelled search, the first move %s is worth %d; a fresh solver says %d", at(gm.g, c), got, want)
		}
	}
}

// TestCancelStopsTheGame cancels a game of deep searches in its third
// move or so: Play must return the context's error, no outcome, at the
// first look after the cancellation.
func TestCancelStopsTheGame(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 8, Nodes: 50_000})
	a, b := mustPlayer(t, gm, "tuned"), mustPlayer(t, gm, "classic")
	const trip = 150 // looks: about 150,000 nodes
	ctx, looks := ctxtest.Trip(trip)
	o, err := gm.Play(ctx, a, b, 7)
	if !errors.Is(err, context.Canceled) || *looks != trip+1 {
		t.Fatalf("outcome %v, err %v after %d looks: want context.Canceled at look %d", o, err, *looks, trip+1)
	}
}

// TestLiveContextPlaysTheSameGames: games under a context that could be
// cancelled but is not are the games played without one, move for move.
func TestLiveContextPlaysTheSameGames(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 3, Opening: 2})
	a, b := mustPlayer(t, gm, "tuned"), mustPlayer(t, gm, "classic")
	never := ctxtest.Never()
	games := uint64(4)
	if raceEnabled {
		games = 1
	}
	for seed := range games {
		out, moves, err := gm.playContext(never, a, b, seed, true)
		wantOut, wantMoves := gm.play(a, b, seed, true)
		if err != nil || out != wantOut || !slices.Equal(moves, wantMoves) {
			t.Fatalf("seed %d: %v %v (err %v) under a live context, %v %v without", seed, out, moves, err, wantOut, wantMoves)
		}
	}
}

// TestCancelledBeforeTheGame: a game whose context is cancelled already
// returns its error, whichever searching player moves first.
func TestCancelledBeforeTheGame(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		rules  Rules
		player string
	}{{Rules{M: 4, N: 4, K: 4}, "perfect"}, {Rules{M: 9, N: 9, K: 5}, "classic"}, {Rules{M: 9, N: 9, K: 5}, "tuned"}} {
		gm := mustGame(t, tc.rules, Limits{Depth: 8, Nodes: 50_000})
		p := mustPlayer(t, gm, tc.player)
		if o, err := gm.Play(ctx, p, p, 1); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: outcome %v, err %v: want context.Canceled", tc.player, o, err)
		}
	}
}
