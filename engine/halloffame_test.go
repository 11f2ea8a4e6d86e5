package engine

import (
	"testing"

	"github.com/evotune/evotune/engine/config"

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

// TestPooledScoreIntervalsStayInRange: a survivor's pooled score keeps
// its interval inside [0, 1], as every figure of a score run does; before,
// a run of few games wrote a checkpoint its own reader refused
// ("hall_of_fame[4].ci95: [-0.06, 0.31] does not hold its fitness 0.125").
func TestPooledScoreIntervalsStayInRange(t *testing.T) {
	for _, tc := range []struct {
		name      string
		objective config.Objective
		wantLo    float64
	}{
		{"score: clipped at 0", config.Score, 0},
		{"cost: left as it is", config.Solo, -0.0341},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &runner{Setup: &Setup{cfg: &config.Config{}}}
			r.cfg.Fitness.Objective = tc.objective
			r.cfg.Evolution.HallOfFame = 4
			genes := []float64{0.5}
			a := Member{Genes: genes, Figure: fitness.Figure{Fitness: 0.125, Games: 4, CI95: [2]float64{0, 0.45}}}
			b := Member{Genes: genes, Figure: fitness.Figure{Fitness: 0.125, Games: 4, CI95: [2]float64{0, 0.45}}, Generation: 1}
			got := r.updateHallOfFame(&species{minimise: tc.objective != config.Score}, []Member{a}, []Member{b})
			if len(got) != 1 || got[0].Games != 8 {
				t.Fatalf("hall of fame %+v, want the two evaluations pooled", got)
			}
			if lo := got[0].CI95[0]; lo < tc.wantLo-1e-3 || lo > tc.wantLo+1e-3 {
				t.Errorf("pooled interval %v, want its low end at %v", got[0].CI95, tc.wantLo)
			}
		})
	}
}
