package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/MaxHalford/eaopt"
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
			r := newRunner(cfg, Options{Dir: t.TempDir(), Workers: 2})
			sp := cfg.species[0]
			pools := r.initial()
			for gen := range 3 {
				if len(pools[0]) != tc.pool {
					t.Fatalf("generation %d evaluates %d genomes, want %d", gen, len(pools[0]), tc.pool)
				}
				members, err := r.evaluate(context.Background(), gen, pools, [][]Member{nil})
				if err != nil {
					t.Fatal(err)
				}
				sorted := slices.Clone(members[0])
				sp.sortBest(sorted)
				next, err := r.breed(sp, gen, sorted)
				if err != nil {
					t.Fatal(err)
				}
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
				pools = [][][]float64{next}
			}
		})
	}
}

func TestTournamentReportsTheWinnersIndex(t *testing.T) {
	// Costs 10, 9, ..., 5: with everyone in the tournament the last one
	// (lowest cost) must win, whoever is drawn first. eaopt v0.4.2's
	// SelTournament reports index 0 when its first contestant wins.
	var indis eaopt.Individuals
	for i := range 6 {
		indis = append(indis, eaopt.Individual{Genome: &eaGenome{genes: []float64{float64(i)}}, Fitness: float64(10 - i), Evaluated: true})
	}
	for seed := range uint64(20) {
		won, idx, err := tournament{size: 6}.Apply(1, indis, newEaoptRand(seed))
		if err != nil {
			t.Fatal(err)
		}
		if idx[0] != 5 || won[0].Fitness != 5 {
			t.Fatalf("seed %d: index %d, fitness %v; want index 5, fitness 5", seed, idx[0], won[0].Fitness)
		}
	}
	// Two winners are distinct individuals.
	won, idx, err := tournament{size: 2}.Apply(2, indis, newEaoptRand(1))
	if err != nil || idx[0] == idx[1] || won[0].Fitness != indis[idx[0]].Fitness || won[1].Fitness != indis[idx[1]].Fitness {
		t.Fatalf("two winners: %v %v %v", idx, won, err)
	}
}
