package model

import (
	"fmt"
	"slices"

	"github.com/evotune/evotune/internal/yamlcheck"
)

// The generational model: settings, a Model.
var (
	_ Settings = (*generationalSettings)(nil)
	_ Model    = (*generational)(nil)
)

// generationalSettings are the generational model's own settings.
type generationalSettings struct {
	// Elitism is how many of the best go on unchanged: eaopt's
	// generational model has none of its own.
	Elitism int `json:"elitism"`
}

func (s *generationalSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{"elitism": d.Int(&s.Elitism)}
}

func (s *generationalSettings) Settle(*Evolution, func(string) bool) {}

func (s *generationalSettings) Check(e *Evolution, chosen bool, bad Bad) {
	if !chosen || e.Population < 2 {
		return
	}
	e.checkTournament(e.Population, bad)
	if s.Elitism < 0 || s.Elitism >= e.Population {
		bad("evolution.elitism", "%d: want from 0 to population-1 (%d)", s.Elitism, e.Population-1)
	}
}

func (s *generationalSettings) Size(e *Evolution, _ int) int { return e.Population }

func (s *generationalSettings) Kept(*Evolution) int { return max(1, s.Elitism) }

func (s *generationalSettings) New(e *Evolution, p Problem) (Model, error) {
	return &generational{breeder: breeder{p: p, ops: e.Operators}, population: e.Population, elitism: s.Elitism}, nil
}

// generational breeds a whole new population by selection, crossover and
// mutation (eaopt's ModGenerational), and keeps the best elitism as they
// are in its first places.
type generational struct {
	memory
	breeder
	population, elitism int
}

func (m *generational) Ask(gen int) ([][]float64, error) {
	if gen == 0 {
		return initial(m.p, m.population), nil
	}
	ranked, err := m.last(gen)
	if err != nil {
		return nil, err
	}
	pop := m.eaPopulation(ranked, m.rng(gen-1))
	model := m.eaModel()
	if err := model.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if err := model.Apply(&pop); err != nil {
		return nil, fmt.Errorf("model: breeding: %w", err)
	}
	next := genesOf(pop.Individuals)
	// eaopt's generational model has no elitism: the best K replace the
	// first K children, unchanged.
	for i := range m.elitism {
		next[i] = slices.Clone(ranked[i].Genes)
	}
	return next, nil
}
