package engine

import (
	"encoding/json"
	"testing"
)

// startRunner is newRunner with its species' models started; they are
// closed when the test ends.
func startRunner(t testing.TB, cfg *Setup, opts Options) *runner {
	t.Helper()
	r := newRunner(cfg, opts)
	if err := r.startModels(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.closeModels)
	return r
}

// firstGeneration is generation 0 of every species of r.
func firstGeneration(t testing.TB, r *runner) [][][]float64 {
	t.Helper()
	genomes, err := r.ask(0)
	if err != nil {
		t.Fatal(err)
	}
	return genomes
}

// breedNext tells the main species' model generation gen's members and
// returns the genomes of generation gen+1 it asks for.
func breedNext(t testing.TB, r *runner, gen int, members []Member) [][]float64 {
	t.Helper()
	if _, err := r.tell(0, gen, members); err != nil {
		t.Fatal(err)
	}
	next, err := r.models[0].Ask(gen + 1)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// toldOf is the fitness CMA-ES was told, as a species' state keeps it.
func toldOf(t testing.TB, st SpeciesState) [][]float64 {
	t.Helper()
	var told [][]float64
	if raw, ok := st.Model["cmaes_told"]; ok {
		if err := json.Unmarshal(raw, &told); err != nil {
			t.Fatal(err)
		}
	}
	return told
}
