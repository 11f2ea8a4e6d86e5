package genome

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestMutationValidate(t *testing.T) {
	tests := []struct {
		name string
		m    Mutation
		want string // substring of the error; "" for none
	}{
		{"zero value", Mutation{}, ""},
		{"explicit", Mutation{Sigma: 0.2, Rate: 0.5, ChoiceRate: 1}, ""},
		{"negative sigma", Mutation{Sigma: -0.1}, "sigma"},
		{"infinite sigma", Mutation{Sigma: math.Inf(1)}, "sigma"},
		{"rate above 1", Mutation{Rate: 1.5}, "rate 1.5"},
		{"NaN choice rate", Mutation{ChoiceRate: math.NaN()}, "choice rate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.m.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestMutateStaysInRange(t *testing.T) {
	for name, s := range testSpaces(t) {
		for _, sigma := range []float64{0.01, 0.5, 3} {
			t.Run(name, func(t *testing.T) {
				rng := newRand(11)
				m := Mutation{Sigma: sigma, Rate: 1, ChoiceRate: 0.5}
				genes := s.Random(rng)
				for range 1000 {
					s.Mutate(genes, m, rng)
					if err := s.Check(genes); err != nil {
						t.Fatal(err)
					}
					assertCanonical(t, s, genes)
				}
			})
		}
	}
}

func TestMutateReproducible(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	start := s.Random(newRand(1))
	run := func(seed uint64) []float64 {
		genes := slices.Clone(start)
		rng := newRand(seed)
		for range 10 {
			s.Mutate(genes, Mutation{Sigma: 0.2, Rate: 0.5}, rng)
		}
		return genes
	}
	if a, b := run(42), run(42); !slices.Equal(a, b) {
		t.Errorf("same seed, different mutations:\n%v\n%v", a, b)
	}
	if a, b := run(42), run(43); slices.Equal(a, b) {
		t.Error("different seeds, same mutations")
	}
}

// TestMutateMovesZeroGenes is the defect of eaopt's MutNormalFloat64 that
// Mutate exists to avoid: a gene at 0 must be able to move.
func TestMutateMovesZeroGenes(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	moved := make([]int, s.Len())
	rng := newRand(5)
	const trials = 400
	for range trials {
		genes := make([]float64, s.Len())
		for i := range genes {
			genes[i] = s.snap(i, 0)
		}
		before := slices.Clone(genes)
		s.Mutate(genes, Mutation{Sigma: 0.1, Rate: 1, ChoiceRate: 1}, rng)
		for i := range genes {
			if genes[i] != before[i] {
				moved[i]++
			}
		}
	}
	for i, g := range s.Genes() {
		// A step from 0 is clamped back half the time; ints, a bucket
		// from the edge, move less often.
		if moved[i] < trials/10 {
			t.Errorf("gene %v moved from 0 in %d of %d mutations", g, moved[i], trials)
		}
	}
}

func TestMutateIntStochasticRounding(t *testing.T) {
	// depth has 8 integers: a step of sigma 0.01 is worth 0.08 of one.
	s := mustSpace(t, Schema{{Name: "depth", Kind: Int, Min: 1, Max: 8, Default: Value{Num: 4}}}, "")
	start, _ := s.Encode(s.Schema().Defaults())
	rng := newRand(6)
	const trials = 20000
	moved, sum := 0, 0
	for range trials {
		genes := slices.Clone(start)
		s.Mutate(genes, Mutation{Sigma: 0.01, Rate: 1}, rng)
		v, _ := s.Decode(genes)
		if d := v.Int("depth") - 4; d != 0 {
			moved++
			sum += d
		}
	}
	// E|step| = 0.08 * sqrt(2/pi) ~ 0.064 of an integer, and the integer
	// moves with that probability.
	t.Logf("moved %d of %d, sum %d", moved, trials, sum)
	if frac := float64(moved) / trials; frac < 0.05 || frac > 0.08 {
		t.Errorf("a 0.08-integer step moved the int in %.3f of mutations, want about 0.064", frac)
	}
	if mean := float64(sum) / trials; math.Abs(mean) > 0.01 {
		t.Errorf("mean change %.4f, want about 0 (rounding must be unbiased)", mean)
	}
}

func TestMutateChoicesAndBools(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	rng := newRand(12)
	genes := s.Random(rng)
	for range 100 {
		before, _ := s.Decode(genes)
		s.Mutate(genes, Mutation{Rate: 1e-9, ChoiceRate: 1}, rng)
		after, _ := s.Decode(genes)
		if before.Choice("style") == after.Choice("style") {
			t.Fatal("a choice re-drawn with rate 1 kept its value")
		}
		if before.Bool("parity") == after.Bool("parity") {
			t.Fatal("a bool with flip rate 1 did not flip")
		}
	}
	t.Run("one choice", func(t *testing.T) {
		s := mustSpace(t, nil, "c: {type: choice, choices: [only]}\n")
		genes := s.Random(rng)
		if n := s.Mutate(genes, Mutation{ChoiceRate: 1}, rng); n != 0 {
			t.Errorf("%d genes of a one-choice space changed", n)
		}
	})
}

func TestMutateDefaultRate(t *testing.T) {
	s := mustSpace(t, nil, "a: {type: float, min: 0, max: 1}\nb: {type: grid, rows: 3, cols: 3, min: 0, max: 1}\n")
	rng := newRand(13)
	total := 0
	const trials = 5000
	for range trials {
		total += s.Mutate(s.Random(rng), Mutation{}, rng)
	}
	// Rate 1/Len: one gene on average (a few steps clamp to no change).
	if mean := float64(total) / trials; mean < 0.9 || mean > 1.1 {
		t.Errorf("default rate changed %.3f genes per mutation, want about 1", mean)
	}
}

func TestCross(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	for _, c := range []Crossover{Uniform, Blend} {
		t.Run(c.String(), func(t *testing.T) {
			rng := newRand(21)
			for range 2000 {
				a, b := s.Random(rng), s.Random(rng)
				x, y := slices.Clone(a), slices.Clone(b)
				s.Cross(c, DefaultAlpha, x, y, rng)
				for _, child := range [][]float64{x, y} {
					if err := s.Check(child); err != nil {
						t.Fatal(err)
					}
					assertCanonical(t, s, child)
				}
				for i, g := range s.genes {
					discrete := g.Kind == Bool || g.Kind == Choice
					if c == Uniform || discrete {
						if !(x[i] == a[i] && y[i] == b[i] || x[i] == b[i] && y[i] == a[i]) {
							t.Fatalf("gene %v: children %v, %v of parents %v, %v", g, x[i], y[i], a[i], b[i])
						}
						continue
					}
					assertBlendRange(t, s, i, a[i], b[i], x[i], DefaultAlpha)
					assertBlendRange(t, s, i, a[i], b[i], y[i], DefaultAlpha)
				}
			}
		})
	}
	t.Run("blend of identical parents breeds true", func(t *testing.T) {
		rng := newRand(22)
		for range 200 {
			a := s.Random(rng)
			x, y := slices.Clone(a), slices.Clone(a)
			s.Cross(Blend, DefaultAlpha, x, y, rng)
			if !slices.Equal(x, a) || !slices.Equal(y, a) {
				t.Fatalf("children %v, %v of %v twice", x, y, a)
			}
		}
	})
	t.Run("blend clamps", func(t *testing.T) {
		s := mustSpace(t, nil, "a: {type: float, min: 0, max: 1}\n")
		rng := newRand(23)
		clamped := 0
		for range 1000 {
			x, y := []float64{0.9}, []float64{1}
			s.Cross(Blend, 2, x, y, rng)
			for _, g := range []float64{x[0], y[0]} {
				if g < 0.7 || g > 1 {
					t.Fatalf("child %v outside [0.7, 1]", g)
				}
				if g == 1 {
					clamped++
				}
			}
		}
		if clamped == 0 {
			t.Error("no child reached the clamp at 1")
		}
	})
	t.Run("reproducible", func(t *testing.T) {
		a, b := s.Random(newRand(1)), s.Random(newRand(2))
		x1, y1 := slices.Clone(a), slices.Clone(b)
		x2, y2 := slices.Clone(a), slices.Clone(b)
		s.Cross(Blend, 0.5, x1, y1, newRand(3))
		s.Cross(Blend, 0.5, x2, y2, newRand(3))
		if !slices.Equal(x1, x2) || !slices.Equal(y1, y2) {
			t.Error("same seed, different children")
		}
	})
}

// assertBlendRange checks a BLX child: inside the parents' interval
// widened by alpha on each side, clamped to [0, 1]; an int may round out
// to the neighbouring bucket's centre.
func assertBlendRange(t *testing.T, s *Space, i int, a, b, child, alpha float64) {
	t.Helper()
	lo, hi := min(a, b), max(a, b)
	d := hi - lo
	lo, hi = max(lo-alpha*d, 0), min(hi+alpha*d, 1)
	if p := &s.params[s.genes[i].param]; p.Kind == Int {
		// Stochastic rounding reaches at most the next integer's centre.
		lo, hi = s.snapDown(i, lo), s.snapUp(i, hi)
	}
	if child < lo-1e-12 || child > hi+1e-12 {
		t.Fatalf("gene %v: child %v outside [%v, %v] for parents %v, %v", s.genes[i], child, lo, hi, a, b)
	}
}

// snapDown and snapUp give the centres of the integers just below and
// above a gene's position.
func (s *Space) snapDown(i int, g float64) float64 {
	p := &s.params[s.genes[i].param]
	return encodeInt(p, math.Floor(scaleOf(p).from(g)))
}

func (s *Space) snapUp(i int, g float64) float64 {
	p := &s.params[s.genes[i].param]
	return encodeInt(p, math.Ceil(scaleOf(p).from(g)))
}

func TestOpsPanicOnProgrammerErrors(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	rng := newRand(1)
	good := s.Random(rng)
	tests := []struct {
		name string
		call func()
	}{
		{"mutate short genes", func() { s.Mutate(good[:2], Mutation{}, rng) }},
		{"mutate bad settings", func() { s.Mutate(slices.Clone(good), Mutation{Rate: 2}, rng) }},
		{"cross short genes", func() { s.Cross(Uniform, 0, good[:2], slices.Clone(good), rng) }},
		{"cross unknown method", func() { s.Cross(0, 0, slices.Clone(good), slices.Clone(good), rng) }},
		{"cross negative alpha", func() { s.Cross(Blend, -1, slices.Clone(good), slices.Clone(good), rng) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.call()
		})
	}
}
