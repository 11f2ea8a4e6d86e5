package genome

import (
	"math"
	"testing"
)

func TestRoundCases(t *testing.T) {
	s := mustSpace(t, nil, `
f: {type: float, min: 0, max: 10}
n: {type: int, min: 0, max: 4}
b: {type: bool}
c: {type: choice, choices: [x, y, z]}
`)
	// n's buckets are [k-0.5, k+0.5] of [-0.5, 4.5]: a gene g decodes to
	// 5g - 0.5 before rounding.
	gene := func(v float64) float64 { return (v + 0.5) / 5 }
	tests := []struct {
		name    string
		i       int
		x, u    float64
		want    float64
		decoded string // the value Decode gives, for the discrete kinds
	}{
		{"float stays", 0, 0.123, 0.9, 0.123, ""},
		{"int up below its fraction", 1, gene(1.3), 0.2, gene(2), "2"},
		{"int down at its fraction", 1, gene(1.3), 0.3, gene(1), "1"},
		{"int on a centre stays", 1, gene(3), 0, gene(3), "3"},
		{"int below the first centre", 1, 0.01, 0, gene(0), "0"},
		{"int above the last centre", 1, 0.99, 0, gene(4), "4"},
		{"bool between centres, low u", 2, 0.5, 0.49, 0.75, "true"},
		{"bool between centres, high u", 2, 0.5, 0.5, 0.25, "false"},
		{"bool below its first centre", 2, 0.1, 0, 0.25, "false"},
		{"choice a quarter past x", 3, 1.0/6 + 1.0/12, 0.2, 0.5, "y"},
		{"choice a quarter past x, high u", 3, 1.0/6 + 1.0/12, 0.3, 1.0 / 6, "x"},
		{"choice on z", 3, 5.0 / 6, 0.99, 5.0 / 6, "z"},
		{"outside [0, 1] is clamped", 0, 1.5, 0, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := s.Round(tc.i, tc.x, tc.u)
			if math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("Round(%d, %v, %v) = %v, want %v", tc.i, tc.x, tc.u, got, tc.want)
			}
			if tc.decoded == "" {
				return
			}
			genes := []float64{0.5, gene(2), 0.75, 0.5}
			genes[tc.i] = got
			v, err := s.Decode(genes)
			if err != nil {
				t.Fatal(err)
			}
			p := s.Params()[tc.i]
			if f := p.Format(v.Get(p.Name)); f != tc.decoded {
				t.Errorf("decodes to %s, want %s", f, tc.decoded)
			}
		})
	}
}

// TestRoundIsUnbiased: over uniform u an int gene's mean integer is the
// number its gene decodes to before rounding (on the log scale too), and
// a bool or choice gene's mean is the gene itself between its outermost
// centres. This is what keeps an SPSA step on a discrete knob unbiased.
func TestRoundIsUnbiased(t *testing.T) {
	for name, s := range testSpaces(t) {
		t.Run(name, func(t *testing.T) {
			rng := newRand(11)
			for i, g := range s.Genes() {
				p := &s.params[g.param]
				for range 50 {
					x := rng.Float64()
					const m = 2000
					var sum float64
					for j := range m {
						r := s.Round(i, x, (float64(j)+0.5)/m)
						if p.Kind == Int {
							r = decodeInt(p, r)
						}
						sum += r
					}
					mean := sum / m
					want := x
					switch p.Kind {
					case Int:
						want = math.Min(math.Max(scaleOf(p).from(x), p.Min), p.Max)
					case Bool:
						want = math.Min(math.Max(x, 0.25), 0.75)
					case Choice:
						n := float64(len(p.Choices))
						want = math.Min(math.Max(x, 0.5/n), 1-0.5/n)
					}
					if tol := 1e-3 * max(1, math.Abs(want)); math.Abs(mean-want) > tol {
						t.Fatalf("gene %d (%v) at %v: mean %v, want %v", i, g, x, mean, want)
					}
				}
			}
		})
	}
}

// TestRoundIsMonotone: one u for two values keeps their order, and every
// result is a genome's gene on its centre.
func TestRoundIsMonotone(t *testing.T) {
	for name, s := range testSpaces(t) {
		t.Run(name, func(t *testing.T) {
			rng := newRand(12)
			for range 3000 {
				lo := make([]float64, s.Len())
				hi := make([]float64, s.Len())
				for i := range lo {
					a, b := rng.Float64(), rng.Float64()
					u := rng.Float64()
					lo[i], hi[i] = s.Round(i, min(a, b), u), s.Round(i, max(a, b), u)
					if lo[i] > hi[i] {
						t.Fatalf("gene %d: %v <= %v rounded to %v > %v with u %v", i, min(a, b), max(a, b), lo[i], hi[i], u)
					}
				}
				for _, g := range [][]float64{lo, hi} {
					if err := s.Check(g); err != nil {
						t.Fatal(err)
					}
					assertCanonical(t, s, g)
				}
			}
		})
	}
}

// TestRoundKeepsGenomes: a genome's genes (discrete ones on their
// centres) come back unchanged whatever u is.
func TestRoundKeepsGenomes(t *testing.T) {
	for name, s := range testSpaces(t) {
		t.Run(name, func(t *testing.T) {
			rng := newRand(13)
			for range 500 {
				g := s.Random(rng)
				for i := range g {
					if r := s.Round(i, g[i], rng.Float64()); r != g[i] {
						t.Fatalf("gene %d moved from %v to %v", i, g[i], r)
					}
				}
			}
		})
	}
}

func TestRoundPanicsOnAForeignGene(t *testing.T) {
	s := mustSpace(t, nil, "f: {type: float, min: 0, max: 1}\n")
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	s.Round(1, 0.5, 0.5)
}
