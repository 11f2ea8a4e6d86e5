package engine

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/golden"
)

// TestExportGolden pins what `evotune export` writes for a hall of fame:
// the top k (all of them when k is larger), ranked from 1, generations
// counted from 1, figures to 6 significant digits, a weight grid as rows
// and lists of numbers on one line each. After an intended change run
// `go test ./engine -run TestExportGolden -update`.
func TestExportGolden(t *testing.T) {
	cfg := loadText(t, t.TempDir(), `name: export
seed: 7
game: battleship
rules: {width: 5, height: 3, fleet: "3,2"}
player: tuned
space:
  weights: {symmetry: full}
fitness:
  baselines:
    games: 4
evolution:
  population: 4
  generations: 2
`)
	sp := cfg.species[0]
	var hof []Member
	for i, fit := range []float64{41.123456789, 42.5, 45.000000000000004} {
		hof = append(hof, Member{
			Genes:      sp.space.Random(rand.New(rand.NewPCG(uint64(i), 1))),
			Figure:     fitness.Figure{Fitness: fit, Games: 10 * (i + 1), CI95: [2]float64{fit - 1.0000001, fit + 0.98765432}},
			Generation: []int{4, 0, 2}[i],
		})
	}
	for _, k := range []int{2, 5} {
		for _, ext := range []string{"yaml", "json"} {
			t.Run(fmt.Sprintf("top %d %s", k, ext), func(t *testing.T) {
				st := SpeciesState{HallOfFame: hof}
				file, _ := cfg.exportFile(sp, st, k)
				want := min(k, len(hof))
				if len(file.Players) != want {
					t.Fatalf("%d players, want %d", len(file.Players), want)
				}
				for i, p := range file.Players {
					if p.Rank != i+1 || p.Generation != hof[i].Generation+1 {
						t.Errorf("player %d: rank %d, generation %d; want %d, %d", i, p.Rank, p.Generation, i+1, hof[i].Generation+1)
					}
				}
				got, err := cfg.exportYAML(sp, st, k)
				if ext == "json" {
					got, err = file.JSON()
				}
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", "export", fmt.Sprintf("top%d.%s", k, ext)), string(got), *update)
			})
		}
	}
}
