package gp

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestJointDrawsHaveThePosterior: the surfaces Thompson samples from
// have the posterior's mean and covariance at the candidates, checked
// against the direct computation over 20,000 draws (five standard
// errors).
func TestJointDrawsHaveThePosterior(t *testing.T) {
	m, err := NewModel(handPoints(), handHyper())
	if err != nil {
		t.Fatal(err)
	}
	d := newDirect(handPoints(), handHyper())
	cands := [][]float64{{0.3, 0.5}, {0.35, 0.5}, {0.9, 0.9}}
	const n = 20000
	draws, err := m.sampleJoint(cands, n, newRand(10))
	if err != nil {
		t.Fatal(err)
	}
	// The draws are standardised; so is this covariance:
	// k(a,b) - k_a' K^-1 k_b.
	wantCov := func(a, b []float64) float64 {
		var q float64
		for i, pi := range d.pts {
			for j, pj := range d.pts {
				q += d.kern(a, pi.X) * d.inv[i][j] * d.kern(b, pj.X)
			}
		}
		return d.kern(a, b) - q
	}
	mean := make([]float64, len(cands))
	for _, f := range draws {
		for i, v := range f {
			mean[i] += v / n
		}
	}
	for i, c := range cands {
		wm, _ := d.predict(c)
		wm = (wm - d.mean) / d.s
		if se := math.Sqrt(wantCov(c, c) / n); math.Abs(mean[i]-wm) > 5*se {
			t.Errorf("candidate %d: mean of draws %v, want %v (se %v)", i, mean[i], wm, se)
		}
		for j := i; j < len(cands); j++ {
			var c2 float64
			for _, f := range draws {
				c2 += (f[i] - mean[i]) * (f[j] - mean[j]) / (n - 1)
			}
			want := wantCov(c, cands[j])
			si, sj := math.Sqrt(wantCov(c, c)), math.Sqrt(wantCov(cands[j], cands[j]))
			if se := si * sj * math.Sqrt((1+want*want/(si*si*sj*sj))/n); math.Abs(c2-want) > 5*se {
				t.Errorf("cov(%d, %d) of draws %v, want %v (se %v)", i, j, c2, want, se)
			}
		}
	}
}

// sharpModel knows one dimension well: its surface peaks at 0.6.
func sharpModel(t *testing.T) *Model {
	t.Helper()
	var pts []Point
	for i := range 41 {
		x := float64(i) / 40
		pts = append(pts, Point{X: []float64{x}, Y: -8 * (x - 0.6) * (x - 0.6), Var: 1e-4})
	}
	m, err := Fit(pts, nil, Settings{}, newRand(11))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func grid(n int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = []float64{float64(i) / float64(n-1)}
	}
	return out
}

// TestThompsonProposes: a batch is distinct candidates, the same for the
// same seed; on a well-known surface the first pick of every batch is at
// its peak, and the batch then spreads around it rather than piling up.
func TestThompsonProposes(t *testing.T) {
	m := sharpModel(t)
	cands := grid(21) // 0, 0.05, ..., 1
	a, err := m.Thompson(cands, 5, newRand(12))
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Thompson(cands, 5, newRand(12))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Fatalf("one seed, two batches: %v %v", a, b)
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != 5 {
		t.Fatalf("batch %v repeats a candidate", a)
	}
	for s := range uint64(50) {
		batch, err := m.Thompson(cands, 3, newRand(100+s))
		if err != nil {
			t.Fatal(err)
		}
		if batch[0] != 12 { // x = 0.6
			t.Fatalf("seed %d: first pick %v, want the peak 0.6", s, cands[batch[0]])
		}
		for _, i := range batch {
			if math.Abs(cands[i][0]-0.6) > 0.16 {
				t.Errorf("seed %d: pick %v far from the peak on a known surface", s, cands[i])
			}
		}
	}
	// With one point and a vague model, picks spread over the candidates.
	vague, err := NewModel([]Point{{X: []float64{0.5}, Y: 0, Var: 1}}, Hyper{Signal: 1, Lengths: []float64{0.2}, Nugget: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for s := range uint64(50) {
		batch, err := vague.Thompson(cands, 1, newRand(200+s))
		if err != nil {
			t.Fatal(err)
		}
		seen[batch[0]] = true
	}
	if len(seen) < 8 {
		t.Errorf("50 single picks from a vague model took %d candidates, want them spread", len(seen))
	}
}

// TestRecommendTakesTheBestLowerBound: the choice is the argmax of mean -
// z*sd over the candidates, with its interval; against one lucky, noisy
// figure a well-measured region wins at z = 1.96.
func TestRecommendTakesTheBestLowerBound(t *testing.T) {
	pts := []Point{{X: []float64{0.1}, Y: 2, Var: 4}}
	for _, x := range []float64{0.6, 0.65, 0.7, 0.75, 0.8} {
		pts = append(pts, Point{X: []float64{x}, Y: 1, Var: 0.01})
	}
	m, err := NewModel(pts, Hyper{Signal: 1, Lengths: []float64{0.15}, Nugget: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	cands := grid(41)
	for _, z := range []float64{0, 1, 1.96, 3} {
		r, err := m.Recommend(cands, z)
		if err != nil {
			t.Fatal(err)
		}
		best, bestLow := -1, math.Inf(-1)
		for i, c := range cands {
			mu, v := m.Predict(c)
			if low := mu - z*math.Sqrt(v); low > bestLow {
				best, bestLow = i, low
			}
		}
		if r.Index != best {
			t.Errorf("z %v: recommended %v, the best lower bound is at %v", z, r.X, cands[best])
		}
		mu, v := m.Predict(r.X)
		if !near(r.Mean, mu, 1e-12) || !near(r.SD, math.Sqrt(v), 1e-12) ||
			!near(r.Low, mu-z*r.SD, 1e-12) || !near(r.High, mu+z*r.SD, 1e-12) {
			t.Errorf("z %v: %+v, want mean %v sd %v", z, r, mu, math.Sqrt(v))
		}
		if z == 1.96 && (r.X[0] < 0.55 || r.X[0] > 0.85 || r.Low > 1 || r.High < 1) {
			t.Errorf("z 1.96: %+v, want the well-measured region, its interval holding 1", r)
		}
	}
}

func TestProposalsRefuse(t *testing.T) {
	m, err := NewModel(handPoints(), handHyper())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		cands [][]float64
		q     int
		z     float64
		error string
	}{
		{"no candidates", nil, 1, 1, "no candidates"},
		{"a short candidate", [][]float64{{0.5}}, 1, 1, "candidate 0 has 1 coordinates, the model 2"},
		{"outside the cube", [][]float64{{0.5, 0.5}, {0.5, -0.1}}, 1, 1, "candidate 1: coordinate 1 is -0.1"},
		{"an empty batch", [][]float64{{0.5, 0.5}}, 0, 1, "a batch of 0 from 1"},
		{"a batch larger than the candidates", [][]float64{{0.5, 0.5}}, 2, 1, "a batch of 2 from 1"},
		{"a negative bound", [][]float64{{0.5, 0.5}}, 1, -1, "bound of -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err1 := m.Thompson(tc.cands, tc.q, newRand(1))
			_, err2 := m.Recommend(tc.cands, tc.z)
			if (err1 == nil || !strings.Contains(err1.Error(), tc.error)) &&
				(err2 == nil || !strings.Contains(err2.Error(), tc.error)) {
				t.Errorf("errors %v and %v, want one saying %q", err1, err2, tc.error)
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	centres := [][]float64{{0.2, 0.2, 0.2}, {0.9, 0.1, 0.5}}
	a := Candidates(200, 3, centres, 0.05, newRand(13))
	b := Candidates(200, 3, centres, 0.05, newRand(13))
	if len(a) != 200 {
		t.Fatalf("%d candidates", len(a))
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("one seed, two candidate sets at %d", i)
		}
		for _, x := range a[i] {
			if !(x >= 0 && x <= 1) {
				t.Fatalf("candidate %v outside the cube", a[i])
			}
		}
		if i%2 == 1 {
			c := centres[(i/2)%2]
			for p := range c {
				if math.Abs(a[i][p]-c[p]) > 0.25 {
					t.Errorf("local candidate %d %v far from its centre %v", i, a[i], c)
				}
			}
		}
	}
	far := 0
	for _, c := range Candidates(100, 3, nil, 0.05, newRand(14)) {
		if math.Abs(c[0]-0.2) > 0.25 && math.Abs(c[0]-0.9) > 0.25 {
			far++
		}
	}
	if far < 10 {
		t.Errorf("with no centres only %d of 100 candidates lie away from the centres", far)
	}
}
