package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/proctest"
	"github.com/evotune/evotune/rundir"
)

// longRemeasureConfig is a run of two short generations whose remeasure
// takes minutes: nine million fresh games.
const longRemeasureConfig = `name: longremeasure
seed: 4
game: battleship
player: tuned
fitness:
  objective: shots
  baselines:
    opponents: [random]
    games: 10
evolution:
  model: generational
  population: 4
  generations: 2
  elitism: 1
  hall-of-fame: 3
remeasure:
  top: 3
  games: 1000000
`

// TestInterruptDuringTheRemeasure: the first Ctrl-C during the last
// generation or the end-of-run remeasure after it stops the remeasure
// at once and checkpoints the last generation without its figures (exit
// 130), saying that resume plays the remeasure. Before, the message said
// the run would stop after the checkpoint, and the remeasure, which may
// take as long as the generations, went on to the end.
func TestInterruptDuringTheRemeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	cfg := writeConfig(t, longRemeasureConfig)
	dir := filepath.Join(t.TempDir(), "run")
	cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "2")
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The journal's header names the generation being played (from 0):
	// once it names the last, the run is past its last stop between
	// generations.
	proctest.WaitFor(t, "the last generation's journal", func() bool {
		data, err := os.ReadFile(filepath.Join(dir, rundir.JournalFile))
		return err == nil && strings.Contains(string(data), `"generation":1,`)
	})
	_ = cmd.Process.Signal(os.Interrupt)
	err := waitOrKill(t, cmd)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted) ||
		!strings.Contains(errb.String(), "evotune: stopped during the remeasure after the last generation, 2; it is checkpointed, and resume plays the remeasure: evotune resume "+dir) {
		t.Fatalf("%v, stderr:\n%s", err, errb.String())
	}
	ck, _, err := engine.ReadRun(dir)
	if err != nil || ck.Generation != 2 || ck.Verdict != nil || ck.Remeasured != nil {
		t.Fatalf("checkpoint %+v, %v; want generation 2 without the remeasure", ck, err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
	if !strings.Contains(string(log), "stopped on request during the remeasure after generation 2; resume plays it") {
		t.Errorf("run.log:\n%s", log)
	}
}
