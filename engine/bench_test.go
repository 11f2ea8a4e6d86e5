package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// quickstart loads configs/quickstart.yaml and a runner on a temp dir.
func quickstart(b *testing.B) *runner {
	b.Helper()
	cfg, err := Load(filepath.Join("..", "configs", "quickstart.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	return startRunner(b, cfg, Options{Dir: b.TempDir(), Workers: 1})
}

// BenchmarkQuickstartGeneration is one generation of the quickstart's
// games on one worker: what the overhead below is compared with.
func BenchmarkQuickstartGeneration(b *testing.B) {
	r := quickstart(b)
	genomes := firstGeneration(b, r)
	for b.Loop() {
		// Each time from scratch: the journal of the last time holds
		// every game of this generation.
		os.Remove(filepath.Join(r.dir, rundir.JournalFile))
		if _, err := r.evaluate(context.Background(), 0, genomes, [][]Member{nil}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.lastGames), "games/gen")
}

// BenchmarkGenerationOverhead is everything a generation does outside its
// games: sorting, the hall of fame, the atomic checkpoint with its derived
// files (generations.csv, best.yaml), and breeding the next generation.
func BenchmarkGenerationOverhead(b *testing.B) {
	r := quickstart(b)
	all, err := r.evaluate(context.Background(), 0, firstGeneration(b, r), [][]Member{nil})
	if err != nil {
		b.Fatal(err)
	}
	sp, members := r.species[0], all[0]
	var hof []Member
	var history []GenStats
	for gen := range 20 { // a hall of fame and history of a run in progress
		hof = r.updateHallOfFame(sp, hof, members)
		history = append(history, r.stats(gen, members, r.lastGames))
	}
	for b.Loop() {
		sorted, err := r.tell(0, 0, members)
		if err != nil {
			b.Fatal(err)
		}
		h := r.updateHallOfFame(sp, hof, sorted)
		ck := &Checkpoint{Format: CheckpointFormat, ConfigHash: r.cfg.Hash(), Config: string(r.cfg.Text()),
			Generation: 21, SpeciesState: SpeciesState{Population: sorted, HallOfFame: h, History: history}}
		if err := r.writeCheckpoint(ck); err != nil {
			b.Fatal(err)
		}
		if _, err := r.models[0].Ask(1); err != nil {
			b.Fatal(err)
		}
	}
}
