package proctest

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
)

var built struct {
	mu   sync.Mutex
	dir  string
	bins map[string]*bin // by import path
}

type bin struct {
	once sync.Once
	path string
	err  error
}

// Evotune builds the evotune command (Build of cmd/evotune), once per
// test binary, and returns its path: for the tests that run it as a real,
// uninstrumented process (memory limits, peak resident set, another user,
// a live dashboard).
func Evotune(t testing.TB) string {
	t.Helper()
	return Build(t, "github.com/evotune/evotune/cmd/evotune")
}

// Build builds the command of import path pkg (evotune, the fixture
// engine examples/tinyuci) with go build, once per
// test binary, into a directory other users may read (see the CLI's
// read-only directory test), and returns its path.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	built.mu.Lock()
	if built.bins == nil {
		built.bins = map[string]*bin{}
	}
	b := built.bins[pkg]
	if b == nil {
		b = &bin{}
		built.bins[pkg] = b
	}
	built.mu.Unlock()
	b.once.Do(func() {
		dir, err := buildDir()
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, path.Base(pkg))
		// By import path, so the build does not depend on the test's package.
		out, err := exec.Command("go", "build", "-o", b.path, pkg).CombinedOutput()
		if err != nil {
			b.err = errors.New("go build " + pkg + ": " + err.Error() + "\n" + string(out))
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// buildDir makes, once, the directory the commands are built in.
func buildDir() (string, error) {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir != "" {
		return built.dir, nil
	}
	dir, err := os.MkdirTemp("", "evotune-bin-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	built.dir = dir
	return dir, nil
}

// Remove deletes what Build built; a TestMain calls it after the tests.
func Remove() {
	built.mu.Lock()
	defer built.mu.Unlock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}
