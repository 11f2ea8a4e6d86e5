//go:build !unix

package childproc

import (
	"os"
	"syscall"
)

// sysProcAttr: no process groups here.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the child alone: processes it started are not reached
// on this system.
func killGroup(_ int, p *os.Process) bool {
	if p != nil {
		p.Kill()
	}
	return false
}
