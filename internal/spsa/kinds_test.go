package spsa_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/spsa"
	"gopkg.in/yaml.v3"
)

var _ spsa.Lattice = (*genome.Space)(nil)

// everyKind is a space with a gene of every kind, linear and log scales.
func everyKind(tb testing.TB) *genome.Space {
	tb.Helper()
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(`
x: {type: float, min: 0, max: 10}
t: {type: float, min: 0.01, max: 100, log: true}
n: {type: int, min: 0, max: 20}
m: {type: int, min: 1, max: 1000, log: true}
b: {type: bool}
c: {type: choice, choices: [p, q, r, s]}
w: {type: grid, rows: 3, cols: 3, min: -1, max: 1, symmetry: ring}
`), &node); err != nil {
		tb.Fatal(err)
	}
	s, err := genome.NewSpace(nil, &node)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// value is a smooth objective with its best at x=3, t=1, n=13, m=30,
// b=true, c=r and every grid weight 0.5, each term of about the same
// size across its range.
func value(tb testing.TB, s *genome.Space, genes []float64) float64 {
	v, err := s.Decode(genes)
	if err != nil {
		tb.Fatal(err)
	}
	sq := func(x float64) float64 { return x * x }
	f := -sq((v.Float("x")-3)/10) - sq(math.Log10(v.Float("t"))/4) -
		sq(float64(v.Int("n")-13)/20) - sq(math.Log(float64(v.Int("m"))/30)/math.Log(1000)) -
		sq(float64(slices.Index([]string{"p", "q", "r", "s"}, v.Choice("c"))-2)/4)
	if v.Bool("b") {
		f += 0.05
	}
	for _, w := range v.Grid("w") {
		f -= sq(w-0.5) / 8
	}
	return f
}

// TestEveryKnobKind: SPSA tunes genes of every kind as the genome
// encodes them. Its points are genomes (discrete genes on their centres,
// Plus and Minus on either side of theta in Delta's direction), and on a
// noise-free objective with a known best the recommendation (theta,
// snapped) reaches it on every knob, from five seeds.
func TestEveryKnobKind(t *testing.T) {
	s := everyKind(t)
	sc := spsa.Schedule{Pairs: 4000, ARatio: 0.1, Alpha: 0.602, Gamma: 0.101}
	for range s.Len() {
		sc.CEnd = append(sc.CEnd, 0.1)
		sc.REnd = append(sc.REnd, 0.5)
	}
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 1))
		st, err := spsa.New(s.Random(rng), sc)
		if err != nil {
			t.Fatal(err)
		}
		for st.K() < sc.Pairs {
			p := st.Perturb(st.K(), s, rng)
			for _, g := range [][]float64{p.Plus, p.Minus} {
				if err := s.Check(g); err != nil {
					t.Fatal(err)
				}
				if proj := s.Project(g); !slices.Equal(proj, g) {
					t.Fatalf("a perturbed point is not a genome: %v snaps to %v", g, proj)
				}
			}
			for j, d := range p.Delta {
				if (p.Plus[j]-p.Minus[j])*float64(d) < 0 {
					t.Fatalf("gene %d: plus %v and minus %v cross delta %d", j, p.Plus[j], p.Minus[j], d)
				}
			}
			y := value(t, s, p.Plus) - value(t, s, p.Minus)
			if err := st.Update(p, spsa.Result{Pairs: 1, Sum: y}); err != nil {
				t.Fatal(err)
			}
		}
		best, err := s.Decode(s.Project(st.Theta()))
		if err != nil {
			t.Fatal(err)
		}
		checks := []struct {
			name string
			ok   bool
		}{
			{"x near 3", math.Abs(best.Float("x")-3) < 0.5},
			{"t near 1", math.Abs(math.Log10(best.Float("t"))) < 0.15},
			{"n near 13", math.Abs(float64(best.Int("n")-13)) <= 1},
			{"m near 30", math.Abs(math.Log(float64(best.Int("m"))/30)) < 0.3},
			{"b true", best.Bool("b")},
			{"c is r", best.Choice("c") == "r"},
		}
		for _, w := range best.Grid("w") {
			checks = append(checks, struct {
				name string
				ok   bool
			}{"grid weight near 0.5", math.Abs(w-0.5) < 0.1})
		}
		for _, c := range checks {
			if !c.ok {
				t.Errorf("seed %d: want %s; recommended %v", seed, c.name, best.Map())
			}
		}
	}
}
