package ctxtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestTrip(t *testing.T) {
	for _, trip := range []int{0, 1, 5} {
		ctx, n := Trip(trip)
		for look := 1; look <= trip+2; look++ {
			err := ctx.Err()
			if want := look > trip; errors.Is(err, context.Canceled) != want || *n != look {
				t.Fatalf("trip %d, look %d: err %v, %d looks counted", trip, look, err, *n)
			}
		}
	}
}

func TestTripRecording(t *testing.T) {
	var seen []int
	clock := 0
	ctx := TripRecording(2, func() int { clock += 10; return clock }, &seen)
	var errs []error
	for range 4 {
		errs = append(errs, ctx.Err())
	}
	if fmt.Sprint(seen) != "[10 20 30 40]" || errs[1] != nil || !errors.Is(errs[2], context.Canceled) || !errors.Is(errs[3], context.Canceled) {
		t.Fatalf("seen %v, errors %v", seen, errs)
	}
}

func TestNever(t *testing.T) {
	ctx := Never()
	for range 3 {
		if err := ctx.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if ctx.Done() != nil {
		t.Fatal("Done is not Background's")
	}
}

// recorder is a testing.TB that records a failure instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
}

func TestCheckSearchLooks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		looks   []int64
		stopped int64
		fails   bool
	}{
		{"stopped at the trip", context.Canceled, []int64{0, 8, 16}, 16, false},
		{"not cancelled", nil, []int64{0, 8, 16}, 16, true},
		{"a look too many", context.Canceled, []int64{0, 8, 16, 20}, 20, true},
		{"worked on after the look", context.Canceled, []int64{0, 8, 16}, 17, true},
		{"looks too far apart", context.Canceled, []int64{0, 11, 16}, 16, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckSearchLooks(r, tc.err, 2, tc.looks, tc.stopped, 10)
			if (r.failed != "") != tc.fails {
				t.Fatalf("failure %q, want one: %v", r.failed, tc.fails)
			}
		})
	}
}
