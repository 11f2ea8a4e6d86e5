package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The evotune binary of process tests that need a real, uninstrumented
// build (memory limits, peak RSS, another user): built once per test
// binary.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// evotuneBinary builds evotune with go build, once, and returns its path.
func evotuneBinary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "evotune-bin-")
		if built.err != nil {
			return
		}
		// Other users may run it (see the read-only directory test).
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

// removeBuilds removes the binaries the tests built (evotune, coinbot).
func removeBuilds() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	if coinbotDir != "" {
		os.RemoveAll(coinbotDir)
	}
}

// procResult is how a process test's evotune ended.
type procResult struct {
	code           int
	stdout, stderr string
	maxRSSKiB      int64
}

// memoryCap bounds the virtual memory of evotune in process tests, so a
// defect that allocates without bound fails the test instead of the
// machine.
const memoryCap = "4194304" // KiB: 4 GiB

// proc runs the built evotune with args under a time limit of 30s and a
// memory cap; stdout, when not nil, replaces the captured standard output.
func proc(t testing.TB, stdout *os.File, args ...string) procResult {
	t.Helper()
	return procWithin(t, 30*time.Second, stdout, args...)
}

// procWithin is proc with another time limit.
func procWithin(t testing.TB, limit time.Duration, stdout *os.File, args ...string) procResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v ` + memoryCap + ` && exec "$0" "$@"`, evotuneBinary(t)}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdout != nil {
		cmd.Stdout = stdout
	}
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("evotune %s: still running after %v (killed); stderr:\n%s", strings.Join(args, " "), limit, errb.String())
	}
	r := procResult{stdout: out.String(), stderr: errb.String()}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		r.code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("evotune %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := sysUsage(cmd.ProcessState); ok {
		r.maxRSSKiB = ru
	}
	return r
}

// oneLine fails t unless r exited with code and said one line holding want,
// with no stack trace.
func (r procResult) expect(t testing.TB, code int, want string) {
	t.Helper()
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Fatalf("stack trace:\n%s", r.stderr)
	}
	if r.code != code || !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q; want exit %d and one line containing %q", r.code, r.stderr, code, want)
	}
}
