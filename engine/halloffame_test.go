package engine

import (
	"testing"
)

// TestPooledScoreIntervalsStayInRange: a survivor's pooled score keeps
// its interval inside [0, 1], as every figure of a score run does; before,
// a run of few games wrote a checkpoint its own reader refused
// ("hall_of_fame[4].ci95: [-0.06, 0.31] does not hold its fitness 0.125").
func TestPooledScoreIntervalsStayInRange(t *testing.T) {
	for _, tc := range []struct {
		name      string
		objective Objective
		wantLo    float64
	}{
		{"score: clipped at 0", Score, 0},
		{"cost: left as it is", Solo, -0.0341},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &runner{cfg: &Config{}}
			r.cfg.Fitness.Objective = tc.objective
			r.cfg.Evolution.HallOfFame = 4
			genes := []float64{0.5}
			a := Member{Genes: genes, Fitness: 0.125, Games: 4, CI95: [2]float64{0, 0.45}}
			b := Member{Genes: genes, Fitness: 0.125, Games: 4, CI95: [2]float64{0, 0.45}, Generation: 1}
			got := r.updateHallOfFame(&species{minimise: tc.objective != Score}, []Member{a}, []Member{b})
			if len(got) != 1 || got[0].Games != 8 {
				t.Fatalf("hall of fame %+v, want the two evaluations pooled", got)
			}
			if lo := got[0].CI95[0]; lo < tc.wantLo-1e-3 || lo > tc.wantLo+1e-3 {
				t.Errorf("pooled interval %v, want its low end at %v", got[0].CI95, tc.wantLo)
			}
		})
	}
}
