//go:build unix && !linux

package external

import "syscall"

// sysProcAttr puts the program in a process group of its own, which
// killGroup reaches. (No parent-death signal here: a program must exit
// when its stdin ends.)
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
