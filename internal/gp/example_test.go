package gp_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/evotune/evotune/internal/gp"
)

// A Bayesian-optimisation step on one knob: fit the figures measured so
// far (each with its own variance), propose the next batch by Thompson
// sampling, and recommend the point with the best 95% lower bound.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	var points []gp.Point
	for i := range 12 {
		x := float64(i) / 11
		truth := 1 - 4*(x-0.6)*(x-0.6)
		points = append(points, gp.Point{X: []float64{x}, Y: truth + 0.05*rng.NormFloat64(), Var: 0.0025})
	}
	model, err := gp.Fit(points, nil, gp.Settings{}, rng)
	if err != nil {
		fmt.Println(err)
		return
	}
	cands := gp.Candidates(200, 1, [][]float64{{0.6}}, 0.1, rng)
	batch, err := model.Thompson(cands, 4, rng)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("batch of", len(batch))
	rec, err := model.Recommend(cands, 1.96)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("recommend x = %.1f, surface %.2f in [%.2f, %.2f]\n", rec.X[0], rec.Mean, rec.Low, rec.High)
	// Output:
	// batch of 4
	// recommend x = 0.6, surface 1.05 in [0.97, 1.13]
}
