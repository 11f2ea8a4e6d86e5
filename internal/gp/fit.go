package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// Settings configures Fit. The zero value is a usable default.
type Settings struct {
	// Restarts is how many local fits start from hyperparameters drawn
	// from the caller's stream, besides the one from the start. If it is
	// 0, DefaultRestarts is used; a negative value means none.
	Restarts int
	// MaxIterations bounds each local fit's L-BFGS iterations. If it is
	// 0, DefaultMaxIterations is used.
	MaxIterations int
}

// Fit's defaults.
const (
	DefaultRestarts      = 4
	DefaultMaxIterations = 200
)

// The box every hyperparameter is fitted in, on the standardised scale:
// figures of unit variance over a unit cube. Length scales below 0.03
// would model noise between neighbouring points; above 30 a dimension
// is flat. The nugget's floor keeps the covariance well conditioned.
var (
	boundSignal = [2]float64{1e-4, 1e2}
	boundLength = [2]float64{0.03, 30}
	boundNugget = [2]float64{1e-6, 10}
	boundGroup  = [2]float64{1e-6, 10}
)

// DefaultStart is the first start of a fit with no earlier
// hyperparameters: unit signal, length scales of 0.3 (bayes-skopt's
// default kernel), small nugget and group variances.
func DefaultStart(d int) Hyper {
	h := Hyper{Signal: 1, Lengths: make([]float64, d), Nugget: 1e-2, GroupVar: 1e-2}
	for p := range h.Lengths {
		h.Lengths[p] = 0.3
	}
	return h
}

// Fit conditions a Gaussian process on the points with the
// hyperparameters that maximise the log marginal likelihood inside the
// bounds above. It runs L-BFGS (gonum/optimize) from start (or
// DefaultStart when start is nil; a run's last hyperparameters make a
// good start) and from s.Restarts points drawn log-uniformly in the box
// from rng, and keeps the best; a local fit that fails is skipped. The
// group variance is fitted only when some group holds two points or more
// (else it is 0). Given the same points, start,
// settings and stream, Fit returns the same model bit for bit.
func Fit(points []Point, start *Hyper, s Settings, rng *rand.Rand) (*Model, error) {
	dt, err := newData(points)
	if err != nil {
		return nil, err
	}
	if s.Restarts == 0 {
		s.Restarts = DefaultRestarts
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = DefaultMaxIterations
	}
	h0 := DefaultStart(dt.d)
	if start != nil {
		if err := start.Check(dt.d); err != nil {
			return nil, err
		}
		h0 = *start
	}
	fx := fitter{dt: dt}
	starts := [][]float64{fx.toZ(h0)}
	for range max(s.Restarts, 0) {
		starts = append(starts, fx.randomZ(rng))
	}
	var best *Model
	for _, z0 := range starts {
		m, err := fx.local(z0, s.MaxIterations)
		if err != nil {
			continue
		}
		if best == nil || m.lml > best.lml {
			best = m
		}
	}
	if best == nil {
		return nil, errors.New("gp: no fit of the hyperparameters succeeded")
	}
	return best, nil
}

// fitter maps an unconstrained vector z to hyperparameters: each log
// hyperparameter is lo + (hi-lo)*sigmoid(z) of its bound's logs, in the
// order signal, lengths, nugget and, with groups, group variance.
type fitter struct {
	dt *data
}

func (f *fitter) bounds() [][2]float64 {
	b := [][2]float64{boundSignal}
	for range f.dt.d {
		b = append(b, boundLength)
	}
	b = append(b, boundNugget)
	if f.dt.groups {
		b = append(b, boundGroup)
	}
	return b
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// hyper turns z into hyperparameters and returns, for the chain rule,
// d(log value)/dz of each.
func (f *fitter) hyper(z []float64) (Hyper, []float64) {
	b := f.bounds()
	logs := make([]float64, len(z))
	dlog := make([]float64, len(z))
	for i, zi := range z {
		lo, hi := math.Log(b[i][0]), math.Log(b[i][1])
		s := sigmoid(zi)
		logs[i] = lo + (hi-lo)*s
		dlog[i] = (hi - lo) * s * (1 - s)
	}
	d := f.dt.d
	h := Hyper{Signal: math.Exp(logs[0]), Lengths: make([]float64, d), Nugget: math.Exp(logs[d+1])}
	for p := range d {
		h.Lengths[p] = math.Exp(logs[1+p])
	}
	if f.dt.groups {
		h.GroupVar = math.Exp(logs[d+2])
	}
	return h, dlog
}

// toZ is hyper's inverse, for a start; values on or past a bound are
// pulled just inside it.
func (f *fitter) toZ(h Hyper) []float64 {
	vals := append([]float64{h.Signal}, h.Lengths...)
	vals = append(vals, h.Nugget)
	if f.dt.groups {
		vals = append(vals, h.GroupVar)
		if h.GroupVar <= 0 {
			vals[len(vals)-1] = DefaultStart(0).GroupVar
		}
	}
	b := f.bounds()
	z := make([]float64, len(vals))
	for i, v := range vals {
		lo, hi := math.Log(b[i][0]), math.Log(b[i][1])
		s := (math.Log(v) - lo) / (hi - lo)
		s = math.Min(math.Max(s, 1e-6), 1-1e-6)
		if math.IsNaN(s) {
			s = 0.5
		}
		z[i] = math.Log(s / (1 - s))
	}
	return z
}

// randomZ draws a start log-uniformly in the box.
func (f *fitter) randomZ(rng *rand.Rand) []float64 {
	z := make([]float64, len(f.bounds()))
	for i := range z {
		s := 0.02 + 0.96*rng.Float64()
		z[i] = math.Log(s / (1 - s))
	}
	return z
}

// local runs one L-BFGS fit from z0 and returns the model at its end.
// gonum asks for the value and the gradient at a point in two calls; the
// one evaluation of both is kept for the second.
func (f *fitter) local(z0 []float64, iters int) (*Model, error) {
	var lastZ, lastG []float64
	var lastF float64
	var lastErr error
	eval := func(z []float64) {
		if lastZ != nil && slices.Equal(z, lastZ) {
			return
		}
		lastZ = slices.Clone(z)
		lastF, lastG, lastErr = f.negLML(z, true)
	}
	prob := optimize.Problem{
		Func: func(z []float64) float64 {
			eval(z)
			if lastErr != nil {
				return math.Inf(1)
			}
			return lastF
		},
		Grad: func(grad, z []float64) {
			eval(z)
			for i := range grad {
				if lastErr != nil {
					grad[i] = math.NaN()
				} else {
					grad[i] = lastG[i]
				}
			}
		},
	}
	settings := &optimize.Settings{
		MajorIterations:   iters,
		GradientThreshold: 1e-6,
		// A gain under a millionth of a nat over ten iterations changes no
		// prediction: stop there rather than at the iteration limit.
		Converger: &optimize.FunctionConverge{Absolute: 1e-6, Iterations: 10},
	}
	res, err := optimize.Minimize(prob, z0, settings, &optimize.LBFGS{})
	z := z0
	if res != nil && !math.IsInf(res.F, 0) && !math.IsNaN(res.F) {
		z = res.X
	} else if err != nil {
		return nil, err
	}
	h, _ := f.hyper(z)
	return f.dt.model(h)
}

// negLML is minus the log marginal likelihood at z and, when asked, its
// gradient in z:
//
//	d LML / d log theta = tr((alpha alpha' - K^-1) dK/d log theta) / 2.
func (f *fitter) negLML(z []float64, wantGrad bool) (float64, []float64, error) {
	h, dlog := f.hyper(z)
	m, err := f.dt.model(h)
	if err != nil {
		return 0, nil, err
	}
	if !wantGrad {
		return -m.lml, nil, nil
	}
	dt := f.dt
	n := len(dt.y)
	var kinv mat.SymDense
	_ = m.chol.InverseTo(&kinv) // a Condition error only warns
	// w = alpha alpha' - K^-1; the gradient of each log hyperparameter is
	// half the sum of w times dK/dlog theta over all i, j.
	w := func(i, j int) float64 { return m.alpha[i]*m.alpha[j] - kinv.At(i, j) }
	d := dt.d
	g := make([]float64, len(z))
	sq5 := math.Sqrt(5)
	for i := range n {
		for j := i; j < n; j++ {
			wij := w(i, j)
			if i != j {
				wij *= 2 // the pair (j, i) alike
			}
			r := scaledDist(dt.x[i], dt.x[j], h.Lengths)
			k := h.Signal * matern52(r)
			g[0] += wij * k
			if i != j {
				// dk/dlog l_p = signal*(5/3)(1+sqrt5 r)exp(-sqrt5 r)*(dx_p/l_p)^2
				common := h.Signal * 5 / 3 * (1 + sq5*r) * math.Exp(-sq5*r)
				for p := range d {
					t := (dt.x[i][p] - dt.x[j][p]) / h.Lengths[p]
					g[1+p] += wij * common * t * t
				}
			} else {
				g[d+1] += wij * h.Nugget
			}
			if dt.groups && dt.group[i] != 0 && dt.group[i] == dt.group[j] {
				g[d+2] += wij * h.GroupVar
			}
		}
	}
	for i := range g {
		g[i] = -0.5 * g[i] * dlog[i]
	}
	return -m.lml, g, nil
}
