//go:build unix

package sprtfile

import (
	"errors"
	"syscall"
)

// Alive reports whether process pid exists (a process of another user
// too). A pid the system has since given to another process reads as
// alive: a test "in progress" whose process is gone then reads as live.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
