package proctest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Evotune builds the evotune command with go build, once per test
// binary, into a directory other users may read (see the CLI's read-only
// directory test), and returns its path: for the tests that run it as a
// real, uninstrumented process (memory limits, peak resident set,
// another user, a live dashboard).
func Evotune(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "evotune-bin-")
		if built.err != nil {
			return
		}
		if built.err = os.Chmod(built.dir, 0o755); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "evotune")
		// By import path, so the build does not depend on the test's package.
		out, err := exec.Command("go", "build", "-o", built.path, "github.com/evotune/evotune/cmd/evotune").CombinedOutput()
		if err != nil {
			built.err = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// Remove deletes what Evotune built; a TestMain calls it after the tests.
func Remove() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}
