//go:build unix && !linux

package childproc

import "syscall"

// sysProcAttr puts the child in a process group of its own, which
// killGroup reaches. (No parent-death signal here: a child must exit
// when its stdin ends.)
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
