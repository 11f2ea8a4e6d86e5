package cli

import (
	"os"
	"path/filepath"
	"testing"
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
