package genome

import (
	"math"
	"strings"
	"testing"
)

// TestMutateStepSize checks the size of a mutation step, not only its
// range: with Rate 1, steps of a float gene and of an int gene on a fine
// linear scale have mean 0 and standard deviation Sigma (in gene units),
// far enough from the clamps that clamping plays no part.
func TestMutateStepSize(t *testing.T) {
	const sigma, n = 0.05, 4000
	for _, tc := range []struct{ name, space string }{
		{"float", "x: {type: float, min: 0, max: 1}\n"},
		{"int", "x: {type: int, min: 0, max: 1000000}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSpace(t, nil, tc.space)
			rng := newRand(31)
			var sum, sumSq float64
			for range n {
				g := []float64{0.5}
				s.Mutate(g, Mutation{Rate: 1, Sigma: sigma}, rng)
				d := g[0] - 0.5
				sum += d
				sumSq += d * d
			}
			mean := sum / n
			sd := math.Sqrt(sumSq/n - mean*mean)
			// The standard error of the mean is sigma/sqrt(n) = 0.0008 and
			// that of the deviation about 0.0006: these bounds are 4 of them.
			if math.Abs(mean) > 0.0032 || math.Abs(sd-sigma) > 0.0025 {
				t.Errorf("steps of mean %.4f and deviation %.4f, want 0 and %v", mean, sd, sigma)
			}
		})
	}
}

// TestMutateBoolAtHalf flips a bool gene on the decode threshold: 0.5
// decodes as true, so a flip makes it false.
func TestMutateBoolAtHalf(t *testing.T) {
	s := mustSpace(t, nil, "x: {type: bool}\n")
	g := []float64{0.5}
	if n := s.Mutate(g, Mutation{Rate: 1, ChoiceRate: 1}, newRand(1)); n != 1 || g[0] != encodeBool(false) {
		t.Errorf("gene 0.5 (true) mutated to %v (%d changed), want %v (false)", g[0], n, encodeBool(false))
	}
}

// TestBlendSpread checks where BLX-alpha children fall, not only their
// range: uniformly over the parents' interval widened by alpha on each
// side, so their mean is the parents' midpoint and they reach both ends;
// with alpha 0 they stay between the parents.
func TestBlendSpread(t *testing.T) {
	const n = 4000
	s := mustSpace(t, nil, "x: {type: float, min: 0, max: 1}\n")
	for _, tc := range []struct {
		name      string
		alpha     float64
		lo, hi    float64 // the widened interval
		nearEdges float64 // how close to each end some child must come
	}{
		{name: "alpha 0.5", alpha: 0.5, lo: 0.3, hi: 0.7, nearEdges: 0.01},
		{name: "alpha 0", alpha: 0, lo: 0.4, hi: 0.6, nearEdges: 0.005},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := newRand(41)
			for child := range 2 {
				var sum float64
				least, most := 1.0, 0.0
				for range n {
					a, b := []float64{0.4}, []float64{0.6}
					s.Cross(Blend, tc.alpha, a, b, rng)
					g := []float64{a[0], b[0]}[child]
					if g < tc.lo-1e-12 || g > tc.hi+1e-12 {
						t.Fatalf("child %d: %v outside [%v, %v]", child, g, tc.lo, tc.hi)
					}
					sum += g
					least, most = min(least, g), max(most, g)
				}
				// Uniform on [lo, hi]: the mean's standard error is at most
				// 0.4/sqrt(12n) = 0.0018.
				if mean := sum / n; math.Abs(mean-0.5) > 0.008 {
					t.Errorf("child %d: mean %.4f, want 0.5", child, mean)
				}
				if least > tc.lo+tc.nearEdges || most < tc.hi-tc.nearEdges {
					t.Errorf("child %d: children span [%.4f, %.4f], want about [%v, %v]", child, least, most, tc.lo, tc.hi)
				}
			}
		})
	}
}

// TestEnumNamesPastTheEnd names the first value past each enum's last,
// which has no name: a placeholder, and no panic.
func TestEnumNamesPastTheEnd(t *testing.T) {
	tests := []struct {
		name string
		got  func() string
		want string
	}{
		{"kind", func() string { return Kind(len(kindNames)).String() }, "Kind(6)"},
		{"symmetry", func() string { return Symmetry(len(symmetryNames)).String() }, "Symmetry(4)"},
		{"crossover", func() string { return Crossover(len(crossoverNames)).String() }, "Crossover(3)"},
		{"crossover text", func() string {
			_, err := Crossover(len(crossoverNames)).MarshalText()
			if err == nil {
				return "no error"
			}
			return err.Error()
		}, "genome: no name for Crossover(3)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.got(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestValidateThinGrids accepts grids one cell thin and rejects empty ones.
func TestValidateThinGrids(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		want       string // a substring of the error; "" when valid
	}{
		{name: "1x5", rows: 1, cols: 5},
		{name: "5x1", rows: 5, cols: 1},
		{name: "0x5", rows: 0, cols: 5, want: "grid of 0x5"},
		{name: "5x0", rows: 5, cols: 0, want: "grid of 5x0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Schema{{Name: "w", Kind: Grid, Rows: tc.rows, Cols: tc.cols, Min: 0, Max: 1, Symmetry: Full,
				Default: Value{Cells: make([]float64, tc.rows*tc.cols)}}}
			err := s.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v, want an error with %q", err, tc.want)
			}
		})
	}
}
