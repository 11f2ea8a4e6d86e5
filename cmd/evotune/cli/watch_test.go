package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/proctest"
)

// runWatched runs cmd to its end as cmd.Run does, and fails t should it
// stall (proctest.WaitExit).
func runWatched(t testing.TB, cmd *exec.Cmd) error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		return err
	}
	return proctest.WaitExit(t, cmd, "evotune "+strings.Join(cmd.Args[1:], " "))
}

// outputWatched is cmd.CombinedOutput under runWatched.
func outputWatched(t testing.TB, cmd *exec.Cmd) ([]byte, error) {
	t.Helper()
	var b proctest.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := runWatched(t, cmd)
	return []byte(b.String()), err
}
