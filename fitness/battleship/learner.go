package battleship

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// A Learner is a shooter that can carry memory from one game to the next
// of a series against the same placer (seed 001: "keep track of the games
// you play and increase the values in your weight grid as you get hits").
// The Learner itself stays immutable and safe for concurrent use: the
// memory lives in the Memory that NewMemory makes for one series.
type Learner interface {
	Shooter
	NewMemory(g *Geometry) Memory
}

// A Memory is one series' state of a Learner. A series is played in order
// by one goroutine.
type Memory interface {
	// Start returns the gunner of the series' next game.
	Start(g *Geometry, rng *rand.Rand) Gunner
	// Learn is told, after a game, the cells where ships were found: the
	// shooter's hits, which by the end of a game are the whole fleet.
	Learn(found Bits)
}

// The learner's own parameter names; it also has every knob of tuned.
const (
	learnerPrior    = "memory_prior"
	learnerStrength = "memory_strength"
)

// The learner's defaults: it is over9000 in the first game of a series,
// then one pseudo-game of prior with the plain shrunk ratio (strength 1).
// Over series of 100 (20 series each, seed 1), prior 1 and 4, strength 1
// and 2: against blockhalf 37.0 mean shots over the series at these
// defaults (37.2 to 38.5 for the others, over9000 47.6), against the
// coevolved placer 45.3 (45.6 to 46.1, over9000 45.5). Without the
// shrinkage (a fixed prior of 4) it learned blockhalf as well (36.8) but
// chased noise against the coevolved placer: 47.9 to over9000's 45.2.
const (
	learnerPriorDefault    = 1
	learnerStrengthDefault = 1
)

func learnerSchema(r Rules) genome.Schema {
	return append(tunedSchema(r),
		genome.Param{Name: learnerPrior, Kind: genome.Float, Min: 0.25, Max: 1000, Log: true, Default: genome.Value{Num: learnerPriorDefault},
			Summary: "pseudo-games at the model's own cell rates the memory starts from (more: slower to learn)"},
		genome.Param{Name: learnerStrength, Kind: genome.Float, Min: 0, Max: 4, Default: genome.Value{Num: learnerStrengthDefault},
			Summary: "exponent on each cell's learned ship rate over the model's rate, which multiplies the weight grid (0: no learning)"},
	)
}

// learnerShooter is the tuned shooter plus a memory of where it found
// ships. In game n+1 of a series its weight grid is the tuned grid times
//
//	((found_c + prior*rate_c) / (n + prior) / rate_c) ^ strength
//
// found_c counting the games in which cell c held a ship and rate_c the
// chance that it does under random placement (the density kernel's
// probabilities on an empty board). Against random placement the factor
// stays near 1; against a placer with habits it grows where that placer
// puts ships.
type learnerShooter struct {
	base     *densityShooter
	prior    float64
	strength float64
	rate     []float64
}

var _ Learner = (*learnerShooter)(nil)

func newLearner(g *Geometry, v genome.Values) (fitness.Player, error) {
	base, err := tunedShooter(g, v)
	if err != nil {
		return nil, err
	}
	base.name = "learner"
	return &learnerShooter{
		base: base, prior: v.Float(learnerPrior), strength: v.Float(learnerStrength),
		rate: emptyBoardRates(g, base.t),
	}, nil
}

// emptyBoardRates are the density kernel's cell probabilities before the
// first shot: 1 - prod over ships of (1 - placements covering c / placements).
func emptyBoardRates(g *Geometry, t *densityTables) []float64 {
	rate := make([]float64, g.Cells)
	for c := range g.Cells {
		miss := 1.0
		for _, L := range g.Fleet {
			miss *= 1 - t.base[t.lenIdx[L]][c]/float64(len(g.Placements[L]))
		}
		rate[c] = 1 - miss
	}
	return rate
}

func (l *learnerShooter) Name() string { return "learner" }

// Start implements Shooter: a game outside a series is a first game.
func (l *learnerShooter) Start(g *Geometry, rng *rand.Rand) Gunner { return l.base.Start(g, rng) }

// NewMemory implements Learner.
func (l *learnerShooter) NewMemory(g *Geometry) Memory {
	return &learnerMemory{l: l, found: make([]float64, g.Cells)}
}

type learnerMemory struct {
	l     *learnerShooter
	games int
	found []float64
}

func (m *learnerMemory) Start(g *Geometry, rng *rand.Rand) Gunner { return m.shooter(g).Start(g, rng) }

// shooter returns the series' next game's shooter.
func (m *learnerMemory) shooter(g *Geometry) *densityShooter {
	l := m.l
	if m.games == 0 || l.strength == 0 || len(m.found) != g.Cells || len(l.rate) != g.Cells {
		return l.base
	}
	// This game's shooter: the tuned one with the learned grid, and the
	// roots of that grid (an exponent other than 1 ranks cells by them).
	p := l.base.p
	ratio := m.shrunkRatios(g.Cells)
	grid := make([]float64, g.Cells)
	for c := range grid {
		w := 1.0
		if p.Grid != nil {
			w = p.Grid[c]
		}
		grid[c] = w * math.Pow(ratio[c], l.strength)
	}
	p.Grid = grid
	return &densityShooter{name: l.base.name, p: p, t: l.base.t, rt: newDensityRoots(&p)}
}

// shrunkRatios estimates each cell's ship rate under this placer, over the
// model's rate. The raw rate found_c/n is noisy (a cell holds a ship in
// about one game in six), and a placer with few habits would have the
// shooter chase that noise, so the rates are shrunk toward the model's by
// empirical Bayes: tau2, the spread of the true rates around the model's,
// is what the spread of the observed rates has beyond the binomial noise
// v_c = r_c (1 - r_c) / (n + prior), and a cell keeps the share
// tau2 / (tau2 + v_c) of its deviation. Against blockhalf the spread is
// large and the rates are kept; against a near-uniform placer tau2 is
// near 0 and the grid stays near 1.
func (m *learnerMemory) shrunkRatios(cells int) []float64 {
	l := m.l
	n := float64(m.games) + l.prior
	var dev2, noise float64
	used := 0
	x := make([]float64, cells)
	for c := range cells {
		r := l.rate[c]
		if r <= 0 || r >= 1 {
			continue
		}
		x[c] = (m.found[c] + l.prior*r) / n
		dev2 += (x[c] - r) * (x[c] - r)
		noise += r * (1 - r) / n
		used++
	}
	tau2 := 0.0
	if used > 0 {
		tau2 = max(0, (dev2-noise)/float64(used))
	}
	ratio := make([]float64, cells)
	for c := range cells {
		ratio[c] = 1
		r := l.rate[c]
		if r <= 0 || r >= 1 || tau2 == 0 {
			continue
		}
		v := r * (1 - r) / n
		ratio[c] = (r + tau2/(tau2+v)*(x[c]-r)) / r
	}
	return ratio
}

func (m *learnerMemory) Learn(found Bits) {
	m.games++
	for w := found; !w.Empty(); {
		c := w.First()
		w = w.AndNot(Cell(c))
		if c < len(m.found) {
			m.found[c]++
		}
	}
}

// Series plays games solo games of s against fleets laid by p, in order,
// and returns the shots of each. A Learner carries one Memory through
// the series; any other shooter plays each game afresh. Game i's seed is
// derived from (seed, i), so the fleets of a series are the same for
// every shooter. The result is a pure function of (s, p, games, seed).
func (g *Geometry) Series(s Shooter, p Placer, games int, seed uint64) []int {
	out, _ := g.SeriesContext(context.Background(), s, p, games, seed)
	return out
}

// SeriesContext is Series that gives up when ctx is cancelled, returning
// ctx.Err() and no shots: it looks at ctx before each game, and within
// the shots of a shooter whose shots take long, as SoloContext does.
func (g *Geometry) SeriesContext(ctx context.Context, s Shooter, p Placer, games int, seed uint64) ([]int, error) {
	var mem Memory
	if l, ok := s.(Learner); ok {
		mem = l.NewMemory(g)
	}
	out := make([]int, games)
	for i := range out {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		gameSeed := fitness.Derive(seed, uint64(i))
		target := g.place(p, gameSeed, 0)
		rng := fitness.NewRand(fitness.Derive(gameSeed, streamShooter, 0))
		var gun Gunner
		if mem != nil {
			gun = mem.Start(g, rng)
		} else {
			gun = s.Start(g, rng)
		}
		watched := watch(gun, ctx)
		var hits Bits
		for target.afloat > 0 {
			c := gun.Fire()
			if watched {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			shot := target.shoot(s.Name(), c)
			gun.Observe(shot)
			if shot.Hit {
				hits = hits.Set(shot.Cell)
			}
			out[i]++
		}
		if mem != nil {
			mem.Learn(hits)
		}
	}
	return out, nil
}

// PlaySeries implements fitness.SeriesGame: a series of solo games of a
// shooter against the rules' placer.
func (g *Game) PlaySeries(ctx context.Context, p fitness.Player, games int, seed uint64) ([]float64, error) {
	s, ok := p.(Shooter)
	if !ok {
		return nil, fmt.Errorf("battleship: a series needs a shooter, got %s", p.Name())
	}
	shots, err := g.geo.SeriesContext(ctx, s, g.placer, games, seed)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(shots))
	for i, n := range shots {
		out[i] = float64(n)
	}
	return out, nil
}
