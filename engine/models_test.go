package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestModels runs every model and selection a few generations and checks
// what each promises about the next generation.
func TestModels(t *testing.T) {
	tests := []struct {
		name      string
		evolution string
		pool      int // genomes evaluated per generation
		kept      int // best genomes that must reappear unchanged
	}{
		{"generational tournament elitism", "model: generational\n  elitism: 2", 8, 2},
		{"generational roulette", "model: generational\n  selection: roulette\n  elitism: 1", 8, 1},
		{"down-to-size", "model: down-to-size\n  offspring: 11", 19, 8},
		{"natural-selection", "model: natural-selection\n  keep: 3", 8, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(smallConfig, "  elitism: 1\n", "  "+tc.evolution+"\n", 1)
			text = strings.Replace(text, "generations: 4", "generations: 3", 1)
			text = strings.Replace(text, "games: 24", "games: 6", 1) // the models' promises hold at any noise
			cfg := loadText(t, t.TempDir(), text)
			r := startRunner(t, cfg, Options{Dir: t.TempDir(), Workers: 2})
			sp := cfg.species[0]
			genomes := firstGeneration(t, r)
			for gen := range 3 {
				if len(genomes[0]) != tc.pool {
					t.Fatalf("generation %d evaluates %d genomes, want %d", gen, len(genomes[0]), tc.pool)
				}
				members, err := r.evaluate(context.Background(), gen, genomes, [][]Member{nil})
				if err != nil {
					t.Fatal(err)
				}
				sorted := slices.Clone(members[0])
				sp.sortBest(sorted)
				next := breedNext(t, r, gen, members[0])
				for k := range tc.kept {
					if !slices.ContainsFunc(next, func(g []float64) bool { return slices.Equal(g, sorted[k].Genes) }) {
						t.Fatalf("generation %d: the %d-th best did not survive", gen, k+1)
					}
				}
				for _, g := range next {
					if err := sp.space.Check(g); err != nil {
						t.Fatal(err)
					}
				}
				genomes = [][][]float64{next}
			}
		})
	}
}
