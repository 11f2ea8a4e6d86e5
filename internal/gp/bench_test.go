package gp

import (
	"fmt"
	"testing"
)

// benchPoints are n noisy figures of a smooth surface on [0,1]^d, as a
// bayes run on the Battleship quickstart's 12 genes would tell.
func benchPoints(n, d int) []Point {
	rng := newRand(uint64(n*100 + d))
	pts := make([]Point, n)
	for i := range pts {
		x := make([]float64, d)
		var y float64
		for p := range x {
			x[p] = rng.Float64()
			y -= (x[p] - 0.4) * (x[p] - 0.4) / float64(p+1)
		}
		pts[i] = Point{X: x, Y: y + 0.05*rng.NormFloat64(), Var: 0.0025, Group: 1 + i/16}
	}
	return pts
}

// BenchmarkFit: a generation's fit, from the last hyperparameters (one
// restart) and from scratch (the default restarts).
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{64, 256, 512, MaxPoints} {
		pts := benchPoints(n, 12)
		warm, err := Fit(pts, nil, Settings{Restarts: -1}, newRand(1))
		if err != nil {
			b.Fatal(err)
		}
		h := warm.Hyper()
		for _, tc := range []struct {
			name  string
			start *Hyper
			s     Settings
		}{{"warm", &h, Settings{Restarts: -1}}, {"default", nil, Settings{}}} {
			if n == MaxPoints && tc.start == nil {
				continue // tens of seconds a restart: the warm fit says what a generation costs
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, tc.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := Fit(pts, tc.start, tc.s, newRand(2)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkThompson: a batch of 32 from 1,000 candidates.
func BenchmarkThompson(b *testing.B) {
	for _, n := range []int{64, 512} {
		pts := benchPoints(n, 12)
		m, err := NewModel(pts, Hyper{Signal: 1, Lengths: slicesOf(12, 0.5), Nugget: 1e-3, GroupVar: 0.1})
		if err != nil {
			b.Fatal(err)
		}
		cands := Candidates(1000, 12, [][]float64{pts[0].X}, 0.1, newRand(3))
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := m.Thompson(cands, 32, newRand(4)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func slicesOf(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}
