package engine

import (
	"context"
	"testing"
)

// BenchmarkTrivialGeneration is a generation of 10^6 games of the
// cheapest game there is (1x1 m,n,k), so what it measures is the engine's
// per-game cost: listing, seeding, dispatching and reducing a game.
func BenchmarkTrivialGeneration(b *testing.B) {
	cfg := loadText(b, b.TempDir(), `name: trivial
game: mnk
rules: {m: 1, n: 1, k: 1}
player: tuned
fitness:
  baselines:
    opponents: [random]
    games: 100000
evolution:
  population: 10
  generations: 1
`)
	r := startRunner(b, cfg, Options{Dir: b.TempDir(), Workers: 1})
	genomes := firstGeneration(b, r)
	for b.Loop() {
		if _, err := r.evaluate(context.Background(), 0, genomes, [][]Member{nil}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(r.lastGames), "ns/game")
}
