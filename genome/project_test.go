package genome

import (
	"math"
	"testing"
)

func TestMirror01(t *testing.T) {
	tests := []struct {
		name    string
		x, want float64
	}{
		{"inside", 0.3, 0.3},
		{"zero", 0, 0},
		{"one", 1, 1},
		{"just above one", 1.25, 0.75},
		{"two", 2, 0},
		{"just below zero", -0.25, 0.25},
		{"far below", -3.5, 0.5},
		{"far above", 7.1, 1 - 0.1},
		{"NaN", math.NaN(), 0.5},
		{"infinity", math.Inf(-1), 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mirror01(tc.x); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("mirror01(%v) = %v, want %v", tc.x, got, tc.want)
			}
		})
	}
}

// TestProjectGivesGenomes: any real vector projects to a genome of the
// space with its discrete genes at their centres; a genome projects to
// itself; the integers an int gene takes are those of the nearest bucket.
func TestProjectGivesGenomes(t *testing.T) {
	for name, s := range testSpaces(t) {
		t.Run(name, func(t *testing.T) {
			rng := newRand(5)
			for range 2000 {
				x := make([]float64, s.Len())
				for i := range x {
					x[i] = 4*rng.NormFloat64() + 0.5
				}
				g := s.Project(x)
				if err := s.Check(g); err != nil {
					t.Fatal(err)
				}
				assertCanonical(t, s, g)
				again := s.Project(g)
				for i := range g {
					if again[i] != g[i] {
						t.Fatalf("a genome moved under Project: gene %d %v -> %v", i, g[i], again[i])
					}
				}
			}
		})
	}
	s := mustSpace(t, nil, "n: {type: int, min: 0, max: 4}\n")
	for _, tc := range []struct {
		x    float64
		want float64
	}{{0.05, 0}, {0.35, 1}, {0.95, 4}, {1.05, 4}, {-0.05, 0}, {1.5, 2}} {
		v, err := s.Decode(s.Project([]float64{tc.x}))
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(v.Int("n")); got != tc.want {
			t.Errorf("x %v decodes to %v, want %v", tc.x, got, tc.want)
		}
	}
}
