//go:build unix

package external

import "syscall"

// killGroup sends SIGKILL to the process group the program leads, so its
// children die with it, and reports whether the group had a member left.
func killGroup(p *proc) bool { return syscall.Kill(-p.pid, syscall.SIGKILL) == nil }
