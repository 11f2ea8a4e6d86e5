package model

import "github.com/evotune/evotune/internal/yamlcheck"

// The random-search model: settings, a Model.
var (
	_ Settings = randomSearchSettings{}
	_ Model    = (*randomSearch)(nil)
)

// randomSearchSettings: random search has no settings of its own.
type randomSearchSettings struct{}

func (randomSearchSettings) Fields(*yamlcheck.Checker) yamlcheck.Fields { return nil }
func (randomSearchSettings) Settle(*Evolution, func(string) bool)       {}
func (randomSearchSettings) Check(*Evolution, bool, Bad)                {}
func (randomSearchSettings) Size(e *Evolution, _ int) int               { return e.Population }

// Kept: random search carries nothing on; racing keeps the best elitism
// (at least 1) of its generations, as it did before models had settings
// of their own.
func (randomSearchSettings) Kept(e *Evolution) int {
	return max(1, e.Settings("generational").(*generationalSettings).Elitism)
}

func (randomSearchSettings) New(e *Evolution, p Problem) (Model, error) {
	return &randomSearch{p: p, population: e.Population}, nil
}

// randomSearch draws every generation afresh, uniformly: the baseline a
// model has to beat. Generation 0 starts from the config's seeds like any
// model's; later generations draw from the stream natural selection draws
// its fresh genomes from.
type randomSearch struct {
	memory
	p          Problem
	population int
}

func (m *randomSearch) Ask(gen int) ([][]float64, error) {
	if gen == 0 {
		return initial(m.p, m.population), nil
	}
	return fresh(m.p, gen-1, 0, m.population), nil
}
