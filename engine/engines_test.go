package engine

import (
	"context"
	"errors"
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

// programPool records whether the first batch it is given needs a worker
// allowed to run programs, and plays it locally.
type programPool struct {
	Pool
	program *bool
}

func (p programPool) Play(ctx context.Context, w Wave) error {
	*p.program = len(w.Batches) > 0 && w.Batches[0].Program()
	return p.Pool.Play(ctx, w)
}

// TestEngineBatchesNeedPrograms: a run's batches of UCI engine games
// need a worker allowed to run programs (Batch.Program), so the
// coordinator's hint names --allow-programs; a built-in game's do not.
func TestEngineBatchesNeedPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"engines", chessConfig(t), true},
		{"built-in", smallConfig, false},
	} {
		var program bool
		runText(t, tc.text, Options{Dir: t.TempDir(), Pool: programPool{LocalPool(2), &program}})
		if program != tc.want {
			t.Errorf("%s: Batch.Program() = %v, want %v", tc.name, program, tc.want)
		}
	}
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

// TestEngineFaultsCounted: an opponent engine that crashes in some games
// loses them; the run counts each by player and kind in the generation's
// row, keeps their PGNs in the generation's record file (and, with
// record: 1, every game's), and is the same at 1 and 2 workers.
func TestEngineFaultsCounted(t *testing.T) {
	text := strings.Replace(chessConfig(t), "options: {Focus: 70}", `options: {Focus: 70, "Crash Ply": 8, "Fault Every": 3}`, 1)
	var runs []map[string][]byte
	for _, w := range []int{1, 2} {
		dir := t.TempDir()
		ck := runText(t, text, Options{Dir: dir, Workers: w})
		files := readRun(t, dir)
		faults := 0
		for _, row := range ck.History {
			for p, kinds := range row.Faults {
				if p != "uci:base" || len(kinds) != 1 || kinds["crash"] == 0 {
					t.Fatalf("generation %d faults %v: want crashes of uci:base alone", row.Generation, row.Faults)
				}
				faults += kinds["crash"]
			}
			pgn, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("games-%04d.pgn", row.Generation)))
			if n := strings.Count(string(pgn), "[Event "); n != row.Faults["uci:base"]["crash"] || (n > 0) != (err == nil) {
				t.Fatalf("generation %d: %d games in its record file (%v), want its %d faults", row.Generation, n, err, row.Faults["uci:base"]["crash"])
			}
			files[fmt.Sprint("pgn ", row.Generation)] = pgn
		}
		if faults == 0 {
			t.Fatal("no faults counted: the fixture's crashes were not seen")
		}
		runs = append(runs, files)
	}
	sameRun(t, runs[0], runs[1], "1 and 2 workers")

	dir := t.TempDir()
	ck := runText(t, text+"\nrecord: 1\n", Options{Dir: dir, Workers: 2})
	for _, row := range ck.History {
		pgn, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("games-%04d.pgn", row.Generation)))
		if n := strings.Count(string(pgn), "[Event "); err != nil || n != row.Games {
			t.Fatalf("record: 1, generation %d: %d games recorded (%v), want all %d", row.Generation, n, err, row.Games)
		}
	}
}

// TestBookIsPartOfTheConfig: a chess config's book is found beside the
// config, its hash recorded, and a resume after the book was edited is
// refused, naming it.
func TestBookIsPartOfTheConfig(t *testing.T) {
	book, err := os.ReadFile("../fitness/chess/testdata/book.epd")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "openings.epd"), book, 0o644); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(chessConfig(t), "rules: {random-plies: 6, max-moves: 60}", "rules: {book: openings.epd, random-plies: 2, max-moves: 60}", 1)
	cfg := filepath.Join(tmp, "c.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "run")
	if _, err := Start(context.Background(), s, Options{Dir: dir, Workers: 2, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	ck, r, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if ck.Files["book=openings.epd"] == "" {
		t.Fatalf("files recorded %v: want the book's hash", ck.Files)
	}
	if err := os.WriteFile(filepath.Join(tmp, "openings.epd"), append(book, []byte("4k3/8/8/8/8/8/4P3/4K3 w - -\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Resume(context.Background(), Options{Dir: dir, Generations: 2})
	if !errors.Is(err, ErrConfigChanged) || !strings.Contains(err.Error(), "book=openings.epd") {
		t.Fatalf("resume after the book was edited: %v, want ErrConfigChanged naming it", err)
	}
}
