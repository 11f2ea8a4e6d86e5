package model

import (
	"fmt"
	"slices"

	"github.com/evotune/evotune/internal/yamlcheck"
)

// The down-to-size model: settings, a Model.
var (
	_ Settings = (*downToSizeSettings)(nil)
	_ Model    = (*downToSize)(nil)
)

// downToSizeSettings are the down-to-size model's own settings.
type downToSizeSettings struct {
	// Offspring is how many children the survivors breed each
	// generation; by default as many as the population.
	Offspring int `json:"offspring"`
}

func (s *downToSizeSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{"offspring": d.Int(&s.Offspring)}
}

func (s *downToSizeSettings) Settle(e *Evolution, has func(string) bool) {
	if !has("evolution.offspring") {
		s.Offspring = e.Population
	}
}

func (s *downToSizeSettings) Check(e *Evolution, chosen bool, bad Bad) {
	if s.Offspring > MaxOffspring {
		bad("evolution.offspring", "%d: more than the limit of %d", s.Offspring, MaxOffspring)
	}
	if !chosen || e.Population < 2 {
		return
	}
	e.checkTournament(e.Population, bad)
	if s.Offspring < 2 {
		bad("evolution.offspring", "%d: want at least 2", s.Offspring)
	}
}

// Size: survivors and children are evaluated together.
func (s *downToSizeSettings) Size(e *Evolution, _ int) int { return e.Population + s.Offspring }

func (s *downToSizeSettings) Kept(e *Evolution) int { return e.Population }

func (s *downToSizeSettings) New(e *Evolution, p Problem) (Model, error) {
	return &downToSize{breeder: breeder{p: p, ops: e.Operators}, population: e.Population, offspring: s.Offspring}, nil
}

// downToSize keeps the best population of parents and children together
// (eaopt's ModDownToSize): they survive, breed offspring children, and
// the next generation evaluates survivors and children together.
type downToSize struct {
	memory
	breeder
	population, offspring int
}

func (m *downToSize) Ask(gen int) ([][]float64, error) {
	if gen == 0 {
		return initial(m.p, m.population+m.offspring), nil
	}
	ranked, err := m.last(gen)
	if err != nil {
		return nil, err
	}
	rng := m.rng(gen - 1)
	parents := ranked[:m.population]
	model := m.eaModel()
	var kids [][]float64
	for len(kids) < m.offspring {
		// Each pass breeds one child per parent from a fresh copy.
		pop := m.eaPopulation(parents, rng)
		if err := model.Apply(&pop); err != nil {
			return nil, fmt.Errorf("model: breeding: %w", err)
		}
		kids = append(kids, genesOf(pop.Individuals)...)
	}
	next := make([][]float64, 0, m.population+m.offspring)
	for _, r := range parents {
		next = append(next, slices.Clone(r.Genes))
	}
	return append(next, kids[:m.offspring]...), nil
}
