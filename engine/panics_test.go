package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// TestPanicLogNamesTheGeneration: a game's panic goes to run.log under
// the generation it happened in, numbered from 1, with its stack.
func TestPanicLogNamesTheGeneration(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	perGeneration := int64(cfg.cfg.Evolution.Population * cfg.cfg.Fitness.Baselines.Games)
	cfg.game = &panickyGame{soloRoleGame: cfg.game.(soloRoleGame), after: perGeneration}
	dir := t.TempDir()
	if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2}); !errors.Is(err, errGamePanicked) {
		t.Fatalf("err %v, want errGamePanicked", err)
	}
	log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\S+ generation 2: .*panic.*\n(.*\n)*.*panickyGame`).Match(log) {
		t.Fatalf("run.log does not name generation 2 before the stack:\n%s", log)
	}
}
