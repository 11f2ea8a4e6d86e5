package battleship

import (
	"fmt"
	"testing"

	"github.com/evotune/evotune/fitness"
)

func TestZZESS(t *testing.T) {
	g := mustGeometry(t, Classic())
	s := &posteriorShooter{p: posteriorParams{Samples: 400, Exact: 4096}, t: newDensityTables(g)}
	for seed := range uint64(3) {
		target := g.place(randomPlacer{}, seed, 0)
		gun := s.Start(g, fitness.NewRand(seed)).(*posteriorGunner)
		shots := 0
		for target.afloat > 0 {
			c := gun.Fire()
			f := gun.post
			sw, sw2, ng := 0.0, 0.0, 0
			for i := range f.n {
				if f.guided[i] {
					sw += f.w[i]
					sw2 += f.w[i] * f.w[i]
					ng++
				}
			}
			sh := target.shoot("p", c)
			fmt.Printf("%d:%s%v ng=%d ess=%.0f exact=%v | ", shots, g.Name(c), sh.Hit, ng, sw*sw/sw2, f.exact)
			gun.Observe(sh)
			shots++
		}
		fmt.Println()
	}
}
