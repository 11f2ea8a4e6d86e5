//go:build unix

package fileio

import (
	"fmt"
	"os"
	"syscall"
)

// CheckOwn refuses path unless the user running evotune owns it and no
// one else may write it (group or others): what a file says is then the
// user's own word. A run directory's recorded commands are started only
// from such a directory and checkpoint, so another local user cannot make
// evotune run a program by handing it a run.
func CheckOwn(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok:
		return nil
	case int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s belongs to another user (uid %d): evotune starts no program it names", path, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s may be written by others (mode %v): evotune starts no program it names", path, fi.Mode().Perm())
	}
	return nil
}
