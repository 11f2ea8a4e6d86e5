package engine

import (
	"testing"

	"github.com/evotune/evotune/fitness"
)

// hofConfig plays all three fitness modes, seat-swapped pairs included.
const hofConfig = `name: modes
seed: 5
game: mnk
player: tuned
fitness:
  baselines:
    opponents: [random, greedy]
    games: 6
  population:
    opponents: 3
    games: 4
  hall-of-fame:
    members: 2
    games: 4
evolution:
  population: 7
  generations: 3
  tournament-size: 2
`

// TestChunkedGamesMatchOneList: a generation's games are played in
// chunks; the files must be byte-identical to playing the whole list at
// once (the behaviour before chunking), at any chunk size and worker
// count, racing included.
func TestChunkedGamesMatchOneList(t *testing.T) {
	defer func(n int) { jobChunk = n }(jobChunk)
	for _, tc := range []struct{ name, config string }{
		{"shots", smallConfig}, {"three modes", hofConfig}, {"co-evolution", coevolveConfig},
		// A race decides between rounds, from all of a round's results,
		// never between the waves a round is played in.
		{"racing", racedConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rivals := tc.config == coevolveConfig
			var runs []map[string][]byte
			for _, c := range []struct{ chunk, workers int }{{1 << 30, 1}, {5, 2}, {64, 1}} {
				jobChunk = c.chunk
				dir := t.TempDir()
				startText(t, tc.config, Options{Dir: dir, Workers: c.workers})
				runs = append(runs, readFilesAndExport(t, dir, rivals))
			}
			sameRun(t, runs[0], runs[1], "chunks of 5 at 2 workers vs one list")
			sameRun(t, runs[0], runs[2], "chunks of 64 vs one list")
		})
	}
}

// TestScheduleCountsWhatItLists: the count evaluate announces (and
// generations.csv records) is the length of the list it plays, and emit
// returning false stops the listing at once.
func TestScheduleCountsWhatItLists(t *testing.T) {
	cfg := loadText(t, t.TempDir(), hofConfig)
	r := newRunner(cfg, Options{Dir: t.TempDir()})
	sp := cfg.species[0]
	var hof []fitness.Player
	for range cfg.cfg.Fitness.HallOfFame.Members {
		p, err := r.player(sp, sp.space.Random(fitness.NewRand(1)))
		if err != nil {
			t.Fatal(err)
		}
		hof = append(hof, p)
	}
	sizes, hofs := []int{cfg.cfg.Evolution.Population}, [][]fitness.Player{hof}
	jobs := r.schedule(2, sizes, hofs)
	if n := r.scheduleEach(2, sizes, hofs, nil); n != len(jobs) || n == 0 {
		t.Fatalf("counted %d games, listed %d", n, len(jobs))
	}
	emitted := 0
	r.scheduleEach(2, sizes, hofs, func(job) bool { emitted++; return emitted < 5 })
	if emitted != 5 {
		t.Fatalf("emit was called %d times after asking to stop at 5", emitted)
	}
}
