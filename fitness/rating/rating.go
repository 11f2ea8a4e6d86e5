// Package rating fits Bradley-Terry ratings to the games played among a
// set of players: the maximum-likelihood strengths under which player i
// beats player j with probability 1/(1+exp(theta_j-theta_i)), draws
// counting half a win each way, with the standard error of every rating.
//
// A player who won or lost every game has no finite maximum-likelihood
// rating, so every player also carries a prior of virtual drawn games
// against a reference of rating 0: ratings are always finite, and a
// player's rating moves from 0 only as far as its games say.
package rating

import (
	"fmt"
	"math"
	"sort"
)

// Pair is what two players scored against each other: A's total score
// (win 1, draw 1/2, loss 0) over Games games.
type Pair struct {
	A, B  int
	Games float64
	Score float64
}

// Rating is a fitted strength on the natural-log scale: a difference of
// 1 means odds of e to 1. SE is its standard error given the other
// players' ratings (the inverse square root of the Fisher information
// of the player's own rating).
type Rating struct {
	Theta float64
	SE    float64
	Games float64 // real games, the prior's not counted
}

// Elo converts a natural-log rating difference to Elo points (400 points:
// odds of 10 to 1).
func Elo(theta float64) float64 { return theta * 400 / math.Ln10 }

// Expected is the expected score of a player of rating a against one of
// rating b.
func Expected(a, b float64) float64 { return 1 / (1 + math.Exp(b-a)) }

// Options tune the fit; the zero value is the default.
type Options struct {
	// Prior is the number of virtual drawn games each player has against
	// the reference of rating 0; 0 means 1.
	Prior float64
	// Tolerance ends the iterations when no strength moves by more than
	// this fraction; 0 means 1e-10.
	Tolerance float64
	// MaxIterations bounds the minorisation-maximisation steps; 0 means
	// 100,000. A fit of at most 1,500 players that reaches it is
	// finished by Newton's method.
	MaxIterations int
}

// Fit rates n players from their pairs' results by minorisation-
// maximisation (Hunter 2004), which never leaves the feasible set and
// converges for every input once the prior connects all players. The
// result depends only on the pairs as a multiset in a fixed order: pairs
// are summed in the order given, so callers pass them in a deterministic
// order.
func Fit(n int, pairs []Pair, opt Options) ([]Rating, error) {
	prior := opt.Prior
	if prior == 0 {
		prior = 1
	}
	tol := opt.Tolerance
	if tol == 0 {
		tol = 1e-10
	}
	maxIter := opt.MaxIterations
	if maxIter == 0 {
		maxIter = 100_000
	}
	if prior < 0 || math.IsNaN(prior) {
		return nil, fmt.Errorf("rating: prior %v: want more than 0", prior)
	}
	// Adjacency lists, so an iteration costs the number of pairs.
	adj := make([][]edge, n)
	wins := make([]float64, n) // real score, plus half of the prior's draws
	games := make([]float64, n)
	for i := range wins {
		wins[i] = prior / 2
	}
	for k, p := range pairs {
		switch {
		case p.A < 0 || p.A >= n || p.B < 0 || p.B >= n || p.A == p.B:
			return nil, fmt.Errorf("rating: pair %d: players %d and %d of %d", k, p.A, p.B, n)
		case !(p.Games >= 0) || !(p.Score >= 0) || p.Score > p.Games || math.IsInf(p.Games, 0):
			return nil, fmt.Errorf("rating: pair %d: score %v over %v games", k, p.Score, p.Games)
		case p.Games == 0:
			continue
		}
		adj[p.A] = append(adj[p.A], edge{p.B, p.Games})
		adj[p.B] = append(adj[p.B], edge{p.A, p.Games})
		wins[p.A] += p.Score
		wins[p.B] += p.Games - p.Score
		games[p.A] += p.Games
		games[p.B] += p.Games
	}
	// Strengths gamma = exp(theta); the reference has gamma 1.
	gamma := make([]float64, n)
	next := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	converged := false
	for range maxIter {
		moved := 0.0
		for i := range n {
			denom := prior / (gamma[i] + 1)
			for _, e := range adj[i] {
				denom += e.games / (gamma[i] + gamma[e.j])
			}
			next[i] = wins[i] / denom
			moved = max(moved, math.Abs(next[i]-gamma[i])/gamma[i])
		}
		gamma, next = next, gamma
		// The games fix only differences of ratings; their common level
		// is fixed by the prior alone, a direction in which the sweeps
		// above crawl. Place the level at its optimum directly, by
		// Newton's method on the one shift.
		moved = max(moved, shiftToOptimum(gamma, prior))
		if moved < tol {
			converged = true
			break
		}
	}
	theta := make([]float64, n)
	for i := range theta {
		theta[i] = math.Log(gamma[i])
	}
	links := adj2pairs(adj)
	if !converged && n <= fullCovarianceMax {
		// Near-separable results (a player who won almost every game of
		// thousands) slow the sweeps to a crawl: they stop at the cap,
		// short of the optimum by up to tenths. Newton's method finishes
		// from there in a few steps.
		newton(theta, links, wins, prior)
	}
	se := relativeSE(theta, links, prior, fullCovarianceMax)
	out := make([]Rating, n)
	for i := range n {
		out[i] = Rating{Theta: theta[i], SE: se[i], Games: games[i]}
	}
	return out, nil
}

// shiftToOptimum multiplies every strength by the factor that maximises
// the prior's likelihood (the games' is unchanged by it) and returns the
// relative change.
func shiftToOptimum(gamma []float64, prior float64) float64 {
	c := 0.0
	for range 50 {
		var d1, d2 float64
		for _, g := range gamma {
			p := 1 / (1 + 1/(g*math.Exp(c)))
			d1 += prior * (0.5 - p)
			d2 += prior * p * (1 - p)
		}
		if d2 == 0 {
			break
		}
		step := d1 / d2
		c += step
		if math.Abs(step) < 1e-13 {
			break
		}
	}
	f := math.Exp(c)
	for i := range gamma {
		gamma[i] *= f
	}
	return math.Abs(f - 1)
}

// newtonStep is the longest step newton takes, in natural-log rating
// (odds of e^4 to 1).
const newtonStep = 4

// newton moves theta to the maximum of the log-likelihood by Newton's
// method with a backtracking line search: the likelihood is strictly
// concave (the prior's terms are), so a short enough step along Newton's
// direction raises it; within 1e-3 of the optimum it takes full steps.
// It stops when a step would move no rating by more than 1e-12, or when
// no step raises the likelihood.
func newton(theta []float64, links []link, wins []float64, prior float64) {
	n := len(theta)
	logLik := func(th []float64) float64 {
		l := 0.0
		for i, t := range th {
			l += wins[i]*t - prior*logAddExp(t, 0)
		}
		for _, k := range links {
			l -= k.games * logAddExp(th[k.i], th[k.j])
		}
		return l
	}
	grad := make([]float64, n)
	try := make([]float64, n)
	for range 100 {
		for i, t := range theta {
			grad[i] = wins[i] - prior*Expected(t, 0)
		}
		for _, k := range links {
			p := Expected(theta[k.i], theta[k.j])
			grad[k.i] -= k.games * p
			grad[k.j] -= k.games * (1 - p)
		}
		l, ok := choleskyOfFisher(theta, links, prior)
		if !ok {
			return
		}
		step := choleskySolve(l, grad)
		longest := 0.0
		for _, d := range step {
			longest = max(longest, math.Abs(d))
		}
		if longest <= 1e-12 {
			return
		}
		if longest <= 1e-3 {
			// Close to the optimum the full step is safe (the
			// information barely changes over it) and converges
			// quadratically, where the likelihood's gain would be lost in
			// its rounding.
			for i := range theta {
				theta[i] += step[i]
			}
			continue
		}
		// Steps of at most newtonStep, and only those that raise the
		// likelihood: where the likelihood is flat to rounding (ratings
		// far apart, a small prior) a full step could land anywhere.
		base := logLik(theta)
		moved := false
		for scale := min(1, newtonStep/longest); scale*longest > 1e-12; scale /= 2 {
			for i := range try {
				try[i] = theta[i] + scale*step[i]
			}
			if logLik(try) > base {
				copy(theta, try)
				moved = true
				break
			}
		}
		if !moved {
			return
		}
	}
}

// logAddExp is log(e^a + e^b), without overflow.
func logAddExp(a, b float64) float64 {
	hi, lo := max(a, b), min(a, b)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// choleskyOfFisher returns the lower-triangular L with L L^T the Fisher
// information of the ratings (the negated Hessian of the log-likelihood),
// or false when it is numerically singular.
func choleskyOfFisher(theta []float64, links []link, prior float64) ([][]float64, bool) {
	n := len(theta)
	a := make([][]float64, n)
	for i, t := range theta {
		a[i] = make([]float64, n)
		p := Expected(t, 0)
		a[i][i] = prior * p * (1 - p)
	}
	for _, k := range links {
		p := Expected(theta[k.i], theta[k.j])
		w := k.games * p * (1 - p)
		a[k.i][k.i] += w
		a[k.j][k.j] += w
		a[k.j][k.i] -= w // links have i < j: the lower triangle
	}
	return a, cholesky(a)
}

// cholesky factorises the symmetric matrix whose lower triangle a holds,
// in place: a = L L^T, L in the lower triangle. It reports false when the
// matrix is not numerically positive definite.
func cholesky(a [][]float64) bool {
	for j := range a {
		s := a[j][j]
		for k := range j {
			s -= a[j][k] * a[j][k]
		}
		if !(s > 0) {
			return false
		}
		a[j][j] = math.Sqrt(s)
		for i := j + 1; i < len(a); i++ {
			s := a[i][j]
			for k := range j {
				s -= a[i][k] * a[j][k]
			}
			a[i][j] = s / a[j][j]
		}
	}
	return true
}

// choleskySolve solves L L^T x = b.
func choleskySolve(l [][]float64, b []float64) []float64 {
	n := len(b)
	y := make([]float64, n)
	for i := range n {
		s := b[i]
		for k := range i {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * y[k]
		}
		y[i] = s / l[i][i]
	}
	return y
}

type link struct {
	i, j  int
	games float64
}

// edge is a player's games against player j, in its adjacency list.
type edge struct {
	j     int
	games float64
}

// adj2pairs lists every pair of the adjacency lists once.
func adj2pairs(adj [][]edge) []link {
	var out []link
	for i, es := range adj {
		for _, e := range es {
			if i < e.j {
				out = append(out, link{i, e.j, e.games})
			}
		}
	}
	return out
}

// fullCovarianceMax is the most players whose ratings get intervals from
// the full covariance (a Cholesky factorisation, n^3/3 steps); above it,
// each rating's interval is the one given the others' ratings.
const fullCovarianceMax = 1500

// relativeSE is the standard error of every rating relative to the mean
// of all of them: the interval of "how much better than the field".
// Above fullMax players (fullCovarianceMax in fits; a parameter so that
// tests can reach the limit with few players) it is the interval given
// the others' ratings.
func relativeSE(theta []float64, links []link, prior float64, fullMax int) []float64 {
	n := len(theta)
	diag := make([]float64, n)
	for i, t := range theta {
		p := Expected(t, 0)
		diag[i] = prior * p * (1 - p)
	}
	for _, l := range links {
		p := Expected(theta[l.i], theta[l.j])
		diag[l.i] += l.games * p * (1 - p)
		diag[l.j] += l.games * p * (1 - p)
	}
	se := make([]float64, n)
	conditional := func() []float64 {
		for i := range se {
			se[i] = 1 / math.Sqrt(diag[i])
		}
		return se
	}
	if n > fullMax {
		return conditional()
	}
	// The Fisher information is positive definite thanks to the prior;
	// numerically singular, the conditional intervals.
	a, ok := choleskyOfFisher(theta, links, prior)
	if !ok {
		return conditional()
	}
	// M = L^-1 (lower triangular); the covariance is M^T M.
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		m[i][i] = 1 / a[i][i]
		for j := range i {
			s := 0.0
			for k := j; k < i; k++ {
				s -= a[i][k] * m[k][j]
			}
			m[i][j] = s / a[i][i]
		}
	}
	// Var(theta_i - mean) = S_ii - 2 (S 1)_i / n + 1^T S 1 / n^2, with
	// S = M^T M: S_ii = sum_k M_ki^2, (S 1)_i = sum_k M_ki (M 1)_k.
	rowSum := make([]float64, n) // M 1
	for k := range n {
		for j := 0; j <= k; j++ {
			rowSum[k] += m[k][j]
		}
	}
	total := 0.0
	for _, r := range rowSum {
		total += r * r
	}
	fn := float64(n)
	for i := range n {
		var sii, s1 float64
		for k := i; k < n; k++ {
			sii += m[k][i] * m[k][i]
			s1 += m[k][i] * rowSum[k]
		}
		se[i] = math.Sqrt(max(0, sii-2*s1/fn+total/(fn*fn)))
	}
	return se
}

// Table accumulates the results of games between players into pairs.
type Table struct{ m map[[2]int]*Pair }

// Add records a game of a against b in which a scored score (1, 1/2 or 0).
func (t *Table) Add(a, b int, score float64) {
	if a == b {
		return // a player against itself says nothing of its strength
	}
	if t.m == nil {
		t.m = map[[2]int]*Pair{}
	}
	if a > b {
		a, b, score = b, a, 1-score
	}
	p := t.m[[2]int{a, b}]
	if p == nil {
		p = &Pair{A: a, B: b}
		t.m[[2]int{a, b}] = p
	}
	p.Games++
	p.Score += score
}

// Pairs lists the table's pairs ordered by (A, B), so fits of one table
// are identical whatever order its games were added in within a pair.
func (t *Table) Pairs() []Pair {
	out := make([]Pair, 0, len(t.m))
	for _, p := range t.m {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].A != out[j].A {
			return out[i].A < out[j].A
		}
		return out[i].B < out[j].B
	})
	return out
}
