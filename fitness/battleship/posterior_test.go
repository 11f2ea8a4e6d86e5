package battleship

import (
	"fmt"
	"math"
	"syscall"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// replay fires the cells of shots at layout l under g's rules and reports
// whether every result comes out as it did: the definition of a layout
// consistent with what the shooter saw, independent of the posterior's
// own bookkeeping.
func replay(g *Geometry, l Layout, shots []Shot) bool {
	f := newFleet(g, l)
	for _, s := range shots {
		if f.shoot("replay", s.Cell) != s {
			return false
		}
	}
	return true
}

// priorWeight is the random placer's probability of laying l, up to the
// restart normalisation: prod_j 1/n_j, counted by walking every placement.
func priorWeight(g *Geometry, l Layout) float64 {
	w := 1.0
	var occ Bits
	for i, L := range g.Fleet {
		n := 0
		for _, p := range g.Placements[L] {
			if !p.Meets(occ) {
				n++
			}
		}
		w /= float64(n)
		occ = occ.Or(l.Ships[i])
	}
	return w
}

// bruteLayouts calls fn with every legal layout of g's fleet.
func bruteLayouts(g *Geometry, fn func(Layout)) {
	ships := make([]Bits, len(g.Fleet))
	var walk func(i int, occ Bits)
	walk = func(i int, occ Bits) {
		if i == len(g.Fleet) {
			fn(Layout{Ships: ships})
			return
		}
		for _, p := range g.Placements[g.Fleet[i]] {
			if !p.Meets(occ) {
				ships[i] = p
				walk(i+1, occ.Or(p))
			}
		}
	}
	walk(0, Bits{})
}

// bruteProbs is the reference posterior: every legal layout that replays
// the shots, weighted by priorWeight (or 1 when uniform), and the number
// of such layouts.
func bruteProbs(g *Geometry, shots []Shot, uniform bool) ([]float64, int) {
	p := make([]float64, g.Cells)
	total, n := 0.0, 0
	bruteLayouts(g, func(l Layout) {
		if !replay(g, l, shots) {
			return
		}
		w := 1.0
		if !uniform {
			w = priorWeight(g, l)
		}
		n++
		total += w
		for _, c := range l.Occupied().Cells(nil) {
			p[c] += w
		}
	})
	for c := range p {
		p[c] /= total
	}
	return p, n
}

// posteriorCase is a game part-played on a small board: the shots of a
// plain shooter at a random fleet, stopped once at most maxLeft layouts
// fit them.
type posteriorCase struct {
	name    string
	rules   Rules
	seed    uint64
	maxLeft int
}

func posteriorCases() []posteriorCase {
	return []posteriorCase{
		{"sunk/5x4", Rules{W: 5, H: 4, Fleet: []int{4, 3, 2}, Reveal: RevealSunk}, 11, 40},
		{"hits-only/5x4", Rules{W: 5, H: 4, Fleet: []int{4, 3, 2}, Reveal: RevealHitsOnly}, 2, 40},
		{"ship/4x5", Rules{W: 4, H: 5, Fleet: []int{4, 4, 2}, Reveal: RevealShip}, 7, 40},
		{"sunk/5x5 start", Rules{W: 5, H: 5, Fleet: []int{5, 4, 3}, Reveal: RevealSunk}, 1, 1 << 30},
	}
}

// play returns the shots of the random shooter at a random fleet up to the
// first point where at most tc.maxLeft layouts remain (the whole game if
// never), and the fleet.
func (tc posteriorCase) play(t *testing.T, g *Geometry) []Shot {
	t.Helper()
	target := g.place(randomPlacer{}, tc.seed, 0)
	gun := randomShooter{}.Start(g, fitness.NewRand(tc.seed))
	var shots []Shot
	for target.afloat > 0 {
		if _, n := bruteProbs(g, shots, false); n <= tc.maxLeft {
			break
		}
		s := target.shoot("random", gun.Fire())
		shots = append(shots, s)
	}
	return shots
}

// TestPosteriorExactMatchesBruteForce checks the enumeration against the
// reference: every layout of the fleet replayed against the shots, each
// weighted by the placer's probability computed from scratch. Equal to
// rounding; a missed constraint or a wrong weight fails it.
func TestPosteriorExactMatchesBruteForce(t *testing.T) {
	for _, tc := range posteriorCases() {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeometry(t, tc.rules)
			shots := tc.play(t, g)
			want, n := bruteProbs(g, shots, false)
			f := newFleetPosterior(g, newDensityTables(g), posteriorParams{Samples: 1, Exact: 1 << 30}, fitness.NewRand(1))
			for _, s := range shots {
				f.observe(s)
			}
			got := f.probs()
			if !f.exact {
				t.Fatalf("%d layouts left, exact limit 2^30: not enumerated", n)
			}
			for c := range g.Cells {
				if math.Abs(got[c]-want[c]) > 1e-9 {
					t.Errorf("%s: %.6f, want %.6f (%d layouts left)", g.Name(c), got[c], want[c], n)
				}
			}
		})
	}
}

// TestPosteriorSampledMatchesExact checks the sampler against the exact
// posterior where few layouts are left: with enumeration off, a pool of
// 20,000 layouts (fixed seed) must give every cell's probability within
// five standard errors, the standard error taken at a quarter of the pool
// (importance weights spread, so the effective sample is smaller). Both
// the pool as play leaves it and a pool of guided draws only are held to it. Each case is chosen
// so that the placer's weights matter: the uniform-over-layouts posterior
// lies outside the bound in some cell, so a sampler of the wrong model fails.
func TestPosteriorSampledMatchesExact(t *testing.T) {
	const samples = 20000
	for _, tc := range posteriorCases() {
		for _, fresh := range []bool{false, true} {
			name := tc.name + "/pool"
			if fresh {
				name = tc.name + "/guided"
			}
			t.Run(name, func(t *testing.T) {
				g := mustGeometry(t, tc.rules)
				shots := tc.play(t, g)
				want, n := bruteProbs(g, shots, false)
				uniform, _ := bruteProbs(g, shots, true)
				f := newFleetPosterior(g, newDensityTables(g), posteriorParams{Samples: samples, Exact: 0}, fitness.NewRand(tc.seed))
				for _, s := range shots {
					f.observe(s)
					f.probs()
				}
				if fresh {
					// Drop the pool: every layout is then a guided draw.
					f.dirty, f.prior, f.n = true, false, 0
				}
				got := f.probs()
				if f.exact || f.broken {
					t.Fatalf("exact %v, broken %v", f.exact, f.broken)
				}
				worst, wrongModel := 0.0, 0.0
				for c := range g.Cells {
					se := math.Sqrt(max(want[c]*(1-want[c]), 1e-4) / (samples / 4))
					worst = max(worst, math.Abs(got[c]-want[c])/se)
					wrongModel = max(wrongModel, math.Abs(uniform[c]-want[c])/se)
					if math.Abs(got[c]-want[c]) > 5*se {
						t.Errorf("%s: sampled %.4f, exact %.4f (%d layouts left, se %.4f)", g.Name(c), got[c], want[c], n, se)
					}
				}
				t.Logf("%d layouts left: worst error %.2f se; the uniform model is off by %.1f se", n, worst, wrongModel)
				if wrongModel <= 5 {
					t.Errorf("the uniform model is within the bound (%.1f se): the case does not tell the models apart", wrongModel)
				}
			})
		}
	}
}

// TestPosteriorPoolStaysConsistent plays whole games with a small pool
// (so that it empties and is reseeded by search often) under every reveal
// rule and checks after every shot that each layout in the pool replays
// the shots exactly.
func TestPosteriorPoolStaysConsistent(t *testing.T) {
	for _, r := range testRules() {
		g := mustGeometry(t, r)
		t.Run(fmt.Sprintf("%v/%dx%d", r.Reveal, r.W, r.H), func(t *testing.T) {
			s := &posteriorShooter{p: posteriorParams{Samples: 8, Exact: 64}, t: newDensityTables(g)}
			for seed := range uint64(20) {
				target := g.place(randomPlacer{}, seed, 0)
				gun := s.Start(g, fitness.NewRand(seed)).(*posteriorGunner)
				var shots []Shot
				for target.afloat > 0 {
					c := gun.Fire()
					f := gun.post
					if f.broken {
						t.Fatalf("seed %d, shot %d: no layout found, the true one fits", seed, len(shots))
					}
					for i := range f.n {
						l := Layout{Ships: f.ships[i*f.k : (i+1)*f.k]}
						if err := g.Check(l); err != nil || !replay(g, l, shots) || l.Occupied() != f.occ[i] {
							t.Fatalf("seed %d, shot %d: pool layout %d does not fit (%v):\n%s", seed, len(shots), i, err, g.String(l))
						}
					}
					s := target.shoot("posterior", c)
					shots = append(shots, s)
					gun.Observe(s)
				}
			}
		})
	}
}

// TestPosteriorFinishesWithoutRepeats plays posterior shooters with
// budgets from tiny to default under every reveal rule and odd boards,
// against every placer: the match loop panics on a repeated shot.
func TestPosteriorFinishesWithoutRepeats(t *testing.T) {
	for _, r := range append(testRules(),
		Rules{W: 3, H: 7, Fleet: []int{3, 2, 1}, Reveal: RevealSunk},
		Rules{W: 13, H: 9, Fleet: []int{6, 5, 1, 1}, Reveal: RevealShip},
		Rules{W: 2, H: 2, Fleet: []int{2}, Reveal: RevealHitsOnly}) {
		g := mustGeometry(t, r)
		placers := players(t, g, PlacerRole)
		for _, p := range []posteriorParams{{1, 0}, {8, 16}, {posteriorSamples, posteriorExact}} {
			s := &posteriorShooter{p: p, t: newDensityTables(g)}
			t.Run(fmt.Sprintf("%v/%dx%d%v/%d", r.Reveal, r.W, r.H, r.Fleet, p.Samples), func(t *testing.T) {
				for seed := range uint64(30) {
					pl := placers[int(seed)%len(placers)].(Placer)
					if n := g.Solo(s, pl, seed); n > g.Cells {
						t.Fatalf("seed %d: %d shots on %d cells", seed, n, g.Cells)
					}
				}
			})
		}
	}
}

// TestPosteriorIsDeterministic: the same match seed, the same shots, and
// another seed other shots somewhere.
func TestPosteriorIsDeterministic(t *testing.T) {
	g := mustGeometry(t, Classic())
	s := &posteriorShooter{p: posteriorParams{Samples: posteriorSamples, Exact: posteriorExact}, t: newDensityTables(g)}
	differ := false
	for seed := range uint64(20) {
		a := g.Solo(s, randomPlacer{}, seed)
		if b := g.Solo(s, randomPlacer{}, seed); a != b {
			t.Fatalf("seed %d: %d then %d shots", seed, a, b)
		}
		gunA, gunB := s.Start(g, fitness.NewRand(seed)), s.Start(g, fitness.NewRand(seed+1000))
		if gunA.Fire() != gunB.Fire() {
			differ = true
		}
	}
	if !differ {
		t.Error("the first shot never depends on the stream: the sampler is not drawing from it")
	}
}

// BenchmarkPosterior plays solo games of the posterior shooter at its
// default budget against random placement; the target is 500 games/s on
// one core (-cpu 1). On a shared machine wall time counts other people's
// work, so it also reports games per second of this process's CPU time.
func BenchmarkPosterior(b *testing.B) {
	g := mustGeometry(b, Classic())
	s := &posteriorShooter{p: posteriorParams{Samples: posteriorSamples, Exact: posteriorExact}, t: newDensityTables(g)}
	shots, seed := 0, uint64(0)
	cpu0 := cpuSeconds()
	for b.Loop() {
		shots += g.Solo(s, randomPlacer{}, seed)
		seed++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(b.N)/(cpuSeconds()-cpu0), "games/cpu-s")
	b.ReportMetric(float64(shots)/float64(b.N), "shots/game")
}

// cpuSeconds is the user and system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

func TestNthBit(t *testing.T) {
	rng := fitness.NewRand(1)
	for range 2000 {
		b := Bits{Lo: rng.Uint64() & rng.Uint64(), Hi: rng.Uint64() >> uint(rng.IntN(64))}
		for n := range b.Count() {
			if got, want := nthBit(b, n), b.Nth(n); got != want {
				t.Fatalf("%+v: nthBit(%d) = %d, want %d", b, n, got, want)
			}
		}
	}
}
