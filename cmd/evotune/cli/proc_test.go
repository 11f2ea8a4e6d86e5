package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"
)

// evotuneBinary is the evotune of process tests that need a real,
// uninstrumented build, built once per test binary.
func evotuneBinary(t testing.TB) string { return proctest.Evotune(t) }

// removeBuilds removes the binaries the tests built (evotune, coinbot).
func removeBuilds() {
	proctest.Remove()
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

// proc runs the built evotune with args under a memory cap, killed if it
// is still running at the end of the test's patience; stdout, when not
// nil, replaces the captured standard output.
func proc(t testing.TB, stdout *os.File, args ...string) procResult {
	t.Helper()
	return procUntil(t, proctest.Patience(t), stdout, args...)
}

// procUntil is proc, killed at deadline. The binary is built before the
// clock starts: building it under load took most of what was once a
// 30-second limit.
func procUntil(t testing.TB, deadline time.Time, stdout *os.File, args ...string) procResult {
	t.Helper()
	bin := evotuneBinary(t)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	limit := time.Until(deadline).Round(time.Second)
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v ` + memoryCap + ` && exec "$0" "$@"`, bin}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdout != nil {
		cmd.Stdout = stdout
	}
	err := cmd.Start()
	var hwm func() int64
	if err == nil {
		hwm = watchPeakRSS(cmd.Process.Pid)
		err = proctest.WaitExit(t, cmd, "evotune "+strings.Join(args, " "))
	}
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
	if hwm != nil {
		if peak := hwm(); peak > 0 {
			r.maxRSSKiB = peak
		}
	}
	return r
}

// watchPeakRSS samples the process's own high-water resident set (Linux's
// VmHWM) until it exits and returns the last sample, in KiB; 0 where
// /proc has none. ru_maxrss is not the process's alone: Linux keeps at
// exec the high-water mark of the memory it replaces, which for a child
// Go starts (vfork) is the test binary's own, some hundreds of megabytes
// late in a -race run of the whole package.
func watchPeakRSS(pid int) func() int64 {
	var peak atomic.Int64
	stop, done := make(chan struct{}), make(chan struct{})
	path := fmt.Sprintf("/proc/%d/status", pid)
	go func() {
		defer close(done)
		for {
			if data, err := os.ReadFile(path); err == nil {
				for _, line := range strings.Split(string(data), "\n") {
					if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
						if kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64); err == nil && kib > peak.Load() {
							peak.Store(kib)
						}
					}
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		return peak.Load()
	}
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
