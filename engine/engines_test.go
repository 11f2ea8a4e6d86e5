package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/chess/uci/ucitest"
)

// chessConfig is a small chess config that tunes the fixture engine's
// Focus (its planted optimum is ucitest.Optimum) against the fixture at
// its optimum, at go nodes 40; extra lines go at its end.
func chessConfig(t testing.TB, extra ...string) string {
	bin := ucitest.Build(t)
	return fmt.Sprintf(`name: fixture
seed: 3
game: chess
rules: {random-plies: 6, max-moves: 60}
engines:
  dev: {command: [%[1]s], limit: {nodes: 40}}
  base: {command: [%[1]s], options: {Focus: 70}, limit: {nodes: 40}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  baselines: {opponents: ["uci:base"], games: 8}
evolution: {population: 4, generations: 2, hall-of-fame: 2}
remeasure: {games: 8, top: 2}
`, bin) + strings.Join(extra, "\n")
}

// TestEngineRunIndependentOfWorkers: a run that tunes a UCI engine writes
// the same files at 1 and 2 workers, records its engines, and is read
// back by a reader that starts no engine.
func TestEngineRunIndependentOfWorkers(t *testing.T) {
	text := chessConfig(t)
	var runs []map[string][]byte
	for _, w := range []int{1, 2} {
		dir := t.TempDir()
		ck := runText(t, text, Options{Dir: dir, Workers: w})
		rec := ck.Engines["dev"]
		if rec == nil || len(rec.Files) != 1 || !strings.HasPrefix(rec.Info[0], "id name tinyuci") {
			t.Fatalf("engine record %+v: want dev's id lines and its binary's hash", rec)
		}
		runs = append(runs, readRun(t, dir))
	}
	sameRun(t, runs[0], runs[1], "1 and 2 workers")
}

// TestEngineReaderStartsNothing: a reader of a run builds its engines
// from the run's record; with the engine's binary gone, ReadRun still
// reads the run (it starts nothing), and its tuned player has the
// engine's knobs.
func TestEngineReaderStartsNothing(t *testing.T) {
	bin := ucitest.Build(t)
	tmp := t.TempDir()
	copyBin := filepath.Join(tmp, "tinyuci")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyBin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(chessConfig(t), bin, copyBin)
	dir := filepath.Join(tmp, "run")
	runText(t, text, Options{Dir: dir, Workers: 1})
	if err := os.Remove(copyBin); err != nil {
		t.Fatal(err)
	}
	ck, s, err := ReadRun(dir)
	if err != nil {
		t.Fatalf("reading a run whose engine is gone: %v", err)
	}
	defer s.Close()
	if _, err := s.TunedPlayer(ck.HallOfFame[0].Genes); err != nil {
		t.Fatal(err)
	}
	if s.Space().Len() != 1 {
		t.Fatalf("%d genes, want Focus alone", s.Space().Len())
	}
	// Resume must start it, and says it cannot.
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 3}); err == nil || !strings.Contains(err.Error(), "tinyuci") {
		t.Fatalf("resume with the engine gone: %v", err)
	}
}
