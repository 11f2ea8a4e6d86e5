package engine

import (
	"errors"
	"fmt"
	mrand "math/rand"
	"slices"
	"sort"

	"github.com/MaxHalford/eaopt"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// operators are what eaGenome needs to breed.
type operators struct {
	space *genome.Space
	mut   genome.Mutation
	cross genome.Crossover
	alpha float64
}

// eaGenome is a genome as eaopt sees it. Evaluation happens outside
// eaopt, in one batch per generation, so Evaluate is never expected to be
// called: every individual handed to eaopt is already marked evaluated.
type eaGenome struct {
	genes []float64
	ops   *operators
}

var errBatchOnly = errors.New("engine: eaopt asked to evaluate a genome outside the generation's batch")

func (g *eaGenome) Evaluate() (float64, error) { return 0, errBatchOnly }
func (g *eaGenome) Mutate(rng *mrand.Rand)     { g.ops.space.Mutate(g.genes, g.ops.mut, v2From(rng)) }
func (g *eaGenome) Crossover(o eaopt.Genome, rng *mrand.Rand) {
	g.ops.space.Cross(g.ops.cross, g.ops.alpha, g.genes, o.(*eaGenome).genes, v2From(rng))
}
func (g *eaGenome) Clone() eaopt.Genome { return &eaGenome{genes: slices.Clone(g.genes), ops: g.ops} }

// tournament is tournament selection with the winner's true index (eaopt
// v0.4.2's SelTournament reports index 0 when the first contestant wins).
// Contestants are drawn without replacement from those not yet selected
// in this call, so two parents differ, as in eaopt.
type tournament struct{ size int }

func (t tournament) Apply(n uint, indis eaopt.Individuals, rng *mrand.Rand) (eaopt.Individuals, []int, error) {
	if len(indis) < int(n)+t.size-1 {
		return nil, nil, fmt.Errorf("engine: tournament of %d needs %d individuals, have %d", t.size, int(n)+t.size-1, len(indis))
	}
	free := make([]int, len(indis))
	for i := range free {
		free[i] = i
	}
	winners := make(eaopt.Individuals, n)
	indexes := make([]int, n)
	for k := range winners {
		// Draw size distinct contestants by a partial shuffle of the
		// free positions; the fittest wins, ties to the lower index.
		best := -1
		for d := range t.size {
			j := d + rng.Intn(len(free)-d)
			free[d], free[j] = free[j], free[d]
			c := free[d]
			if best < 0 || indis[c].Fitness < indis[free[best]].Fitness ||
				(indis[c].Fitness == indis[free[best]].Fitness && c < free[best]) {
				best = d
			}
		}
		indexes[k] = free[best]
		winners[k] = indis[free[best]].Clone(rng)
		free = append(free[:best], free[best+1:]...)
	}
	return winners, indexes, nil
}

func (t tournament) Validate() error {
	if t.size < 1 {
		return errors.New("engine: tournament size below 1")
	}
	return nil
}

// cost is what eaopt minimises.
func (sp *species) cost(m Member) float64 {
	if sp.minimise {
		return m.Fitness
	}
	return -m.Fitness
}

// sortBest orders members best first, ties by position (stable), so
// sorting is deterministic.
func (sp *species) sortBest(ms []Member) {
	sort.SliceStable(ms, func(i, j int) bool { return sp.cost(ms[i]) < sp.cost(ms[j]) })
}

// poolSize is how many genomes a generation evaluates per species.
func (c *Config) poolSize() int {
	if c.Evolution.Model == DownToSize {
		return c.Evolution.Population + c.Evolution.Offspring
	}
	return c.Evolution.Population
}

// initial returns generation 0 of every species: the config's seeds as
// they are, then uniform random genomes.
func (r *runner) initial() [][][]float64 {
	var pools [][][]float64
	for _, sp := range r.cfg.species {
		if r.cfg.Evolution.Model == CMAES {
			pools = append(pools, r.cmaesOf(sp).ask())
			continue
		}
		n := r.cfg.poolSize()
		pool := make([][]float64, 0, n)
		for _, g := range sp.seeds {
			pool = append(pool, slices.Clone(g))
		}
		for i := len(pool); i < n; i++ {
			pool = append(pool, sp.space.Random(fitness.NewRand(r.stream(0, sp.offset+purposeInit, uint64(i)))))
		}
		pools = append(pools, pool)
	}
	return pools
}

// breed turns generation gen's evaluated pool of species sp, sorted best
// first, into its genomes of generation gen+1.
func (r *runner) breed(sp *species, gen int, sorted []Member) ([][]float64, error) {
	e := r.cfg.Evolution
	rng := newEaoptRand(r.stream(gen, sp.offset+purposeBreed))
	ops := &operators{space: sp.space, mut: e.Mutation, cross: e.Crossover, alpha: e.BlendAlpha}
	toPop := func(ms []Member) eaopt.Population {
		indis := make(eaopt.Individuals, len(ms))
		for i, m := range ms {
			// Marked evaluated with this generation's fitness: eaopt never
			// evaluates, and every genome is re-evaluated next generation
			// (which also defuses v0.4.2's stale-mate-after-crossover bug).
			indis[i] = eaopt.Individual{Genome: &eaGenome{genes: slices.Clone(m.Genes), ops: ops},
				Fitness: sp.cost(m), Evaluated: true, ID: fmt.Sprint(i)}
		}
		return eaopt.Population{Individuals: indis, RNG: rng}
	}
	genes := func(indis eaopt.Individuals) [][]float64 {
		out := make([][]float64, len(indis))
		for i, in := range indis {
			out[i] = in.Genome.(*eaGenome).genes
		}
		return out
	}
	var sel eaopt.Selector = tournament{e.TournamentSize}
	if e.Selection == Roulette {
		sel = eaopt.SelRoulette{} // expects individuals sorted by fitness: they are
	}
	switch e.Model {
	case CMAES:
		return r.cmaesOf(sp).ask(), nil
	case RandomSearch:
		return r.randomSearch(sp, gen), nil
	case NaturalSelection:
		next := make([][]float64, 0, e.Population)
		for _, m := range sorted[:e.Keep] {
			next = append(next, slices.Clone(m.Genes))
		}
		for i := len(next); i < e.Population; i++ {
			next = append(next, sp.space.Random(fitness.NewRand(r.stream(gen, sp.offset+purposeFresh, uint64(i)))))
		}
		return next, nil
	case DownToSize:
		// The best Population of parents and children survive (select
		// down to size); they breed Offspring children, and the next
		// generation evaluates survivors and children together.
		parents := sorted[:e.Population]
		model := eaopt.ModGenerational{Selector: sel, MutRate: e.MutationRate, CrossRate: e.CrossoverRate}
		var kids [][]float64
		for len(kids) < e.Offspring {
			// Each pass breeds one child per parent from a fresh copy.
			pop := toPop(parents)
			if err := model.Apply(&pop); err != nil {
				return nil, fmt.Errorf("engine: breeding: %w", err)
			}
			kids = append(kids, genes(pop.Individuals)...)
		}
		next := make([][]float64, 0, e.Population+e.Offspring)
		for _, m := range parents {
			next = append(next, slices.Clone(m.Genes))
		}
		return append(next, kids[:e.Offspring]...), nil
	default:
		pop := toPop(sorted)
		model := eaopt.ModGenerational{Selector: sel, MutRate: e.MutationRate, CrossRate: e.CrossoverRate}
		if err := model.Validate(); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		if err := model.Apply(&pop); err != nil {
			return nil, fmt.Errorf("engine: breeding: %w", err)
		}
		next := genes(pop.Individuals)
		// eaopt's generational model has no elitism: the best K replace
		// the first K children, unchanged.
		for i := range e.Elitism {
			next[i] = slices.Clone(sorted[i].Genes)
		}
		return next, nil
	}
}

// updateHallOfFame merges a generation's evaluated members into the hall
// of fame: a genome already there (a survivor) pools its games, so its
// figures sharpen with every re-evaluation; the rest compete for a place.
func (r *runner) updateHallOfFame(sp *species, hof, gen []Member) []Member {
	out := slices.Clone(hof)
	merged := make([]bool, len(out))
	for k, m := range gen {
		// Copies of one genome in a generation played the same deals, so
		// their results are one sample, not several: count it once.
		if slices.ContainsFunc(gen[:k], func(o Member) bool { return slices.Equal(o.Genes, m.Genes) }) {
			continue
		}
		found := false
		for i := range out {
			if slices.Equal(out[i].Genes, m.Genes) {
				if i < len(merged) && !merged[i] {
					out[i] = pool(out[i], m)
					if r.cfg.Fitness.Objective == Score {
						// As a generation's figures are: pooling two
						// clipped intervals can stick out of [0, 1] again.
						out[i].CI95 = [2]float64{max(0, out[i].CI95[0]), min(1, out[i].CI95[1])}
					}
					merged[i] = true
				}
				found = true
				break
			}
		}
		if !found {
			out = append(out, m)
		}
	}
	r.sortHallOfFame(sp, out)
	if len(out) > r.cfg.Evolution.HallOfFame {
		out = out[:r.cfg.Evolution.HallOfFame]
	}
	return out
}

// pool combines two evaluations of one genome, weighting by games.
func pool(a, b Member) Member {
	n := float64(a.Games + b.Games)
	wa, wb := float64(a.Games)/n, float64(b.Games)/n
	fit := wa*a.Fitness + wb*b.Fitness
	ha, hb := (a.CI95[1]-a.CI95[0])/2, (b.CI95[1]-b.CI95[0])/2
	half := sqrt(wa*wa*ha*ha + wb*wb*hb*hb)
	return Member{Genes: a.Genes, Fitness: fit, Games: a.Games + b.Games, CI95: [2]float64{fit - half, fit + half}, Generation: a.Generation}
}
