package battleship

import (
	"math"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestLookaheadMatchesBruteForce holds the two-shot lookahead to a
// reference computed from every layout that replays the shots: the joint
// probability of every pair of open cells, and the expected hits of two
// shots of the cell it fires at, which must be the best of all open cells.
func TestLookaheadMatchesBruteForce(t *testing.T) {
	for _, tc := range posteriorCases() {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeometry(t, tc.rules)
			shots := tc.play(t, g)
			var fired Bits
			for _, s := range shots {
				fired = fired.Set(s.Cell)
			}
			open := g.All.AndNot(fired)
			// The reference joint: every layout, weighted by the placer.
			joint := make([]float64, g.Cells*g.Cells)
			total := 0.0
			bruteLayouts(g, func(l Layout) {
				if !replay(g, l, shots) {
					return
				}
				w := priorWeight(g, l)
				total += w
				cells := l.Occupied().AndNot(fired).Cells(nil)
				for _, c := range cells {
					for _, d := range cells {
						joint[c*g.Cells+d] += w
					}
				}
			})
			for i := range joint {
				joint[i] /= total
			}
			f := newFleetPosterior(g, newDensityTables(g), posteriorParams{Samples: 1, Exact: 1 << 30, Fire: fireLookahead}, fitness.NewRand(1))
			for _, s := range shots {
				f.observe(s)
			}
			prob := f.probs()
			for _, c := range open.Cells(nil) {
				for _, d := range open.Cells(nil) {
					if got, want := f.pairs.w[c*g.Cells+d], joint[c*g.Cells+d]; math.Abs(got-want) > 1e-9 {
						t.Fatalf("P(%s, %s) = %.9f, want %.9f", g.Name(c), g.Name(d), got, want)
					}
				}
			}
			value := func(c int) float64 {
				hit, miss := 0.0, 0.0
				for _, d := range open.Cells(nil) {
					if d != c {
						hit = max(hit, joint[c*g.Cells+d])
						miss = max(miss, prob[d]-joint[c*g.Cells+d])
					}
				}
				return prob[c] + hit + miss
			}
			got := f.pairs.lookahead(prob, open)
			if !open.Has(got) {
				t.Fatalf("fired at %s, not open", g.Name(got))
			}
			for _, c := range open.Cells(nil) {
				if value(c) > value(got)+1e-12 {
					t.Errorf("fired at %s (%.6f expected hits in two shots); %s has %.6f", g.Name(got), value(got), g.Name(c), value(c))
				}
			}
		})
	}
}
