package spsa

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 2)) }

// handSchedule is the schedule the hand-worked tests use: fishtest's
// defaults on a budget of 100 pairs, two genes with their own c_end and
// r_end.
func handSchedule() Schedule {
	return Schedule{Pairs: 100, ARatio: 0.1, Alpha: 0.602, Gamma: 0.101,
		CEnd: []float64{0.05, 0.1}, REnd: []float64{0.002, 0.004}}
}

func mustNew(tb testing.TB, theta []float64, s Schedule) *State {
	tb.Helper()
	st, err := New(theta, s)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// TestGainsAreFishtests: c_k and R_k as fishtest's spsa_workflow.py
// computes them (parse_spsa_params, build_spsa_worker_step), worked out
// from its formulas by hand (in Python) for the hand schedule:
//
//	A = floor(0.1*100) = 10
//	c_j = c_end * 100^0.101            = 0.0796104363525585, 0.159220872705117
//	a_j = r_end * c_end^2 * 110^0.602  = 8.470097329186283e-05, 6.776077863349027e-04
//	c_kj = c_j / (k+1)^0.101, R_kj = a_j / (10+k+1)^0.602 / c_kj^2
func TestGainsAreFishtests(t *testing.T) {
	st := mustNew(t, []float64{0.5, 0.5}, handSchedule())
	tests := []struct {
		name string
		k    int
		c, r []float64
	}{
		{"first iteration", 0, []float64{0.07961043635255852, 0.15922087270511703},
			[]float64{0.0031552225393986968, 0.0063104450787973936}},
		{"after four pairs", 4, []float64{0.06766654992034557, 0.13533309984069114},
			[]float64{0.003623542796970415, 0.00724708559394083}},
		{"the last pair reaches c_end and r_end", 99, []float64{0.05, 0.1}, []float64{0.002, 0.004}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, r := st.Gains(tc.k)
			for j := range c {
				if !near(c[j], tc.c[j], 1e-13) || !near(r[j], tc.r[j], 1e-13) {
					t.Errorf("gene %d: c %v R %v, want c %v R %v", j, c[j], r[j], tc.c[j], tc.r[j])
				}
			}
		})
	}
	// fishtest truncates A: on 105 pairs A = int(10.5) = 10, so
	// c_0 = 0.05 * 105^0.101 and R_0 = 0.002 * 0.05^2 * 115^0.602 / 11^0.602 / c_0^2.
	odd := mustNew(t, []float64{0.5}, Schedule{Pairs: 105, ARatio: 0.1, Alpha: 0.602, Gamma: 0.101,
		CEnd: []float64{0.05}, REnd: []float64{0.002}})
	if c, r := odd.Gains(0); !near(c[0], 0.08000370937560797, 1e-13) || !near(r[0], 0.0032090128833600975, 1e-13) {
		t.Errorf("105 pairs: c %v R %v, want 0.08000370937560797 0.0032090128833600975", c[0], r[0])
	}
	// Constant gains (autoselect's): c_end and r_end at every k.
	sc := handSchedule()
	sc.ARatio, sc.Alpha, sc.Gamma = 0, 0, 0
	flat := mustNew(t, []float64{0.5, 0.5}, sc)
	for _, k := range []int{0, 1, 77, 1e6} {
		c, r := flat.Gains(k)
		for j := range c {
			if c[j] != sc.CEnd[j] || !near(r[j], sc.REnd[j], 1e-15) {
				t.Errorf("constant gains at k %d: c %v R %v", k, c, r)
			}
		}
	}
}

// TestHandWorkedIterations: the first two iterations of the hand
// schedule from theta (0.5, 0.2), worked out by hand from fishtest's
// update rule theta += R*c*(W-L)*flip. The seed's signs are part of what
// is pinned: the order of draws decides every run.
func TestHandWorkedIterations(t *testing.T) {
	st := mustNew(t, []float64{0.5, 0.2}, handSchedule())
	rng := newRand(1)
	steps := []struct {
		name         string
		delta        []int8
		plus, minus  []float64
		result       Result
		theta        []float64 // after the update
		k            int
		perturbAfter int
	}{
		{
			name:  "iteration 1: 4 pairs, Plus ahead by 3",
			delta: []int8{-1, -1},
			// theta -+ c_0: 0.5 - 0.0796104363525585, 0.2 - 0.159220872705117
			plus:   []float64{0.4203895636474415, 0.04077912729488298},
			minus:  []float64{0.5796104363525585, 0.35922087270511704},
			result: Result{Pairs: 4, Sum: 3},
			// theta + R*c*3*Delta = 0.5 - 0.000753565929452874, 0.2 - 0.003014263717811496
			theta: []float64{0.49924643407054714, 0.19698573628218852},
			k:     4,
		},
		{
			name:   "iteration 2: gains of k = 4, Plus behind by 2",
			delta:  []int8{-1, 1},
			plus:   []float64{0.49924643407054714 - 0.06766654992034557, 0.19698573628218852 + 0.13533309984069114},
			minus:  []float64{0.49924643407054714 + 0.06766654992034557, 0.19698573628218852 - 0.13533309984069114},
			result: Result{Pairs: 4, Sum: -2},
			// theta + R_4*c_4*(-2)*Delta
			theta: []float64{0.4997368193496666, 0.19502419516571087},
			k:     8,
		},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			p := st.Perturb(st.K(), Continuous{}, rng)
			if !slices.Equal(p.Delta, s.delta) {
				t.Fatalf("delta %v, want %v", p.Delta, s.delta)
			}
			for j := range p.Plus {
				if !near(p.Plus[j], s.plus[j], 1e-15) || !near(p.Minus[j], s.minus[j], 1e-15) {
					t.Errorf("gene %d: plus %v minus %v, want %v %v", j, p.Plus[j], p.Minus[j], s.plus[j], s.minus[j])
				}
			}
			if err := st.Update(p, s.result); err != nil {
				t.Fatal(err)
			}
			for j, x := range st.Theta() {
				if !near(x, s.theta[j], 1e-15) {
					t.Errorf("theta %d = %v, want %v", j, x, s.theta[j])
				}
			}
			if st.K() != s.k {
				t.Errorf("K = %d, want %d", st.K(), s.k)
			}
		})
	}
}

// quadratic is v(x) = -e * sum (x_j - 0.5)^2: the value falls by e/4 at
// either end of a gene's range.
func quadratic(e float64, x []float64) float64 {
	var s float64
	for _, v := range x {
		s += (v - 0.5) * (v - 0.5)
	}
	return -e * s
}

// TestNoiseFreeQuadratic: on one gene, noise-free, a pair on
// v(x) = -e*(x-0.5)^2 reports v(theta+cD) - v(theta-cD) = -4*e*c*D*x
// (x = theta - 0.5), so one update multiplies x by 1 - 4*e*R_k*c_k^2 =
// 1 - 4*e*a/(A+k+1)^alpha. After n iterations of one pair x is x_0 times
// the product of those factors, computed here from Spall's form of a_k
// rather than from the package's gains.
func TestNoiseFreeQuadratic(t *testing.T) {
	tests := []struct {
		name string
		s    Schedule
	}{
		{"Spall's decaying gains", Schedule{Pairs: 400, ARatio: 0.1, Alpha: 0.602, Gamma: 0.101,
			CEnd: []float64{0.05}, REnd: []float64{0.5}}},
		{"constant gains", Schedule{Pairs: 400, CEnd: []float64{1.0 / 6}, REnd: []float64{0.3}}},
	}
	const e, x0 = 2.0, 0.3
	for _, tc := range tests {
		t.Run(tc.s.String(), func(t *testing.T) {
			st := mustNew(t, []float64{0.5 + x0}, tc.s)
			rng := newRand(3)
			bigA := math.Floor(tc.s.ARatio * float64(tc.s.Pairs))
			a := tc.s.REnd[0] * tc.s.CEnd[0] * tc.s.CEnd[0] * math.Pow(bigA+float64(tc.s.Pairs), tc.s.Alpha)
			want := x0
			for k := range tc.s.Pairs {
				p := st.Perturb(st.K(), Continuous{}, rng)
				y := quadratic(e, p.Plus) - quadratic(e, p.Minus)
				if err := st.Update(p, Result{Pairs: 1, Sum: y}); err != nil {
					t.Fatal(err)
				}
				want *= 1 - 4*e*a/math.Pow(bigA+float64(k)+1, tc.s.Alpha)
				if got := st.Theta()[0] - 0.5; !near(got, want, 1e-12) {
					t.Fatalf("after %d iterations x = %v, want %v", k+1, got, want)
				}
			}
			if want > 0.05 {
				t.Fatalf("the test moved theta too little to mean anything: x = %v", want)
			}
		})
	}
}

// String names a schedule in test output.
func (s Schedule) String() string {
	if s.Alpha == 0 && s.Gamma == 0 {
		return "constant"
	}
	return "decaying"
}

// TestNoisyQuadraticMoments: with constant gains and Gaussian noise of
// standard deviation sigma on each pair, x = theta - 0.5 on one gene is
// the AR(1) process x' = phi*x + R*c*sigma*z*D with phi = 1 - 4*e*R*c^2,
// so after n pairs E x = phi^n x_0 and Var x = (R*c*sigma)^2 (1 -
// phi^2n) / (1 - phi^2). Over 2,000 seeds the sample mean and variance
// must match within four standard errors.
func TestNoisyQuadraticMoments(t *testing.T) {
	const (
		e, x0, sigma = 1.0, 0.2, 1.0
		c, r         = 1.0 / 6, 0.02
		n, seeds     = 400, 2000
	)
	sc := Schedule{Pairs: n, CEnd: []float64{c}, REnd: []float64{r}}
	phi := 1 - 4*e*r*c*c
	wantMean := math.Pow(phi, n) * x0
	wantVar := (r * c * sigma) * (r * c * sigma) * (1 - math.Pow(phi, 2*n)) / (1 - phi*phi)
	xs := make([]float64, seeds)
	for s := range xs {
		st := mustNew(t, []float64{0.5 + x0}, sc)
		rng := newRand(uint64(1000 + s))
		for range n {
			p := st.Perturb(st.K(), Continuous{}, rng)
			y := quadratic(e, p.Plus) - quadratic(e, p.Minus) + sigma*rng.NormFloat64()
			if err := st.Update(p, Result{Pairs: 1, Sum: y}); err != nil {
				t.Fatal(err)
			}
		}
		xs[s] = st.Theta()[0] - 0.5
	}
	mean, v := meanVar(xs)
	if se := math.Sqrt(wantVar / seeds); math.Abs(mean-wantMean) > 4*se {
		t.Errorf("mean x %v, want %v (standard error %v)", mean, wantMean, se)
	}
	if se := wantVar * math.Sqrt(2.0/seeds); math.Abs(v-wantVar) > 4*se {
		t.Errorf("variance of x %v, want %v (standard error %v)", v, wantVar, se)
	}
}

func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}

func TestPerturbIsDeterministic(t *testing.T) {
	st := mustNew(t, []float64{0.1, 0.5, 0.9}, NewSchedule(3, 50, 0.1, 0.01))
	a := st.Perturb(7, Continuous{}, newRand(9))
	b := st.Perturb(7, Continuous{}, newRand(9))
	if !equalPerturbations(a, b) {
		t.Fatalf("one seed, two perturbations:\n%+v\n%+v", a, b)
	}
	differ := false
	for s := range uint64(20) {
		if !slices.Equal(st.Perturb(7, Continuous{}, newRand(10+s)).Delta, a.Delta) {
			differ = true
		}
	}
	if !differ {
		t.Error("twenty seeds drew the same signs")
	}
}

func equalPerturbations(a, b Perturbation) bool {
	return a.K == b.K && slices.Equal(a.Delta, b.Delta) && slices.Equal(a.Plus, b.Plus) &&
		slices.Equal(a.Minus, b.Minus) && slices.Equal(a.C, b.C) && slices.Equal(a.R, b.R)
}

// TestPerturbClips: a point pushed past a bound stays on it, and so does
// theta moved past one.
func TestPerturbClips(t *testing.T) {
	st := mustNew(t, []float64{0.95, 0.02}, Schedule{Pairs: 10, CEnd: []float64{0.2, 0.2}, REnd: []float64{1, 1}})
	p := st.Perturb(0, Continuous{}, newRand(4))
	for j, th := range []float64{0.95, 0.02} {
		hi, lo := math.Min(th+0.2, 1), math.Max(th-0.2, 0)
		if d := p.Delta[j]; d < 0 {
			hi, lo = lo, hi
		}
		if p.Plus[j] != hi || p.Minus[j] != lo {
			t.Errorf("gene %d: plus %v minus %v, want %v %v", j, p.Plus[j], p.Minus[j], hi, lo)
		}
	}
	if err := st.Update(p, Result{Pairs: 1, Sum: 100}); err != nil {
		t.Fatal(err)
	}
	for j, x := range st.Theta() {
		if want := math.Max(0, float64(p.Delta[j])); x != want {
			t.Errorf("theta %d = %v, want it clipped to %v", j, x, want)
		}
	}
}

func TestUpdateRefuses(t *testing.T) {
	good := func() (*State, Perturbation) {
		st := mustNew(t, []float64{0.5, 0.5}, NewSchedule(2, 10, 0.1, 0.01))
		return st, st.Perturb(0, Continuous{}, newRand(1))
	}
	tests := []struct {
		name  string
		edit  func(*Perturbation, *Result)
		error string
	}{
		{"short perturbation", func(p *Perturbation, _ *Result) { p.Delta = p.Delta[:1] }, "perturbation of 1 genes"},
		{"short gains", func(p *Perturbation, _ *Result) { p.R = nil }, "perturbation of 2 genes"},
		{"negative pairs", func(_ *Perturbation, r *Result) { r.Pairs = -1 }, "-1 pairs"},
		{"NaN sum", func(_ *Perturbation, r *Result) { r.Sum = math.NaN() }, "NaN"},
		{"infinite sum", func(_ *Perturbation, r *Result) { r.Sum = math.Inf(1) }, "+Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, p := good()
			r := Result{Pairs: 2, Sum: 1}
			tc.edit(&p, &r)
			err := st.Update(p, r)
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Fatalf("error %v, want one saying %q", err, tc.error)
			}
			if !slices.Equal(st.Theta(), []float64{0.5, 0.5}) || st.K() != 0 {
				t.Errorf("a refused update changed the state: %v, %d", st.Theta(), st.K())
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name  string
		theta []float64
		s     Schedule
		error string
	}{
		{"no budget", []float64{0.5}, NewSchedule(1, 0, 0.1, 0.1), "budget of 0 pairs"},
		{"negative alpha", []float64{0.5}, Schedule{Pairs: 1, Alpha: -1, CEnd: []float64{0.1}, REnd: []float64{0.1}}, "alpha -1"},
		{"infinite gamma", []float64{0.5}, Schedule{Pairs: 1, Gamma: math.Inf(1), CEnd: []float64{0.1}, REnd: []float64{0.1}}, "gamma +Inf"},
		{"NaN A ratio", []float64{0.5}, Schedule{Pairs: 1, ARatio: math.NaN(), CEnd: []float64{0.1}, REnd: []float64{0.1}}, "a_ratio NaN"},
		{"zero c_end", []float64{0.5}, NewSchedule(1, 5, 0, 0.1), "c_end 0 is outside (0, 1]"},
		{"c_end past the range", []float64{0.5}, NewSchedule(1, 5, 1.5, 0.1), "c_end 1.5"},
		{"negative r_end", []float64{0.5}, NewSchedule(1, 5, 0.1, -0.1), "r_end -0.1"},
		{"lists of two lengths", []float64{0.5}, Schedule{Pairs: 1, CEnd: []float64{0.1}, REnd: []float64{0.1, 0.1}}, "1 values of c_end but 2 of r_end"},
		{"no genes", nil, Schedule{Pairs: 1}, "no genes"},
		{"theta too long", []float64{0.5, 0.5}, NewSchedule(1, 5, 0.1, 0.1), "theta has 2 genes, the schedule 1"},
		{"theta outside", []float64{1.5}, NewSchedule(1, 5, 0.1, 0.1), "gene 0 of theta is 1.5"},
		{"theta NaN", []float64{math.NaN()}, NewSchedule(1, 5, 0.1, 0.1), "gene 0 of theta is NaN"},
		// Each value in range, the gains not numbers.
		{"alpha 1e308", []float64{0.5}, Schedule{Pairs: 10, Alpha: 1e308, ARatio: 0.1, CEnd: []float64{0.1}, REnd: []float64{0.1}}, "make gains that are not numbers"},
		{"gamma 1e308", []float64{0.5}, Schedule{Pairs: 10, Gamma: 1e308, CEnd: []float64{0.1}, REnd: []float64{0.1}}, "make gains that are not numbers (c +Inf"},
		{"c_end whose square is 0", []float64{0.5}, NewSchedule(1, 5, 1e-170, 0.1), "gene 0: c_end 1e-170"},
		{"the second gene's gains", []float64{0.5, 0.5}, Schedule{Pairs: 1, CEnd: []float64{0.1, 1e-200}, REnd: []float64{0.1, 0.1}}, "gene 1: c_end 1e-200"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.theta, tc.s)
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Fatalf("error %v, want one saying %q", err, tc.error)
			}
		})
	}
}

// TestNewAcceptsItsBounds: the nearest schedules to those refused are
// taken: c_end of 1 and of the least whose square is a number, exponents
// of 0, an r_end of 0.
func TestNewAcceptsItsBounds(t *testing.T) {
	for _, s := range []Schedule{
		NewSchedule(1, 1, 1, 0),
		NewSchedule(1, 5, 1e-150, 0.1),
		{Pairs: 1, CEnd: []float64{0.5}, REnd: []float64{0.5}},
		{Pairs: 1 << 40, Alpha: 1, Gamma: 0.5, ARatio: 1, CEnd: []float64{0.5}, REnd: []float64{1e6}},
	} {
		if _, err := New([]float64{0.5}, s); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

// TestUpdateRefusesGainsThatOverflow: a schedule whose c_k shrinks
// faster than a_k (2 gamma above alpha) has R_k grow without bound past
// its budget; where it is no longer a number the update is refused,
// naming the pairs and the gene, and nothing moves.
func TestUpdateRefusesGainsThatOverflow(t *testing.T) {
	st := mustNew(t, []float64{0.5, 0.25}, Schedule{Pairs: 1, Gamma: 60, CEnd: []float64{0.5, 0.5}, REnd: []float64{0.1, 0.1}})
	p := st.Perturb(1<<40, Continuous{}, newRand(3))
	err := st.Update(p, Result{Pairs: 1, Sum: 1})
	if err == nil || !strings.Contains(err.Error(), "after 1099511627776 pairs, gene 0's step") {
		t.Fatalf("update with gains of %v, %v: %v; want a refusal", p.C, p.R, err)
	}
	if !slices.Equal(st.Theta(), []float64{0.5, 0.25}) || st.K() != 0 {
		t.Errorf("a refused update moved the state: %v, %d", st.Theta(), st.K())
	}
	// Within its budget the same schedule moves theta.
	p = st.Perturb(0, Continuous{}, newRand(3))
	if err := st.Update(p, Result{Pairs: 1, Sum: 1}); err != nil || slices.Equal(st.Theta(), []float64{0.5, 0.25}) {
		t.Fatalf("update at its first pair: %v, theta %v", err, st.Theta())
	}
}

// TestNewCopies: the caller's slices are not kept.
func TestNewCopies(t *testing.T) {
	theta := []float64{0.5}
	sc := NewSchedule(1, 5, 0.1, 0.1)
	st := mustNew(t, theta, sc)
	theta[0], sc.CEnd[0] = 0.9, 0.9
	if st.Theta()[0] != 0.5 || st.Schedule().CEnd[0] != 0.1 {
		t.Error("the state shares the caller's slices")
	}
}

// TestStateRoundTripsExactly: a state written to JSON and read back has
// theta's bits, K and the schedule, and continues exactly as the state it
// came from: the checkpoint's promise.
func TestStateRoundTripsExactly(t *testing.T) {
	sc := handSchedule()
	sc.CEnd[1] = 0.1 + 0.2 // not a short decimal
	st := mustNew(t, []float64{math.Nextafter(0.3, 1), 1.0 / 3}, sc)
	rng := newRand(5)
	for range 17 {
		p := st.Perturb(st.K(), Continuous{}, rng)
		if err := st.Update(p, Result{Pairs: 3, Sum: rng.NormFloat64() * 2}); err != nil {
			t.Fatal(err)
		}
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	for j, x := range st.Theta() {
		if math.Float64bits(back.Theta()[j]) != math.Float64bits(x) {
			t.Errorf("theta %d: %v read back as %v", j, x, back.Theta()[j])
		}
	}
	if back.K() != st.K() || !slices.Equal(back.Schedule().CEnd, st.Schedule().CEnd) {
		t.Errorf("read back K %d schedule %+v, want %d %+v", back.K(), back.Schedule(), st.K(), st.Schedule())
	}
	again, err := json.Marshal(&back)
	if err != nil || string(again) != string(data) {
		t.Errorf("written again differently:\n%s\n%s", data, again)
	}
	r1, r2 := newRand(6), newRand(6)
	for range 5 {
		p1 := st.Perturb(st.K(), Continuous{}, r1)
		p2 := back.Perturb(back.K(), Continuous{}, r2)
		if !equalPerturbations(p1, p2) {
			t.Fatalf("the resumed state perturbs differently:\n%+v\n%+v", p1, p2)
		}
		res := Result{Pairs: 2, Sum: 1.5}
		if st.Update(p1, res) != nil || back.Update(p2, res) != nil {
			t.Fatal("update failed")
		}
	}
	for j := range st.Theta() {
		if math.Float64bits(back.Theta()[j]) != math.Float64bits(st.Theta()[j]) {
			t.Errorf("theta %d drifted after resuming", j)
		}
	}
}

func TestUnmarshalRefuses(t *testing.T) {
	const sched = `"schedule":{"pairs":10,"a_ratio":0.1,"alpha":0.602,"gamma":0.101,"c_end":[0.1],"r_end":[0.002]}`
	tests := []struct {
		name, json, error string
	}{
		{"not JSON", `{`, "unexpected end"},
		{"negative k", `{` + sched + `,"theta":[0.5],"k":-1}`, "negative number of pairs"},
		{"theta outside", `{` + sched + `,"theta":[2],"k":0}`, "outside [0, 1]"},
		{"theta of another length", `{` + sched + `,"theta":[0.5,0.5],"k":0}`, "theta has 2 genes"},
		{"no schedule", `{"theta":[0.5],"k":0}`, "budget of 0 pairs"},
		{"a string for theta", `{` + sched + `,"theta":"x","k":0}`, "cannot unmarshal"},
		{"a field it does not know", `{` + sched + `,"theta":[0.5],"k":0,"momentum":0.9}`, `unknown field "momentum"`},
		{"a schedule field it does not know", `{"schedule":{"pairs":10,"c_end":[0.1],"r_end":[0.002],"beta":1},"theta":[0.5],"k":0}`, `unknown field "beta"`},
		{"gains that are not numbers", `{"schedule":{"pairs":10,"alpha":1e308,"a_ratio":1,"c_end":[0.1],"r_end":[0.002]},"theta":[0.5],"k":0}`, "not numbers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := mustNew(t, []float64{0.25}, NewSchedule(1, 3, 0.1, 0.1))
			err := json.Unmarshal([]byte(tc.json), st)
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Fatalf("error %v, want one saying %q", err, tc.error)
			}
			if st.Theta()[0] != 0.25 {
				t.Error("a refused checkpoint changed the state")
			}
		})
	}
}

func FuzzUnmarshalState(f *testing.F) {
	st := mustNew(f, []float64{0.5, 0.2}, handSchedule())
	data, err := json.Marshal(st)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"schedule":{"pairs":1,"c_end":[1],"r_end":[0]},"theta":[0],"k":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s State
		if json.Unmarshal(data, &s) != nil {
			return
		}
		out, err := json.Marshal(&s)
		if err != nil {
			t.Fatalf("an accepted state does not marshal: %v", err)
		}
		var again State
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("a state's own JSON is refused: %v\n%s", err, out)
		}
		p := again.Perturb(again.K(), Continuous{}, newRand(1))
		for j := range p.Plus {
			if !(p.Plus[j] >= 0 && p.Plus[j] <= 1 && p.Minus[j] >= 0 && p.Minus[j] <= 1) {
				t.Fatalf("an accepted state perturbs outside [0, 1]: %+v", p)
			}
		}
	})
}
