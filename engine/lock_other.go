//go:build !unix

package engine

import (
	"errors"
	"io/fs"
	"os"
)

// Without flock the lock file only marks the directory as evotune's.
var errWouldBlock = errors.New("would block")

func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}

func tryLock(*os.File) error { return nil }

func isReadOnly(err error) bool { return errors.Is(err, fs.ErrPermission) }
