package gp

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 3)) }

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// handPoints are three points of two dimensions, two of them measured on
// the same deals (group 1), each with its own noise.
func handPoints() []Point {
	return []Point{
		{X: []float64{0.1, 0.2}, Y: 1.0, Var: 0.04, Group: 1},
		{X: []float64{0.5, 0.9}, Y: 2.5, Var: 0.01, Group: 1},
		{X: []float64{0.8, 0.3}, Y: 0.5, Var: 0.09},
	}
}

func handHyper() Hyper {
	return Hyper{Signal: 0.8, Lengths: []float64{0.4, 0.7}, Nugget: 0.02, GroupVar: 0.1}
}

// direct is the posterior and the marginal likelihood computed as the
// textbook writes them (Rasmussen and Williams, eqs. 2.25-2.26, 2.30),
// with the 3x3 inverse and determinant by cofactors: nothing shared with
// the package but the definitions.
type direct struct {
	k       [3][3]float64 // covariance of the standardised figures
	inv     [3][3]float64
	det     float64
	y       [3]float64 // standardised
	mean, s float64    // standardisation
	h       Hyper
	pts     []Point
}

func newDirect(pts []Point, h Hyper) *direct {
	d := &direct{h: h, pts: pts}
	for _, p := range pts {
		d.mean += p.Y / 3
	}
	var ss float64
	for _, p := range pts {
		ss += (p.Y - d.mean) * (p.Y - d.mean)
	}
	d.s = math.Sqrt(ss / 3)
	for i, p := range pts {
		d.y[i] = (p.Y - d.mean) / d.s
	}
	for i := range 3 {
		for j := range 3 {
			d.k[i][j] = d.kern(pts[i].X, pts[j].X)
			if pts[i].Group != 0 && pts[i].Group == pts[j].Group {
				d.k[i][j] += h.GroupVar
			}
		}
		d.k[i][i] += pts[i].Var/(d.s*d.s) + h.Nugget
	}
	a := d.k
	d.det = a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) - a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) +
		a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	for i := range 3 {
		for j := range 3 {
			// inverse = adjugate / det: cofactor of a[j][i]
			r0, r1 := others(j)
			c0, c1 := others(i)
			minor := a[r0][c0]*a[r1][c1] - a[r0][c1]*a[r1][c0]
			sign := 1.0
			if (i+j)%2 == 1 {
				sign = -1
			}
			d.inv[i][j] = sign * minor / d.det
		}
	}
	return d
}

func others(i int) (int, int) {
	switch i {
	case 0:
		return 1, 2
	case 1:
		return 0, 2
	}
	return 0, 1
}

func (d *direct) kern(a, b []float64) float64 {
	var r2 float64
	for p := range a {
		t := (a[p] - b[p]) / d.h.Lengths[p]
		r2 += t * t
	}
	r := math.Sqrt(r2)
	return d.h.Signal * (1 + math.Sqrt(5)*r + 5*r*r/3) * math.Exp(-math.Sqrt(5)*r)
}

// predict is mean = m + s k*'K^-1 y, var = s^2 (k** - k*'K^-1 k*).
func (d *direct) predict(x []float64) (float64, float64) {
	var ks [3]float64
	for i, p := range d.pts {
		ks[i] = d.kern(x, p.X)
	}
	var mu, q float64
	for i := range 3 {
		for j := range 3 {
			mu += ks[i] * d.inv[i][j] * d.y[j]
			q += ks[i] * d.inv[i][j] * ks[j]
		}
	}
	return d.mean + d.s*mu, d.s * d.s * (d.kern(x, x) - q)
}

func (d *direct) lml() float64 {
	var fit float64
	for i := range 3 {
		for j := range 3 {
			fit += d.y[i] * d.inv[i][j] * d.y[j]
		}
	}
	return -0.5*fit - 0.5*math.Log(d.det) - 1.5*math.Log(2*math.Pi)
}

// TestPosteriorIsTheTextbooks: the posterior mean and variance and the
// log marginal likelihood on three hand-sized points, heteroscedastic and
// grouped, against the direct computation.
func TestPosteriorIsTheTextbooks(t *testing.T) {
	tests := []struct {
		name string
		pts  func() []Point
	}{
		{"grouped", handPoints},
		{"ungrouped", func() []Point {
			p := handPoints()
			p[0].Group, p[1].Group = 0, 0
			return p
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewModel(tc.pts(), handHyper())
			if err != nil {
				t.Fatal(err)
			}
			d := newDirect(tc.pts(), handHyper())
			if got, want := m.LogMarginalLikelihood(), d.lml(); !near(got, want, 1e-12) {
				t.Errorf("log marginal likelihood %v, want %v", got, want)
			}
			for _, x := range [][]float64{{0.3, 0.5}, {0.1, 0.2}, {1, 0}, {0.8, 0.31}} {
				mu, v := m.Predict(x)
				wmu, wv := d.predict(x)
				if !near(mu, wmu, 1e-12) || !near(v, wv, 1e-10) {
					t.Errorf("at %v: mean %v var %v, want %v %v", x, mu, v, wmu, wv)
				}
			}
		})
	}
}

// TestNoisierPointsCountLess: two figures at one place, one far noisier:
// the posterior mean there sits by the precise one.
func TestNoisierPointsCountLess(t *testing.T) {
	pts := []Point{
		{X: []float64{0.5}, Y: 1, Var: 0.001},
		{X: []float64{0.5}, Y: 3, Var: 10},
		{X: []float64{0.0}, Y: 2, Var: 0.5},
	}
	m, err := NewModel(pts, Hyper{Signal: 1, Lengths: []float64{0.3}, Nugget: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if mu, _ := m.Predict([]float64{0.5}); math.Abs(mu-1) > 0.05 {
		t.Errorf("mean %v at the two figures 1 (var 0.001) and 3 (var 10), want about 1", mu)
	}
}

// TestGradientMatchesDifferences: the analytic gradient of the marginal
// likelihood in the fit's coordinates against central differences, with
// groups and without.
func TestGradientMatchesDifferences(t *testing.T) {
	rng := newRand(1)
	for _, grouped := range []bool{false, true} {
		pts := make([]Point, 14)
		for i := range pts {
			x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
			pts[i] = Point{X: x, Y: math.Sin(6*x[0]) + x[1] + 0.3*rng.NormFloat64(), Var: 0.05 + 0.1*rng.Float64()}
			if grouped {
				pts[i].Group = 1 + i%4
			}
		}
		dt, err := newData(pts)
		if err != nil {
			t.Fatal(err)
		}
		f := fitter{dt: dt}
		for range 5 {
			z := f.randomZ(rng)
			_, g, err := f.negLML(z, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(g) != 3+2+btoi(grouped) {
				t.Fatalf("%d gradient entries", len(g))
			}
			for i := range z {
				const step = 1e-5
				zp, zm := slices.Clone(z), slices.Clone(z)
				zp[i] += step
				zm[i] -= step
				fp, _, err1 := f.negLML(zp, false)
				fm, _, err2 := f.negLML(zm, false)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				num := (fp - fm) / (2 * step)
				if math.Abs(num-g[i]) > 1e-5*max(1, math.Abs(num)) {
					t.Errorf("grouped %v: d/dz_%d = %v, differences give %v", grouped, i, g[i], num)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// smooth is a test surface on [0,1]^3 that varies fast along x0, slowly
// along x1 and not at all along x2.
func smooth(x []float64) float64 { return math.Sin(2*math.Pi*x[0]) + 0.5*x[1] }

func noisyPoints(rng *rand.Rand, n int, sd float64) []Point {
	pts := make([]Point, n)
	for i := range pts {
		x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		pts[i] = Point{X: x, Y: smooth(x) + sd*rng.NormFloat64(), Var: sd * sd}
	}
	return pts
}

// TestFitLearnsTheSurface: the fit raises the marginal likelihood above
// its start's, gives the dimension that does not matter the longest
// length scale and the fast one the shortest, and predicts the surface
// at fresh points better than the figures' spread.
func TestFitLearnsTheSurface(t *testing.T) {
	rng := newRand(2)
	pts := noisyPoints(rng, 60, 0.1)
	start := DefaultStart(3)
	m0, err := NewModel(pts, start)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Fit(pts, &start, Settings{}, newRand(3))
	if err != nil {
		t.Fatal(err)
	}
	h := m.Hyper()
	if m.LogMarginalLikelihood() <= m0.LogMarginalLikelihood() {
		t.Errorf("fit %v, start %v: no better", m.LogMarginalLikelihood(), m0.LogMarginalLikelihood())
	}
	if !(h.Lengths[0] < h.Lengths[1] && h.Lengths[1] < h.Lengths[2]) {
		t.Errorf("length scales %v: want the fast dimension shortest and the flat one longest", h.Lengths)
	}
	var se float64
	for range 200 {
		x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		mu, _ := m.Predict(x)
		se += (mu - smooth(x)) * (mu - smooth(x))
	}
	rmse := math.Sqrt(se / 200)
	t.Logf("fitted %+v, log likelihood %.2f (start %.2f), error %.3f", h, m.LogMarginalLikelihood(), m0.LogMarginalLikelihood(), rmse)
	if rmse > 0.15 {
		t.Errorf("prediction error %v at fresh points (the surface's spread is about 0.75)", rmse)
	}
}

// TestFitSeesThroughGroupOffsets: points measured in groups of shared
// deals carry a large offset per group. With the groups named, the
// model fits the offsets' variance and predicts the surface without
// them; without, it does much worse.
func TestFitSeesThroughGroupOffsets(t *testing.T) {
	rng := newRand(4)
	var grouped, plain []Point
	for g := 1; g <= 8; g++ {
		offset := 0.8 * rng.NormFloat64()
		for range 8 {
			x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
			y := smooth(x) + offset + 0.05*rng.NormFloat64()
			grouped = append(grouped, Point{X: x, Y: y, Var: 0.0025, Group: g})
			plain = append(plain, Point{X: x, Y: y, Var: 0.0025})
		}
	}
	errOf := func(pts []Point) (float64, Hyper) {
		m, err := Fit(pts, nil, Settings{}, newRand(5))
		if err != nil {
			t.Fatal(err)
		}
		// Offsets shift every prediction alike; compare shapes, less their means.
		var xs [][]float64
		var diffs []float64
		for range 200 {
			x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
			mu, _ := m.Predict(x)
			xs = append(xs, x)
			diffs = append(diffs, mu-smooth(x))
		}
		var mean float64
		for _, d := range diffs {
			mean += d / float64(len(diffs))
		}
		var se float64
		for _, d := range diffs {
			se += (d - mean) * (d - mean)
		}
		return math.Sqrt(se / float64(len(xs))), m.Hyper()
	}
	eg, hg := errOf(grouped)
	ep, hp := errOf(plain)
	t.Logf("shape error %.3f with groups (%+v), %.3f without (%+v)", eg, hg, ep, hp)
	if hg.GroupVar < 0.1 {
		t.Errorf("group variance %v (standardised), want it to hold the offsets", hg.GroupVar)
	}
	if eg > 0.1 || eg > ep/2 {
		t.Errorf("shape error %v with groups, %v without: want under 0.1 and half", eg, ep)
	}
}

// TestFitIsDeterministic: one seed, one model, bit for bit; and a fit
// resumed from its hyperparameters read back from JSON is the fit from
// the hyperparameters themselves.
func TestFitIsDeterministic(t *testing.T) {
	pts := noisyPoints(newRand(6), 40, 0.2)
	a, err := Fit(pts, nil, Settings{}, newRand(7))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(pts, nil, Settings{}, newRand(7))
	if err != nil {
		t.Fatal(err)
	}
	if !sameHyper(a.Hyper(), b.Hyper()) || a.LogMarginalLikelihood() != b.LogMarginalLikelihood() {
		t.Fatalf("two fits from one seed differ: %+v %+v", a.Hyper(), b.Hyper())
	}
	data, err := json.Marshal(a.Hyper())
	if err != nil {
		t.Fatal(err)
	}
	var back Hyper
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !sameHyper(back, a.Hyper()) {
		t.Fatalf("hyperparameters read back as %+v, want %+v", back, a.Hyper())
	}
	more := append(slices.Clone(pts), noisyPoints(newRand(8), 8, 0.2)...)
	h := a.Hyper()
	c, err := Fit(more, &h, Settings{}, newRand(9))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Fit(more, &back, Settings{}, newRand(9))
	if err != nil {
		t.Fatal(err)
	}
	if !sameHyper(c.Hyper(), d.Hyper()) {
		t.Errorf("a fit resumed from JSON differs: %+v %+v", c.Hyper(), d.Hyper())
	}
	x := []float64{0.2, 0.4, 0.6}
	m1, v1 := c.Predict(x)
	m2, v2 := d.Predict(x)
	if m1 != m2 || v1 != v2 {
		t.Errorf("predictions differ after resuming: %v %v, %v %v", m1, v1, m2, v2)
	}
}

func sameHyper(a, b Hyper) bool {
	bits := math.Float64bits
	if bits(a.Signal) != bits(b.Signal) || bits(a.Nugget) != bits(b.Nugget) ||
		bits(a.GroupVar) != bits(b.GroupVar) || len(a.Lengths) != len(b.Lengths) {
		return false
	}
	for i := range a.Lengths {
		if bits(a.Lengths[i]) != bits(b.Lengths[i]) {
			return false
		}
	}
	return true
}

func TestRefuses(t *testing.T) {
	ok := func() []Point { return handPoints() }
	tests := []struct {
		name  string
		pts   func() []Point
		error string
	}{
		{"no points", func() []Point { return nil }, "no points"},
		{"too many dimensions", func() []Point {
			return []Point{{X: make([]float64, 21), Y: 1}}
		}, "21 dimensions; a Gaussian process here models at most 20"},
		{"no dimensions", func() []Point { return []Point{{Y: 1}} }, "no dimension"},
		{"ragged", func() []Point { p := ok(); p[1].X = p[1].X[:1]; return p }, "point 1 has 1 coordinates"},
		{"outside the cube", func() []Point { p := ok(); p[2].X[0] = 1.01; return p }, "coordinate 0 is 1.01"},
		{"NaN figure", func() []Point { p := ok(); p[0].Y = math.NaN(); return p }, "figure NaN"},
		{"negative variance", func() []Point { p := ok(); p[0].Var = -1; return p }, "variance -1"},
		{"too many points", func() []Point { return make([]Point, MaxPoints+1) }, "2001 points"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err1 := Fit(tc.pts(), nil, Settings{}, newRand(1))
			_, err2 := NewModel(tc.pts(), handHyper())
			for _, err := range []error{err1, err2} {
				if err == nil || !strings.Contains(err.Error(), tc.error) {
					t.Errorf("error %v, want one saying %q", err, tc.error)
				}
			}
		})
	}
	bad := handHyper()
	bad.Lengths = []float64{1}
	if _, err := NewModel(handPoints(), bad); err == nil || !strings.Contains(err.Error(), "1 length scales for 2") {
		t.Errorf("error %v for one length scale of two", err)
	}
	bad = handHyper()
	bad.Nugget = 0
	if _, err := Fit(handPoints(), &bad, Settings{}, newRand(1)); err == nil || !strings.Contains(err.Error(), "nugget 0") {
		t.Errorf("error %v for a start with no nugget", err)
	}
}
