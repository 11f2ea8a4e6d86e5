package engine

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/fileio"
)

// TestLargestConfigsFitTheCheckpointLimit: a config at every size limit,
// for each game's largest genome, co-evolving where it can, is valid and
// its checkpoint bound stays below what the checkpoint reader accepts;
// but for the generations of Battleship's 128-cell grid, whose history
// (the best's genes every generation) fits 5,000 generations, not
// 100,000.
func TestLargestConfigsFitTheCheckpointLimit(t *testing.T) {
	sizes := `
evolution:
  model: down-to-size
  population: %d
  offspring: %d
  generations: %d
  hall-of-fame: %d
`
	tests := []struct {
		name, text  string
		generations int
	}{
		{"battleship 128 free cells, co-evolving", `
game: battleship
rules: {width: 8, height: 16}
player: tuned
space:
  weights: {symmetry: full}
fitness:
  hall-of-fame: {members: 1000, games: 1000000}
coevolve:
  player: tuned
`, 5000},
		{"mnk 10x9, k 9", `
game: mnk
rules: {m: 10, n: 9, k: 9}
player: tuned
fitness:
  baselines: {opponents: [random], games: 1000000}
`, MaxGenerations},
		{"hadron 11x11", `
game: hadron
rules: {size: 11, depth: 16, nodes: 1000000000}
player: tuned
fitness:
  baselines: {opponents: [random], games: 1000000}
`, MaxGenerations},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse("largest.yaml", []byte(tc.text+fmt.Sprintf(sizes, MaxPopulation, MaxOffspring, tc.generations, MaxHallOfFame)))
			if err != nil {
				t.Fatal(err)
			}
			if b := cfg.checkpointBound(); b > fileio.MaxCheckpoint {
				t.Fatalf("checkpoint bound %d bytes, above the %d limit", b, fileio.MaxCheckpoint)
			}
		})
	}
}

// TestCheckpointBytesPerGene: the bound's per-gene and per-member figures
// hold for the longest numbers JSON can hold.
func TestCheckpointBytesPerGene(t *testing.T) {
	const genes = 100
	m := Member{Genes: make([]float64, genes), Fitness: -math.MaxFloat64, Games: math.MaxInt,
		CI95: [2]float64{-math.SmallestNonzeroFloat64, -1.2345678901234567e-300}, Generation: math.MaxInt}
	for i := range m.Genes {
		m.Genes[i] = -1.2345678901234567e-300
	}
	ck := &Checkpoint{SpeciesState: SpeciesState{Population: []Member{m}}}
	data, err := ck.encode()
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := (&Checkpoint{SpeciesState: SpeciesState{Population: []Member{}}}).encode()
	per := len(data) - len(empty)
	if limit := genes*checkpointBytesPerGene + checkpointBytesPerMember; per > limit {
		t.Fatalf("a member of %d genes takes %d bytes, the bound allows %d:\n%s", genes, per, limit, strings.TrimSpace(string(data)))
	}
	// A history row keeps its generation's best genes (before, the bound
	// left them out: a 107-gene grid's row took 2,692 bytes of 192).
	x := -1.2345678901234567e-300
	row := GenStats{Generation: MaxGenerations, Best: x, Mean: x, SD: x, Games: math.MaxInt, Saved: math.MaxInt, BestGenes: m.Genes}
	data, _ = (&Checkpoint{SpeciesState: SpeciesState{History: []GenStats{row}}}).encode()
	empty, _ = (&Checkpoint{SpeciesState: SpeciesState{History: []GenStats{}}}).encode()
	if per, limit := len(data)-len(empty), checkpointBytesPerRow+genes*checkpointBytesPerGene; per > limit {
		t.Fatalf("a history row of %d genes takes %d bytes, the bound allows %d", genes, per, limit)
	}
	// CMA-ES's told figures, one per member a generation (before, left
	// out: 280 MB for a population of 2,000 over 20,000 generations).
	told := make([]float64, 1000)
	for i := range told {
		told[i] = x
	}
	data, _ = (&Checkpoint{SpeciesState: SpeciesState{Told: [][]float64{told}}}).encode()
	empty, _ = (&Checkpoint{SpeciesState: SpeciesState{}}).encode()
	if per, limit := len(data)-len(empty), len(told)*checkpointBytesPerTold; per > limit {
		t.Fatalf("a generation of %d told figures takes %d bytes, the bound allows %d", len(told), per, limit)
	}
}

// TestLongRunsThatValidateFitTheCheckpointLimit: configs validate
// accepted whose checkpoint outgrew the reader's limit near their end (a
// 107-gene grid's history over 100,000 generations; CMA-ES told 2,000
// figures a generation for 20,000 generations) are refused, naming the
// key to lower.
func TestLongRunsThatValidateFitTheCheckpointLimit(t *testing.T) {
	for _, text := range []string{`
game: battleship
player: tuned
space:
  weights: {symmetry: full}
evolution:
  generations: 100000
`, `
game: battleship
player: tuned
evolution:
  model: cmaes
  population: 2000
  generations: 20000
`} {
		_, err := Parse("long.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), "evolution: its checkpoint could reach") {
			t.Errorf("%s: %v, want its checkpoint bound refused", text, err)
		}
	}
}
