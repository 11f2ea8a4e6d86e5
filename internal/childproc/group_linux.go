package childproc

import "syscall"

// sysProcAttr puts the child in a process group of its own, which
// killGroup reaches, and has the kernel kill it if evotune dies first.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
