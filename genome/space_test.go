package genome

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// testSpaces are the spaces the property tests run over.
func testSpaces(tb testing.TB) map[string]*Space {
	return map[string]*Space{
		"declared": mustSpace(tb, testSchema(), ""),
		"narrowed": mustSpace(tb, testSchema(), `
edge: {min: 1, max: 5}
temp: {min: 0.1, max: 10}
depth: {min: 2, max: 6, log: true}
nodes: {fix: 5000}
style: {choices: [random, parity]}
weights: {symmetry: ring, min: -0.5, max: 0.5}
`),
		"free": mustSpace(tb, nil, `
a: {type: float, min: -3, max: 3}
n: {type: int, min: -5, max: 5}
one: {type: int, min: 4, max: 4}
g: {type: grid, rows: 3, cols: 5, min: 0, max: 1, symmetry: dihedral}
c: {type: choice, choices: [x]}
`),
	}
}

// randomValues draws typed values inside the space directly, not through
// genes, so that Encode and Decode are tested against an independent source.
func randomValues(s *Space, rng *rand.Rand) Values {
	v := Values{schema: s.schema, vals: make([]Value, len(s.schema))}
	for i := range s.params {
		p := &s.params[i]
		if s.fixed[i] {
			v.vals[i] = s.fixVal[i]
			continue
		}
		num := func() float64 {
			if p.Log {
				return math.Exp(math.Log(p.Min) + rng.Float64()*(math.Log(p.Max)-math.Log(p.Min)))
			}
			return p.Min + rng.Float64()*(p.Max-p.Min)
		}
		switch p.Kind {
		case Float:
			v.vals[i].Num = math.Min(num(), p.Max)
		case Int:
			v.vals[i].Num = p.Min + float64(rng.IntN(int(p.Max-p.Min)+1))
		case Bool:
			v.vals[i].Num = float64(rng.IntN(2))
		case Choice:
			v.vals[i].Str = p.Choices[rng.IntN(len(p.Choices))]
		case Grid:
			_, n := p.Classes()
			free := make([]float64, n)
			for c := range free {
				free[c] = math.Min(num(), p.Max)
			}
			v.vals[i].Cells = Expand(free, p.Rows, p.Cols, p.Symmetry)
		}
	}
	return v
}

func TestDecodeEncodeRoundTrip(t *testing.T) {
	for name, s := range testSpaces(t) {
		t.Run(name, func(t *testing.T) {
			rng := newRand(1)
			for range 2000 {
				v := randomValues(s, rng)
				genes, err := s.Encode(v)
				if err != nil {
					t.Fatalf("Encode: %v", err)
				}
				if err := s.Check(genes); err != nil {
					t.Fatalf("Encode gave a bad genome: %v", err)
				}
				back, err := s.Decode(genes)
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				assertValuesClose(t, s, back, v)
			}
		})
	}
}

// assertValuesClose wants ints, bools and choices equal, and numbers equal
// within a relative 1e-12 of the range.
func assertValuesClose(t *testing.T, s *Space, got, want Values) {
	t.Helper()
	for i := range s.params {
		p := &s.params[i]
		g, w := got.vals[i], want.vals[i]
		tol := 1e-12 * math.Max(p.Max-p.Min, math.Abs(p.Max))
		switch p.Kind {
		case Float:
			if math.Abs(g.Num-w.Num) > tol {
				t.Fatalf("%s: %v came back as %v", p.Name, w.Num, g.Num)
			}
		case Grid:
			for c := range w.Cells {
				if math.Abs(g.Cells[c]-w.Cells[c]) > tol {
					t.Fatalf("%s: cell %d %v came back as %v", p.Name, c, w.Cells[c], g.Cells[c])
				}
			}
		default:
			if !equalValue(g, w) {
				t.Fatalf("%s: %+v came back as %+v", p.Name, w, g)
			}
		}
		if err := s.schema[i].Check(g); err != nil {
			t.Fatalf("decoded value outside the declared range: %v", err)
		}
	}
}

func TestEncodeExactForTypicalSeeds(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	tests := []struct {
		param string
		xs    []float64
	}{
		{"edge", []float64{0, 0.1, 0.3, 1.5, 2.7, 3.3, 9.99, 10}},
		{"temp", []float64{0.01, 0.03, 0.3, 1, 2.5, 42, 99.9, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.param, func(t *testing.T) {
			for _, x := range tc.xs {
				v, err := s.Schema().Defaults().With(tc.param, Value{Num: x})
				if err != nil {
					t.Fatal(err)
				}
				genes, _ := s.Encode(v)
				back, _ := s.Decode(genes)
				if got := back.Float(tc.param); got != x {
					t.Errorf("%v came back as %v", x, got)
				}
			}
		})
	}
}

func TestEncodeClampsAndRejects(t *testing.T) {
	s := mustSpace(t, testSchema(), "edge: {max: 5}\ndepth: {min: 3}\nstyle: {choices: [parity]}\n")
	v := s.Schema().Defaults()
	v, _ = v.With("edge", Value{Num: 9})
	v, _ = v.With("depth", Value{Num: 1})
	v, _ = v.With("style", Value{Str: "parity"})
	genes, err := s.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	back, _ := s.Decode(genes)
	if back.Float("edge") != 5 || back.Int("depth") != 3 {
		t.Errorf("clamped to edge %v, depth %v; want 5, 3", back.Float("edge"), back.Int("depth"))
	}
	t.Run("excluded choice", func(t *testing.T) {
		v, _ := v.With("style", Value{Str: "random"})
		if _, err := s.Encode(v); err == nil || !strings.HasPrefix(err.Error(), "genome: style") {
			t.Errorf("Encode of an excluded choice = %v", err)
		}
	})
	t.Run("other schema", func(t *testing.T) {
		other := Schema{{Name: "x", Kind: Bool}}
		if _, err := s.Encode(other.Defaults()); err == nil {
			t.Error("Encode of another schema's values succeeded")
		}
		if _, err := s.Encode(Values{}); err == nil {
			t.Error("Encode of zero Values succeeded")
		}
	})
}

func TestDecodeRejectsBadGenomes(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	good := s.Random(newRand(3))
	tests := []struct {
		name  string
		genes []float64
		want  string
	}{
		{"short", good[:3], "3 genes, want 9"},
		{"NaN", replace(good, 2, math.NaN()), "gene 2 (depth) = NaN"},
		{"above 1", replace(good, 7, 1.5), "gene 7 (weights[1]) = 1.5 is outside [0, 1]"},
		{"negative", replace(good, 0, -0.1), "gene 0 (edge)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Decode(tc.genes)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "genome: ") {
				t.Errorf("Decode = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func replace(genes []float64, i int, x float64) []float64 {
	out := slices.Clone(genes)
	out[i] = x
	return out
}

func TestDecodeEnds(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	zeros, ones := make([]float64, s.Len()), make([]float64, s.Len())
	for i := range ones {
		ones[i] = 1
	}
	lo, _ := s.Decode(zeros)
	hi, _ := s.Decode(ones)
	if lo.Float("edge") != 0 || lo.Float("temp") != 0.01 || lo.Int("depth") != 1 || lo.Int("nodes") != 10 || lo.Bool("parity") || lo.Choice("style") != "greedy" {
		t.Errorf("genes at 0 decode to %v", lo.Map())
	}
	if hi.Float("edge") != 10 || hi.Float("temp") != 100 || hi.Int("depth") != 8 || hi.Int("nodes") != 100000 || !hi.Bool("parity") || hi.Choice("style") != "random" {
		t.Errorf("genes at 1 decode to %v", hi.Map())
	}
}

func TestRandom(t *testing.T) {
	for name, s := range testSpaces(t) {
		t.Run(name, func(t *testing.T) {
			a, b := s.Random(newRand(7)), s.Random(newRand(7))
			if !slices.Equal(a, b) {
				t.Fatal("Random is not a function of its seed")
			}
			rng := newRand(8)
			for range 500 {
				genes := s.Random(rng)
				if err := s.Check(genes); err != nil {
					t.Fatal(err)
				}
				assertCanonical(t, s, genes)
			}
		})
	}
	t.Run("ints uniform including the ends", func(t *testing.T) {
		s := mustSpace(t, Schema{{Name: "k", Kind: Int, Min: 1, Max: 8, Default: Value{Num: 1}}}, "")
		const draws = 16000
		count := map[int]int{}
		rng := newRand(9)
		for range draws {
			v, _ := s.Decode(s.Random(rng))
			count[v.Int("k")]++
		}
		for k := 1; k <= 8; k++ {
			if c := count[k]; c < draws/8*85/100 || c > draws/8*115/100 {
				t.Errorf("%d drawn %d times of %d, want about %d", k, c, draws, draws/8)
			}
		}
	})
}

// assertCanonical checks that discrete genes sit at their bucket centres.
func assertCanonical(t *testing.T, s *Space, genes []float64) {
	t.Helper()
	for i, g := range genes {
		if s.genes[i].Kind == Float || s.genes[i].Kind == Grid {
			continue
		}
		if c := s.snap(i, g); c != g {
			t.Fatalf("gene %d (%v) = %v, not at its centre %v", i, s.genes[i], g, c)
		}
	}
}

func TestGenes(t *testing.T) {
	s := mustSpace(t, testSchema(), "nodes: {fix: 100}\nweights: {symmetry: ring}\n")
	var names []string
	for _, g := range s.Genes() {
		names = append(names, g.String())
	}
	want := "edge temp depth parity style weights[0] weights[1]"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("genes %q, want %q", got, want)
	}
	if v, ok := s.Fixed("nodes"); !ok || v.Num != 100 {
		t.Errorf("Fixed(nodes) = %v, %v", v, ok)
	}
	if _, ok := s.Fixed("edge"); ok {
		t.Error("edge reported fixed")
	}
	p := s.Params()
	p[5].Choices[0] = "changed"
	if s.Params()[5].Choices[0] != "greedy" {
		t.Error("Params shares its slices with the space")
	}
}

func TestSpaceConcurrentUse(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			rng := newRand(uint64(w))
			for range 200 {
				genes := s.Random(rng)
				s.Mutate(genes, Mutation{}, rng)
				v, err := s.Decode(genes)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Encode(v); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
