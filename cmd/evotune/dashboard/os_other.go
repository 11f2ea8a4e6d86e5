//go:build !unix

package dashboard

import "os"

// fileNode has no inode to add here: size and time alone name a version.
func fileNode(os.FileInfo) string { return "" }

// alive reports whether process pid exists, as far as this system lets
// a process find another.
func alive(pid int) bool {
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
