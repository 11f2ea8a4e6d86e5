//go:build unix

package dashboard

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileNode is the device and inode of the file fi describes, for its
// identity: ".DEV.INO".
func fileNode(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf(".%d.%d", st.Dev, st.Ino)
	}
	return ""
}

// alive reports whether process pid exists (a process of another user
// too). A pid the system has since given to another process reads as
// alive: the page then says "in progress" of a test that is not.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
