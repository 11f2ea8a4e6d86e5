package battleship

import (
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestLearnerRanksByItsLearnedGrid: with an exponent other than 1 the
// shooter ranks cells by roots of its multipliers (densitybound.go), so
// each game of a series must take the roots of the grid learned so far,
// not of the grid the learner started from: every game's shots equal
// those of the same game's shooter made to score every cell exactly.
func TestLearnerRanksByItsLearnedGrid(t *testing.T) {
	g := mustGeometry(t, Classic())
	for _, exp := range []float64{0.6, 1.7, 3} {
		v := learnerSchema(g.Rules).Defaults()
		var err error
		for name, x := range map[string]float64{tunedExponent: exp, learnerStrength: 2, tunedJitter: 0.02} {
			if v, err = v.With(name, genome.Value{Num: x}); err != nil {
				t.Fatal(err)
			}
		}
		p, err := newLearner(g, v)
		if err != nil {
			t.Fatal(err)
		}
		l := p.(*learnerShooter)
		mem := l.NewMemory(g).(*learnerMemory)
		for i := range uint64(12) {
			s := mem.shooter(g)
			if s.rt == nil {
				t.Fatalf("exponent %v, game %d: the shooter takes no roots; the test checks nothing", exp, i)
			}
			exact := &densityShooter{name: s.name, p: s.p, t: s.t} // no roots: every cell scored exactly
			target := g.place(blockHalfPlacer{}, i, 0)
			a := s.Start(g, fitness.NewRand(fitness.Derive(i, streamShooter, 0)))
			b := exact.Start(g, fitness.NewRand(fitness.Derive(i, streamShooter, 0)))
			var hits Bits
			for shot := 0; target.afloat > 0; shot++ {
				ca, cb := a.Fire(), b.Fire()
				if ca != cb {
					t.Fatalf("exponent %v, game %d, shot %d: by roots %d, scored exactly %d", exp, i, shot, ca, cb)
				}
				r := target.shoot(s.Name(), ca)
				a.Observe(r)
				b.Observe(r)
				if r.Hit {
					hits = hits.Set(r.Cell)
				}
			}
			mem.Learn(hits)
		}
	}
}
