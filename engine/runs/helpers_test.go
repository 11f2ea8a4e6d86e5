package runs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/engine"
)

// crashConfig is a Battleship run of a few seconds: a solo measure whose
// config writes a breeding key, so it runs generational.
const crashConfig = `name: crash
seed: 11
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 6
evolution:
  population: 4
  generations: 3
  tournament-size: 2
  elitism: 1
  hall-of-fame: 3
`

// hofConfig is an m,n,k run of every fitness mode, head to head.
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

// finishedRun runs crashConfig to its end in a fresh directory.
func finishedRun(t *testing.T) string { return runTo(t, crashConfig) }

// runTo runs config text to its end in a fresh directory.
func runTo(t *testing.T, text string) string {
	t.Helper()
	return runIn(t, t.TempDir(), text)
}

// runIn runs config text, written as config.yaml in cfgDir, to its end
// in a fresh directory.
func runIn(t *testing.T, cfgDir, text string) string {
	t.Helper()
	file := filepath.Join(cfgDir, "config.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := engine.Start(context.Background(), s, engine.Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readDir reads every file of a directory.
func readDir(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}
