package natspool

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/natsqueue"
	"github.com/evotune/evotune/rundir/rundirtest"
)

// TestFieldTunersOnWorkers: spsa playing its own pairs head to head, and
// bayes, give on two distributed workers the files of a local run.
func TestFieldTunersOnWorkers(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"spsa", "seed: 5\ngame: mnk\nrules: {depth: 1}\nplayer: tuned\nfitness:\n  objective: score\n  population: {games: 4, opponents: 1}\nevolution:\n  model: spsa\n  population: 6\n  generations: 3\n"},
		{"bayes", "seed: 4\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 12}\nevolution:\n  model: bayes\n  population: 5\n  generations: 3\n  bayes-initial: 5\n  bayes-candidates: 60\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			load := func() *engine.Setup {
				path := filepath.Join(t.TempDir(), "tuner.yaml")
				if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
					t.Fatal(err)
				}
				cfg, err := engine.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				return cfg
			}
			local := t.TempDir()
			if _, err := engine.Start(context.Background(), load(), engine.Options{Dir: local, Workers: 1}); err != nil {
				t.Fatal(err)
			}
			cl := startCluster(t, natsqueue.Settings{}, newWorker(t), newWorker(t))
			dir := t.TempDir()
			if _, err := startWatched(t, load(), engine.Options{Dir: dir, Pool: Pool{C: cl.c}, BatchGames: 5}); err != nil {
				t.Fatal(err)
			}
			rundirtest.Same(t, rundirtest.Read(t, local, false), rundirtest.Read(t, dir, false), "two workers")
		})
	}
}
