package engine

import (
	"fmt"
	"slices"

	"github.com/evotune/evotune/fitness"
)

// selects reports whether the model picks parents by evolution.selection.
func (m Model) selects() bool { return m == Generational || m == DownToSize }

// randomSearch is generation gen+1 of the random-search model: fresh
// uniform genomes, drawn from the stream natural selection draws its
// fresh genomes from.
func (r *runner) randomSearch(sp *species, gen int) [][]float64 {
	next := make([][]float64, r.cfg.Evolution.Population)
	for i := range next {
		next[i] = sp.space.Random(fitness.NewRand(r.stream(gen, sp.offset+purposeFresh, uint64(i))))
	}
	return next
}

// cmaesOf returns species sp's CMA-ES search, starting it if need be:
// around the config's first seed when there is one, else around the
// first random genome generation 0 of another model would have.
func (r *runner) cmaesOf(sp *species) *cmaes {
	if c := r.cma[sp]; c != nil {
		return c
	}
	c := r.cfg.startCMAES(sp)
	if r.cma == nil {
		r.cma = map[*species]*cmaes{}
	}
	r.cma[sp] = c
	return c
}

// startCMAES starts species sp's search: around the config's first seed
// when there is one, else around the first random genome generation 0 of
// another model would have.
func (c *Config) startCMAES(sp *species) *cmaes {
	stream := func(purpose uint64, index ...uint64) uint64 {
		return fitness.Derive(c.Seed, append([]uint64{0, sp.offset + purpose}, index...)...)
	}
	mean := sp.space.Random(fitness.NewRand(stream(purposeInit, 0)))
	if len(sp.seeds) > 0 {
		mean = slices.Clone(sp.seeds[0])
	}
	return newCMAES(sp.space, c.Evolution.Population, c.Evolution.StepSize, mean, stream(purposeCMAES))
}

// tellCMAES tells species sp's search the fitness of the generation it
// asked for (members in pool order) and returns the record the
// checkpoint keeps: told, with this generation's told fitness appended.
// finished is the race's record of who played the full budget (nil
// without racing): the others are told a figure ranking them last
// (raceCosts), which is what the checkpoint keeps, so a replay tells
// the same.
func (r *runner) tellCMAES(sp *species, members []Member, told [][]float64, finished []bool) ([][]float64, error) {
	costs := make([]float64, len(members))
	for i, m := range members {
		costs[i] = sp.cost(m)
	}
	if finished != nil {
		costs = raceCosts(costs, finished)
	}
	fit := make([]float64, len(members))
	for i, c := range costs {
		fit[i] = c
		if !sp.minimise {
			fit[i] = -c // sp.cost's inverse, exact
		}
	}
	c := r.cmaesOf(sp)
	restarts := c.Restarts
	if err := c.tell(costs); err != nil {
		return nil, err
	}
	if c.Restarts > restarts {
		r.logf("cmaes%s: the distribution collapsed after generation %d; restarting around its best with step size %g",
			labelled(sp), len(told)+1, r.cfg.Evolution.StepSize)
	}
	return append(slices.Clone(told), fit), nil
}

// replayCMAES rebuilds species sp's search from a checkpoint by telling
// a new one, generation by generation, the fitness it was told before:
// the samples are a function of the seed and of those values alone. The
// last generation replayed must ask for the checkpoint's population, or
// the replay went astray (an evotune built with another gonum, say).
func (r *runner) replayCMAES(sp *species, st SpeciesState) error {
	c := r.cmaesOf(sp)
	var asked [][]float64
	for _, fit := range st.Told {
		asked = c.ask()
		costs := make([]float64, len(fit))
		for i, f := range fit {
			costs[i] = sp.cost(Member{Fitness: f})
		}
		if err := c.tell(costs); err != nil {
			return err
		}
	}
	var held [][]float64
	for _, m := range st.Population {
		held = append(held, m.Genes)
	}
	cmp := func(a, b []float64) int { return slices.Compare(a, b) }
	slices.SortFunc(asked, cmp)
	slices.SortFunc(held, cmp)
	if !slices.EqualFunc(asked, held, func(a, b []float64) bool { return slices.Equal(a, b) }) {
		return fmt.Errorf("engine: replaying the checkpoint's CMA-ES history does not give its last population (was the run started by an evotune built differently?); start a new run")
	}
	return nil
}

// closeSearch ends the searches' goroutines.
func (r *runner) closeSearch() {
	for _, sp := range r.cfg.species {
		if c := r.cma[sp]; c != nil {
			c.close()
			delete(r.cma, sp)
		}
	}
}
