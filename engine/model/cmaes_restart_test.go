package model

import (
	"math"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"gopkg.in/yaml.v3"
)

// TestCMAESRestartsWhenItCollapses drives CMA-ES on a noise-free bowl
// until its distribution collapses (gonum reports MethodDone): the search
// must restart around the best with the initial spread, and two drives
// must ask for the very same genomes before and after the restart.
func TestCMAESRestartsWhenItCollapses(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: {type: float, min: 0, max: 1}\nb: {type: float, min: 0, max: 1}\n"), &n); err != nil {
		t.Fatal(err)
	}
	s, err := genome.NewSpace(nil, n.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	drive := func() (asked [][]float64, restartAt int) {
		c := newCMAES(s, 6, DefaultStepSize, []float64{0.2, 0.2}, fitness.Derive(1, 2))
		defer c.close()
		restartAt = -1
		for g := 0; g < 3000 && (restartAt < 0 || g <= restartAt+2); g++ {
			pool := c.ask()
			asked = append(asked, pool...)
			costs := make([]float64, len(pool))
			for i, x := range pool {
				costs[i] = (x[0]-0.37)*(x[0]-0.37) + (x[1]-0.6)*(x[1]-0.6)
			}
			if err := c.tell(costs); err != nil {
				t.Fatal(err)
			}
			if c.Restarts > 0 && restartAt < 0 {
				restartAt = g
			}
		}
		return asked, restartAt
	}
	a, at := drive()
	if at < 0 {
		t.Fatal("no restart in 3000 generations")
	}
	b, _ := drive()
	if !slices.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) }) {
		t.Fatal("two drives asked for different genomes")
	}
	spread := func(gen int) float64 {
		pool := a[6*gen : 6*gen+6]
		var xs []float64
		for _, x := range pool {
			xs = append(xs, x[0])
		}
		_, sd := fitness.MeanSD(xs)
		return sd
	}
	before, after := spread(at), spread(at+1)
	t.Logf("restart after generation %d: spread %.3g before, %.3g after", at, before, after)
	if !(before < 1e-6 && after > 0.02) {
		t.Errorf("spread %.3g before the restart, %.3g after: want a collapse, then about the initial step size", before, after)
	}
	last := a[6*(at+1)]
	if math.Abs(last[0]-0.37) > 0.5 || math.Abs(last[1]-0.6) > 0.5 {
		t.Errorf("first sample after the restart %v, far from the optimum it collapsed on", last)
	}
}
