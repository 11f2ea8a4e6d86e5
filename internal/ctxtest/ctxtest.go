// Package ctxtest gives tests contexts that are found cancelled at a
// chosen look (a call of Err) rather than at a moment in time, so where a
// search or a game stops does not depend on timing.
package ctxtest

import (
	"context"
	"errors"
	"testing"
)

// looks is a context whose Err is the hook's. Done stays Background's
// (nil): the code under test polls Err, which is what these tests pin.
type looks struct {
	context.Context
	err func() error
}

func (c looks) Err() error { return c.err() }

// Func returns a context whose Err calls look.
func Func(look func() error) context.Context {
	return looks{context.Background(), look}
}

// Never returns a context that can be looked at but is never found
// cancelled: work under it must be the work done without a context.
func Never() context.Context {
	return Func(func() error { return nil })
}

// Trip returns a context found cancelled (context.Canceled) from look
// trip+1 on, and the number of looks so far.
func Trip(trip int) (context.Context, *int) {
	n := new(int)
	return Func(func() error {
		if *n++; *n > trip {
			return context.Canceled
		}
		return nil
	}), n
}

// TripRecording is Trip that appends at() to *seen at every look, so a
// test can tell where each look happened (a node count, shots fired).
func TripRecording[T any](trip int, at func() T, seen *[]T) context.Context {
	return Func(func() error {
		*seen = append(*seen, at())
		if len(*seen) > trip {
			return context.Canceled
		}
		return nil
	})
}

// CheckSearchLooks fails tb unless a search stopped with context.Canceled
// at look trip+1, at the node count of that look (stopped), having looked
// every poll nodes or sooner; looks holds the node count at each look
// (TripRecording).
func CheckSearchLooks(tb testing.TB, err error, trip int, looks []int64, stopped, poll int64) {
	tb.Helper()
	if !errors.Is(err, context.Canceled) {
		tb.Fatalf("err %v after %d nodes and %d looks: want context.Canceled at look %d", err, stopped, len(looks), trip+1)
	}
	if len(looks) != trip+1 || stopped != looks[trip] {
		tb.Fatalf("stopped at node %d after %d looks (the last at node %d): want at look %d", stopped, len(looks), looks[len(looks)-1], trip+1)
	}
	for i := 1; i < len(looks); i++ {
		if gap := looks[i] - looks[i-1]; gap > poll {
			tb.Fatalf("looks %d and %d are %d nodes apart: want at most %d", i-1, i, gap, poll)
		}
	}
}
