//go:build unix

package childproc

import (
	"os"
	"syscall"
)

// killGroup sends SIGKILL to the process group pid leads, so its
// children die with it, and reports whether the group had a member left.
func killGroup(pid int, _ *os.Process) bool { return syscall.Kill(-pid, syscall.SIGKILL) == nil }
