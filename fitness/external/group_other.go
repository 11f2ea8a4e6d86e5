//go:build !unix

package external

import "syscall"

// sysProcAttr: no process groups here.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the program alone: processes it started are not reached
// on this system.
func killGroup(p *proc) bool {
	p.cmd.Process.Kill()
	return false
}
