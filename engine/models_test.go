package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/genome"
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

// TestTournamentSizeBindsSelectingModels: evolution.tournament-size is
// checked against the population only for the models that select
// parents by tournament (generational, down-to-size); the others never
// draw a tournament and accept any size.
func TestTournamentSizeBindsSelectingModels(t *testing.T) {
	for _, tc := range []struct {
		model, extra string
		refused      bool
	}{
		{"generational", "", true},
		{"down-to-size", "  offspring: 4\n", true},
		{"natural-selection", "  keep: 1\n", false},
		{"random-search", "", false},
		{"cmaes", "", false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			text := fmt.Sprintf("game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  model: %s\n  population: 4\n  tournament-size: 4\n%s", tc.model, tc.extra)
			_, err := parse("c.yaml", []byte(text))
			const msg = "evolution.tournament-size: 4: want from 1 to population-1 (3)"
			switch {
			case tc.refused && (err == nil || !strings.Contains(err.Error(), msg)):
				t.Fatalf("err = %v, want %q", err, msg)
			case !tc.refused && err != nil:
				t.Fatalf("err = %v, want none", err)
			}
		})
	}
}

// TestCMAESStartsAtTheFirstRandomGenome: without seeds, CMA-ES samples
// its first generation around the first random genome generation 0 of
// another model has, drawn from the same stream.
func TestCMAESStartsAtTheFirstRandomGenome(t *testing.T) {
	const text = "seed: 11\ngame: battleship\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  population: 8\n"
	gen := loadText(t, t.TempDir(), text+"  tournament-size: 2\n")
	cma := loadText(t, t.TempDir(), text+"  model: cmaes\n  step-size: 0.001\n")
	defer gen.Close()
	defer cma.Close()
	first := firstGeneration(t, startRunner(t, gen, Options{Dir: t.TempDir()}))[0][0]
	r := startRunner(t, cma, Options{Dir: t.TempDir()})
	sp := cma.species[0]
	for _, x := range firstGeneration(t, r)[0] {
		for i, g := range sp.space.Genes() {
			if g.Kind != genome.Float && g.Kind != genome.Grid {
				continue // snapped to a bucket's centre either way
			}
			if d := math.Abs(x[i] - first[i]); d > 0.01 {
				t.Fatalf("gene %v of a first sample: %v, the first random genome's %v", g, x[i], first[i])
			}
		}
	}
}
