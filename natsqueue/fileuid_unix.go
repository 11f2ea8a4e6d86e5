//go:build unix

package natsqueue

import (
	"os"
	"syscall"
)

// fileUID is the owner of the file fi describes.
func fileUID(fi os.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
