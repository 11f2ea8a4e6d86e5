package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFinishedRunsLeaveNoStore: the embedded server's store
// (RUN_DIR/nats/) is removed once a run finishes, however it was
// finished: a local resume of a run a coordinator started (and was
// killed in) leaves none behind either.
func TestFinishedRunsLeaveNoStore(t *testing.T) {
	cfg := writeConfig(t, distConfig)
	dir := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", cfg, "--out", dir, "--quiet", "--generations", "1")
	store := filepath.Join(dir, "nats")
	if err := os.MkdirAll(filepath.Join(store, "jetstream"), 0o755); err != nil { // what a killed coordinator leaves
		t.Fatal(err)
	}
	mustRun(t, "resume", dir, "--quiet", "--generations", "2")
	if _, err := os.Stat(store); !os.IsNotExist(err) {
		t.Fatalf("a finished local resume left %s: %v", store, err)
	}
}

// TestCoordinatorWithoutWorkersStopsOnOneSignal: a first SIGTERM asks a
// run to stop after the generation in flight, which no worker will ever
// play: a coordinator with no worker connected stops at once instead
// (exit 130, saying so), and the run can be started again there.
func TestCoordinatorWithoutWorkersStopsOnOneSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	cfg := writeConfig(t, distConfig)
	dir := filepath.Join(t.TempDir(), "run")
	coord, errb := startCoordinator(t, "run", cfg, "--out", dir, "--serve", freeAddr(t), "--quiet")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "games.journal")); err == nil {
			break // the first generation is queued
		}
		if time.Now().After(deadline) {
			t.Fatalf("the coordinator never started its first generation:\n%s", errb)
		}
	}
	if err := coord.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- coord.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("one SIGTERM did not stop a coordinator without workers in 30 s:\n%s", errb)
	}
	if code := coord.ProcessState.ExitCode(); code != int(ExitInterrupted) || !strings.Contains(errb.String(), "no workers connected: stopping now") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit %d, saying no workers are connected", code, errb, ExitInterrupted)
	}
	mustRun(t, "run", cfg, "--out", dir, "--quiet", "--workers", "2")
}
