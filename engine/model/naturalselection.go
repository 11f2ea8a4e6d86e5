package model

import (
	"slices"

	"github.com/evotune/evotune/internal/yamlcheck"
)

// The natural-selection model: settings, a Model.
var (
	_ Settings = (*naturalSelectionSettings)(nil)
	_ Model    = (*naturalSelection)(nil)
)

// naturalSelectionSettings are the natural-selection model's own
// settings.
type naturalSelectionSettings struct {
	// Keep is how many of the best go on; the rest are fresh genomes.
	Keep int `json:"keep"`
}

func (s *naturalSelectionSettings) Fields(d *yamlcheck.Checker) yamlcheck.Fields {
	return yamlcheck.Fields{"keep": d.Int(&s.Keep)}
}

func (s *naturalSelectionSettings) Settle(*Evolution, func(string) bool) {}

func (s *naturalSelectionSettings) Check(e *Evolution, chosen bool, bad Bad) {
	if chosen && e.Population >= 2 && (s.Keep < 1 || s.Keep >= e.Population) {
		bad("evolution.keep", "%d: want from 1 to population-1 (%d)", s.Keep, e.Population-1)
	}
}

func (s *naturalSelectionSettings) Size(e *Evolution, _ int) int { return e.Population }

func (s *naturalSelectionSettings) Kept(*Evolution) int { return s.Keep }

func (s *naturalSelectionSettings) New(e *Evolution, p Problem) (Model, error) {
	return &naturalSelection{p: p, population: e.Population, keep: s.Keep}, nil
}

// naturalSelection keeps the best keep and replaces the rest with fresh
// random genomes: the scheme Aenigma's parameters were found with.
type naturalSelection struct {
	memory
	p                Problem
	population, keep int
}

func (m *naturalSelection) Ask(gen int) ([][]float64, error) {
	if gen == 0 {
		return initial(m.p, m.population), nil
	}
	ranked, err := m.last(gen)
	if err != nil {
		return nil, err
	}
	next := make([][]float64, 0, m.population)
	for _, r := range ranked[:m.keep] {
		next = append(next, slices.Clone(r.Genes))
	}
	return append(next, fresh(m.p, gen-1, len(next), m.population)...), nil
}
