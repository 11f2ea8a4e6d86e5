package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/rundir"
)

// TestFinishedRunsLeaveNoStore: the embedded server's store
// (RUN_DIR/nats/) is removed once a run finishes, however it was
// finished: a local resume of a run a coordinator started (and was
// killed in) leaves none behind either.
func TestFinishedRunsLeaveNoStore(t *testing.T) {
	cfg := writeConfig(t, distConfig)
	dir := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", cfg, "--out", dir, "--quiet", "--generations", "1")
	store := filepath.Join(dir, rundir.StoreDir)
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
	proctest.WaitFor(t, "first generation queued", exists(filepath.Join(dir, rundir.JournalFile)))
	if err := coord.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Without the stop it would wait for workers for ever: the test's
	// patience, not a fixed time, tells the two apart.
	done := make(chan error, 1)
	go func() { done <- coord.Wait() }()
	_ = proctest.WaitDone(t, coord, done, "a coordinator without workers, after one SIGTERM,", true)
	if code := coord.ProcessState.ExitCode(); code != int(ExitInterrupted) || !strings.Contains(errb.String(), "no workers connected: stopping now") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit %d, saying no workers are connected", code, errb, ExitInterrupted)
	}
	mustRun(t, "run", cfg, "--out", dir, "--quiet", "--workers", "2")
}

// TestWorkerStoppedWhileWaiting: Ctrl-C ends a worker still waiting for
// its coordinator as it ends one at work: exit 130, its profile written.
func TestWorkerStoppedWhileWaiting(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	cpu := filepath.Join(t.TempDir(), "cpu.prof")
	w := evotune("worker", "nats://"+freeAddr(t), "--wait", "5m", "--cpuprofile", cpu)
	var errb proctest.Buffer
	w.Stderr = &errb
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Process.Kill(); _ = w.Wait() }()
	proctest.WaitFor(t, "word that the worker waits", func() bool { return strings.Contains(errb.String(), "no coordinator at") })
	if err := w.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := waitOrKill(t, w); w.ProcessState.ExitCode() != int(ExitInterrupted) {
		t.Fatalf("a waiting worker stopped by Ctrl-C: %v, want exit %d\n%s", err, ExitInterrupted, errb.String())
	}
	checkProfile(t, cpu, "samples", "cpu")
}
