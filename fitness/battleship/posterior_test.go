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
// default budget (256 layouts, exact below 65,536 combinations) against
// random placement; the target is 500 games/s on one core (-cpu 1). On a shared machine wall time counts other people's
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

// TestPostTables checks the placement tables against the placements
// themselves on boards up to 128 cells (four words of placements): every
// placement is in its length's set, covers exactly the cells whose cover
// sets hold it, and meets exactly the placements blk says it meets; and
// two geometries of the same board and lengths share one table.
func TestPostTables(t *testing.T) {
	for _, r := range append(testRules(),
		Rules{W: 16, H: 8, Fleet: []int{1, 2, 8}, Reveal: RevealSunk},
		Rules{W: 3, H: 7, Fleet: []int{3, 2, 1}, Reveal: RevealSunk}) {
		g := mustGeometry(t, r)
		pt := postTablesFor(g)
		for a, L := range g.Lengths {
			pls := g.Placements[L]
			if pt.all[a].count() != len(pls) {
				t.Fatalf("%dx%d length %d: %d placements in the set, %d in the geometry", r.W, r.H, L, pt.all[a].count(), len(pls))
			}
			for j, pl := range pls {
				for c := range g.Cells {
					in := pt.cover[a][c][j>>6]>>uint(j&63)&1 != 0
					if in != pl.Has(c) {
						t.Fatalf("%dx%d length %d placement %d: cover of cell %d says %v", r.W, r.H, L, j, c, in)
					}
				}
				for b, M := range g.Lengths {
					blk := pt.blk[a][j*pt.nl+b]
					for x, other := range g.Placements[M] {
						if in := blk[x>>6]>>uint(x&63)&1 != 0; in != pl.Meets(other) {
							t.Fatalf("%dx%d: length %d placement %d against length %d placement %d: blk says %v", r.W, r.H, L, j, M, x, in)
						}
					}
				}
			}
		}
		if again := postTablesFor(mustGeometry(t, r)); again != pt {
			t.Errorf("%dx%d: a second geometry of the same rules built its own tables", r.W, r.H)
		}
	}
}

// TestPosteriorKeepsSurvivors: after a shot the pool keeps every layout
// the shot did not contradict, whatever proposal it came from, and draws
// only the rest; a pool that threw its guided layouts away would redraw
// them at the cost of a whole pool a shot.
func TestPosteriorKeepsSurvivors(t *testing.T) {
	g := mustGeometry(t, Classic())
	s := &posteriorShooter{p: posteriorParams{Samples: 64, Exact: 0}, t: newDensityTables(g)}
	guidedSurvivors := 0
	for seed := range uint64(5) {
		target := g.place(randomPlacer{}, seed, 0)
		gun := s.Start(g, fitness.NewRand(seed)).(*posteriorGunner)
		for target.afloat > 0 {
			f := gun.post
			before := make(map[Bits]int)
			for i := range f.n {
				before[f.occ[i]]++
			}
			n := f.n
			c := gun.Fire()
			kept := 0
			for i := range f.n {
				if before[f.occ[i]] > 0 {
					before[f.occ[i]]--
					kept++
				}
			}
			if kept != n {
				t.Fatalf("seed %d: %d layouts survived the last shot, %d of them are still in the pool", seed, n, kept)
			}
			for i := range f.n {
				if f.gen[i] > 0 && f.gen[i] < f.refills {
					guidedSurvivors++
				}
			}
			gun.Observe(target.shoot("posterior", c))
		}
	}
	if guidedSurvivors == 0 {
		t.Error("no guided layout ever outlived its refill")
	}
}

// TestPsetNth checks the placement sets' n-th member against a walk of
// their bits, across all four words.
func TestPsetNth(t *testing.T) {
	rng := fitness.NewRand(1)
	for range 2000 {
		var a pset
		for w := range a {
			a[w] = rng.Uint64() & rng.Uint64() >> uint(rng.IntN(64))
		}
		var want []int
		for w := range a {
			for b := range 64 {
				if a[w]>>uint(b)&1 != 0 {
					want = append(want, w*64+b)
				}
			}
		}
		if a.count() != len(want) {
			t.Fatalf("%x: count %d, want %d", a, a.count(), len(want))
		}
		for n, c := range want {
			if got := a.nth(n); got != c {
				t.Fatalf("%x: nth(%d) = %d, want %d", a, n, got, c)
			}
		}
	}
}
