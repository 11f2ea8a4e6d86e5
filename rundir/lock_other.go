//go:build !unix

package rundir

import (
	"errors"
	"io/fs"
	"os"
)

// Without flock the lock file only marks the directory as evotune's.
var errWouldBlock = errors.New("would block")

func openLockFile(path string) (*os.File, bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_RDWR, 0)
		return f, false, err
	}
	return f, err == nil, err
}

func tryLock(*os.File) error { return nil }

func isReadOnly(err error) bool { return errors.Is(err, fs.ErrPermission) }

func HeldBy(string) (string, bool) { return "", false }
