//go:build research

package battleship

import (
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// rolloutShooter is an experiment, not a player (research/README.md;
// it stays beside the posterior sampler whose pool it draws from, and
// builds with -tags research only): is one-shot greedy firing the floor, or can a shooter that looks
// past the next shot do better? It is one step of rollout (policy
// improvement) over the bare density kernel (over9000 without grid and
// jitter, so deterministic): while the posterior is sampled, it takes the
// kernel's choice and the posterior's likeliest cells (cands in all),
// plays each out to the end of the game on the same layouts drawn from
// the posterior's pool (common random numbers), the kernel firing after
// the first shot, and departs from the kernel's choice only for a cell
// that needed fewer shots (by z standard errors). Once the posterior is
// exact it fires as the kernel does.
type rolloutShooter struct {
	base           *densityShooter
	post           posteriorParams
	t              *densityTables
	cands, layouts int
	z              float64
	// rolled and departed count the decisions made by rollout and those
	// where it did not choose the kernel's cell.
	rolled, departed atomic.Int64
	// distinct sums the distinct layouts among each decision's draws, and
	// ess1000 a thousand times the pool's effective sample size.
	distinct, ess1000 atomic.Int64
}

// distinct returns the distinct values of x.
func distinct(x []int) map[int]bool {
	m := make(map[int]bool, len(x))
	for _, v := range x {
		m[v] = true
	}
	return m
}

func (s *rolloutShooter) Name() string { return "rollout" }

func (s *rolloutShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	return &rolloutGunner{s: s, g: g, rng: fitness.NewRand(rng.Uint64()),
		post: newFleetPosterior(g, s.t, s.post, fitness.NewRand(rng.Uint64()))}
}

type rolloutGunner struct {
	s     *rolloutShooter
	g     *Geometry
	rng   *rand.Rand
	post  *fleetPosterior
	fired Bits
	hist  []Shot
}

func (k *rolloutGunner) Observe(s Shot) {
	k.fired = k.fired.Set(s.Cell)
	k.hist = append(k.hist, s)
	k.post.observe(s)
}

func (k *rolloutGunner) Fire() int {
	prob := k.post.probs()
	var open []int
	for w := k.g.All.AndNot(k.fired); !w.Empty(); w = w.Rest() {
		open = append(open, w.First())
	}
	// Likeliest first; ties by cell, as the posterior shooter breaks them.
	slices.SortStableFunc(open, func(a, b int) int { return cmp.Compare(prob[b], prob[a]) })
	f := k.post
	if f.exact || f.n == 0 || k.s.cands == 1 {
		return k.baseChoice()
	}
	// Draw the layouts by their weights in the estimate (w times the
	// proposal's scale, see estimate).
	cum := make([]float64, f.n)
	sum := 0.0
	for i := range f.n {
		sum += f.w[i] * f.sw[f.gen[i]]
		cum[i] = sum
	}
	lay := make([]int, k.s.layouts)
	for r := range lay {
		x := k.rng.Float64() * sum
		i, _ := slices.BinarySearch(cum, x)
		lay[r] = min(i, f.n-1)
	}
	k.s.distinct.Add(int64(len(distinct(lay))))
	sq := 0.0
	for i := range f.n {
		w := f.w[i] * f.sw[f.gen[i]]
		sq += w * w
	}
	k.s.ess1000.Add(int64(1000 * sum * sum / sq))
	// The kernel's own choice is the first candidate, as rollout needs
	// for its guarantee: with exact evaluation it never does worse than
	// the kernel. The likeliest cells of the posterior follow.
	cands := []int{k.baseChoice()}
	for _, c := range open {
		if len(cands) >= k.s.cands {
			break
		}
		if c != cands[0] {
			cands = append(cands, c)
		}
	}
	// Another candidate replaces the kernel's only if it needs fewer shots
	// by more than z standard errors of the paired differences.
	baseShots := make([]float64, len(lay))
	for r, i := range lay {
		baseShots[r] = float64(k.playOut(cands[0], f.ships[i*f.k:(i+1)*f.k]))
	}
	best, bestGain := cands[0], 0.0
	diff := make([]float64, len(lay))
	for _, c := range cands[1:] {
		for r, i := range lay {
			diff[r] = baseShots[r] - float64(k.playOut(c, f.ships[i*f.k:(i+1)*f.k]))
		}
		gain, sd := fitness.MeanSD(diff)
		if gain > bestGain && gain > k.s.z*sd/math.Sqrt(float64(len(lay))) {
			best, bestGain = c, gain
		}
	}
	k.s.rolled.Add(1)
	if best != cands[0] {
		k.s.departed.Add(1)
	}
	return best
}

// baseChoice returns the cell the kernel fires at after this game's shots.
func (k *rolloutGunner) baseChoice() int {
	gun := k.s.base.Start(k.g, k.rng)
	for _, h := range k.hist {
		gun.Observe(h)
	}
	c := gun.Fire()
	recycle(gun)
	return c
}

// playOut returns the shots the game takes on layout ships if the next
// shot goes to c and the kernel plays the rest.
func (k *rolloutGunner) playOut(c int, ships []Bits) int {
	fl := newFleet(k.g, Layout{Ships: ships})
	gun := k.s.base.Start(k.g, k.rng)
	for _, h := range k.hist {
		fl.shoot("rollout", h.Cell)
		gun.Observe(h)
	}
	n := len(k.hist) + 1
	gun.Observe(fl.shoot("rollout", c))
	for fl.afloat > 0 {
		gun.Observe(fl.shoot("rollout", gun.Fire()))
		n++
	}
	recycle(gun)
	return n
}

// BenchmarkRollout plays b.N solo games (seeds 0 to b.N-1) of the rollout
// experiment against random placement, on all cores, and reports the mean
// shots and their standard deviation. ROLLOUT_CANDS and ROLLOUT_LAYOUTS
// set its budget (default 4 and 24), ROLLOUT_Z10 ten times the z a
// departure from the kernel's choice needs (default 0); ROLLOUT_CANDS=1 is the kernel
// (as a check: it must score as ROLLOUT_BASE=1), ROLLOUT_BASE=1 plays the
// kernel alone, the policy the rollout improves on, and ROLLOUT_POSTERIOR=1
// the greedy posterior shooter. Run it with -benchtime Nx:
//
//	go test -tags research ./fitness/battleship -run '^$' -bench Rollout -benchtime 2000x
func BenchmarkRollout(b *testing.B) {
	g := mustGeometry(b, Classic())
	env := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	base, err := newDensityShooter("kernel", g, densityParams{UseReveal: true, HitWeight: 20, Exponent: 1,
		Avoid: 1, Preferred: 1, Critical: 1, Parity: 1, Samples: posteriorSamples})
	if err != nil {
		b.Fatal(err)
	}
	s := &rolloutShooter{base: base, post: posteriorParams{Samples: posteriorSamples, Exact: posteriorExact},
		t: newDensityTables(g), cands: env("ROLLOUT_CANDS", 4), layouts: env("ROLLOUT_LAYOUTS", 24),
		z: float64(env("ROLLOUT_Z10", 0)) / 10}
	var player Shooter = s
	switch {
	case os.Getenv("ROLLOUT_BASE") == "1":
		player = base
	case os.Getenv("ROLLOUT_POSTERIOR") == "1":
		player = &posteriorShooter{p: s.post, t: s.t}
	}
	shots := make([]float64, b.N)
	var next sync.Mutex
	seed := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				next.Lock()
				i := seed
				seed++
				next.Unlock()
				if i >= b.N {
					return
				}
				shots[i] = float64(g.Solo(player, randomPlacer{}, uint64(i)))
			}
		})
	}
	wg.Wait()
	mean, sd := fitness.MeanSD(shots)
	b.ReportMetric(mean, "shots/game")
	b.ReportMetric(sd, "sd")
	if n := s.rolled.Load(); n > 0 {
		b.ReportMetric(float64(s.departed.Load())/float64(n), "departed")
		b.ReportMetric(float64(s.distinct.Load())/float64(n), "distinct")
		b.ReportMetric(float64(s.ess1000.Load())/1000/float64(n), "ess")
	}
}
