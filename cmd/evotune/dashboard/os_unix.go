//go:build unix

package dashboard

import (
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
