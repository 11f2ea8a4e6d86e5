package engine

import (
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestSortBestKeepsTiesInPlace: members of equal fitness keep their pool
// order, best first by cost in either direction; the hall of fame, the
// elite and the natural-selection keepers are read off this order, so a
// tie must not depend on the sort's internals.
func TestSortBestKeepsTiesInPlace(t *testing.T) {
	for _, tc := range []struct {
		name     string
		minimise bool
		fits     []float64
		want     []float64 // the genes (pool positions), in sorted order
	}{
		{"maximise, all tied", false, []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, []float64{0, 1, 2, 3, 4, 5, 6, 7}},
		{"maximise, ties among others", false, []float64{0.2, 0.7, 0.2, 0.7, 0.9, 0.2}, []float64{4, 1, 3, 0, 2, 5}},
		{"minimise, ties among others", true, []float64{0.2, 0.7, 0.2, 0.7, 0.1, 0.2}, []float64{4, 0, 2, 5, 1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := &species{minimise: tc.minimise}
			ms := make([]Member, len(tc.fits))
			for i, f := range tc.fits {
				ms[i] = Member{Genes: []float64{float64(i)}, Figure: fitness.Figure{Fitness: f}}
			}
			sp.sortBest(ms)
			for i, m := range ms {
				if m.Genes[0] != tc.want[i] {
					t.Fatalf("position %d holds member %v, want %v (fitness %v)", i, m.Genes[0], tc.want[i], tc.fits)
				}
			}
		})
	}
}
