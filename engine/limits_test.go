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
// its checkpoint bound stays below what the checkpoint reader accepts.
func TestLargestConfigsFitTheCheckpointLimit(t *testing.T) {
	sizes := fmt.Sprintf(`
evolution:
  model: down-to-size
  population: %d
  offspring: %d
  generations: %d
  hall-of-fame: %d
`, MaxPopulation, MaxOffspring, MaxGenerations, MaxHallOfFame)
	tests := []struct{ name, text string }{
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
`},
		{"mnk 10x9, k 9", `
game: mnk
rules: {m: 10, n: 9, k: 9}
player: tuned
fitness:
  baselines: {opponents: [random], games: 1000000}
`},
		{"hadron 11x11", `
game: hadron
rules: {size: 11, depth: 16, nodes: 1000000000}
player: tuned
fitness:
  baselines: {opponents: [random], games: 1000000}
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse("largest.yaml", []byte(tc.text+sizes))
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
	x := -1.2345678901234567e-300
	row := GenStats{Generation: MaxGenerations, Best: x, Mean: x, SD: x, Games: math.MaxInt}
	data, _ = (&Checkpoint{SpeciesState: SpeciesState{History: []GenStats{row}}}).encode()
	empty, _ = (&Checkpoint{SpeciesState: SpeciesState{History: []GenStats{}}}).encode()
	if per := len(data) - len(empty); per > checkpointBytesPerRow {
		t.Fatalf("a history row takes %d bytes, the bound allows %d", per, checkpointBytesPerRow)
	}
}
