package engine

import (
	"context"
	"math"

	"github.com/evotune/evotune/fitness"
)

// Member is one evaluated genome.
type Member struct {
	Genes      []float64  `json:"genes"`
	Fitness    float64    `json:"fitness"` // the objective's value: shots or score
	Games      int        `json:"games"`
	CI95       [2]float64 `json:"ci95"`
	Generation int        `json:"generation"` // when it was (first) evaluated
}

// modeStats accumulates one individual's results in one fitness mode.
type modeStats struct{ n, sum, sumsq float64 }

func (m *modeStats) add(x float64) { m.n++; m.sum += x; m.sumsq += x * x }

func (m modeStats) mean() float64 { return m.sum / m.n }

// variance of the mean.
func (m modeStats) varMean() float64 {
	if m.n < 2 {
		return 0
	}
	v := (m.sumsq - m.sum*m.sum/m.n) / (m.n - 1)
	return max(0, v) / m.n
}

const (
	modeBaselines = iota
	modePopulation
	modeHallOfFame
	nModes
)

// job is one game of the generation's batch. a is an individual; the
// opponent is another individual (b >= 0) or a fixed player.
type job struct {
	a, b int
	opp  fitness.Player
	mode int
	seed uint64
	swap bool // seats swapped: the opponent plays first
	solo bool
}

// schedule lists the generation's games. Deals depend on (generation,
// mode, opponent, game) but not on the individual, so every individual
// meets the same deals: common random numbers.
func (r *runner) schedule(gen int, n int, hof []fitness.Player) []job {
	f := r.cfg.Fitness
	var jobs []job
	pairs := func(a, b int, opp fitness.Player, mode, games int, seedOf func(pair int) uint64) {
		for j := range games {
			jobs = append(jobs, job{a: a, b: b, opp: opp, mode: mode, seed: seedOf(j / 2), swap: j%2 == 1})
		}
	}
	if f.Baselines.Weight > 0 {
		for i := range n {
			for o, opp := range r.cfg.baselines {
				if f.Objective == Shots {
					for j := range f.Baselines.Games {
						jobs = append(jobs, job{a: i, b: -1, opp: opp, mode: modeBaselines, solo: true,
							seed: r.stream(gen, purposeBaselines, uint64(o), uint64(j))})
					}
					continue
				}
				pairs(i, -1, opp, modeBaselines, f.Baselines.Games, func(p int) uint64 {
					return r.stream(gen, purposeBaselines, uint64(o), uint64(p))
				})
			}
		}
	}
	if f.Population.Weight > 0 && n > 1 {
		// One seeded permutation; individual perm[k] meets perm[k+d] for
		// d = 1..ceil(M/2), so everyone meets about M others (2 per
		// offset) and results count for both sides.
		perm := fitness.NewRand(r.stream(gen, purposePairing)).Perm(n)
		for d := 1; d <= (f.Population.Opponents+1)/2 && d < n; d++ {
			for k := range n {
				if 2*d == n && k >= n/2 {
					break // the same pairs again
				}
				a, b := perm[k], perm[(k+d)%n]
				pairs(a, b, nil, modePopulation, f.Population.Games, func(p int) uint64 {
					return r.stream(gen, purposePopulation, uint64(d), uint64(k), uint64(p))
				})
			}
		}
	}
	if f.HallOfFame.Weight > 0 {
		for i := range n {
			for h, opp := range hof {
				pairs(i, -1, opp, modeHallOfFame, f.HallOfFame.Games, func(p int) uint64 {
					return r.stream(gen, purposeHallOfFame, uint64(h), uint64(p))
				})
			}
		}
	}
	return jobs
}

// play runs one job and returns the result seen from a.
func (r *runner) play(j job, players []fitness.Player) float64 {
	a := players[j.a]
	if j.solo {
		return r.cfg.game.(fitness.SoloGame).PlaySolo(a, j.opp, j.seed)
	}
	b := j.opp
	if j.b >= 0 {
		b = players[j.b]
	}
	if j.swap {
		return r.cfg.game.Play(b, a, j.seed).Flip().Score()
	}
	return r.cfg.game.Play(a, b, j.seed).Score()
}

// evaluate plays the generation's batch and returns every individual's
// fitness, games and 95% interval.
func (r *runner) evaluate(ctx context.Context, gen int, pool [][]float64, hof []Member) ([]Member, error) {
	players := make([]fitness.Player, len(pool))
	for i, genes := range pool {
		p, err := r.player(genes)
		if err != nil {
			return nil, err
		}
		players[i] = p
	}
	var hofPlayers []fitness.Player
	for i := 0; i < len(hof) && i < r.cfg.Fitness.HallOfFame.Members; i++ {
		p, err := r.player(hof[i].Genes)
		if err != nil {
			return nil, err
		}
		hofPlayers = append(hofPlayers, p)
	}
	jobs := r.schedule(gen, len(pool), hofPlayers)
	r.lastGames = len(jobs)
	if r.progress != nil {
		r.progress.StartGeneration(gen, r.budget, len(jobs))
	}
	var update func(int)
	if r.progress != nil {
		update = r.progress.Games
	}
	results, err := fitness.Parallel(ctx, len(jobs), r.workers, func(i int) float64 {
		return r.play(jobs[i], players)
	}, update)
	if err != nil {
		return nil, err
	}
	// Reduce in job order, so the sums are the same at any worker count.
	stats := make([][nModes]modeStats, len(pool))
	for i, j := range jobs {
		x := results[i]
		stats[j.a][j.mode].add(x)
		if j.b >= 0 {
			stats[j.b][j.mode].add(1 - x)
		}
	}
	weights := [nModes]float64{r.cfg.Fitness.Baselines.Weight, r.cfg.Fitness.Population.Weight, r.cfg.Fitness.HallOfFame.Weight}
	out := make([]Member, len(pool))
	for i := range pool {
		var wsum, fit, v float64
		games := 0
		for m, s := range stats[i] {
			if s.n == 0 || weights[m] == 0 {
				continue
			}
			wsum += weights[m]
		}
		for m, s := range stats[i] {
			if s.n == 0 || weights[m] == 0 {
				continue
			}
			w := weights[m] / wsum
			fit += w * s.mean()
			v += w * w * s.varMean()
			games += int(s.n)
		}
		half := 1.959963984540054 * math.Sqrt(v)
		out[i] = Member{Genes: pool[i], Fitness: fit, Games: games, CI95: [2]float64{fit - half, fit + half}, Generation: gen}
	}
	return out, nil
}

func (r *runner) player(genes []float64) (fitness.Player, error) {
	vals, err := r.cfg.spaceOf.Decode(genes)
	if err != nil {
		return nil, err
	}
	return fitness.NewPlayerAs(r.cfg.game, r.cfg.role, r.cfg.Player, vals)
}
