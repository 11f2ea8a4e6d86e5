package engine

import (
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestRaceCostsWithoutFinishers: with nobody finished (which racing,
// keeping mu, never does) there is no worst finisher to rank the
// dropped after, and the costs are told as they are.
func TestRaceCostsWithoutFinishers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		costs    []float64
		finished []bool
	}{
		{"one dropped", []float64{2}, []bool{false}},
		{"all dropped", []float64{3, -1, 2}, []bool{false, false, false}},
		{"nobody at all", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := raceCosts(tc.costs, tc.finished); !slices.Equal(got, tc.costs) {
				t.Fatalf("raceCosts(%v, %v) = %v, want them as they are", tc.costs, tc.finished, got)
			}
		})
	}
}

// TestCMAESCloseEndsItsGoroutine: close ends gonum's Run, which closes
// its channel of operations, whether Run waits for the first generation's
// values, for the next ask, or has ended already at a collapse (the
// search restarts at the next ask); closing twice is harmless.
func TestCMAESCloseEndsItsGoroutine(t *testing.T) {
	s := mixedSpace(t)
	for _, tc := range []struct {
		name string
		gens int // generations asked and told before the close
	}{
		{"before any tell", 0},
		{"after a tell", 1},
		{"after three", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCMAES(s, 6, DefaultStepSize, s.Random(fitness.NewRand(1)), 2)
			for g := range tc.gens {
				costs := make([]float64, len(c.ask()))
				for i := range costs {
					costs[i] = float64((i*7 + g) % 5)
				}
				if err := c.tell(costs); err != nil {
					t.Fatal(err)
				}
			}
			ops := c.ops
			c.close()
			select {
			case _, open := <-ops:
				if open {
					t.Fatal("Run sent an operation after close")
				}
			default:
				t.Fatal("after close, Run's channel of operations is still open: its goroutine runs on")
			}
			if c.ops != nil || c.res != nil {
				t.Fatal("close kept the channels of an ended Run")
			}
			c.close()
		})
	}
}
