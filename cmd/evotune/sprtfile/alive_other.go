//go:build !unix

package sprtfile

import "os"

// Alive reports whether process pid exists, as far as this system lets
// a process find another.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
