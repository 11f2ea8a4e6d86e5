//go:build unix

package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

var errWouldBlock = syscall.EWOULDBLOCK

// openLockFile opens the lock file, making it if absent, and says
// whether this call made it.
func openLockFile(path string) (f *os.File, created bool, err error) {
	const flags = os.O_RDWR | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	f, err = os.OpenFile(path, flags|os.O_CREATE|os.O_EXCL, 0o644)
	created = err == nil
	if errors.Is(err, os.ErrExist) {
		f, err = os.OpenFile(path, flags, 0)
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, false, errors.New(path + " is a symbolic link")
	}
	if err != nil {
		return nil, false, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, false, errors.New(path + " is not a regular file")
	}
	return f, created, nil
}

func tryLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err
		}
	}
}

func isReadOnly(err error) bool {
	return errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EPERM)
}

// HeldBy reports whether another process holds the lock of the run
// directory dir, and names it as LockRunDir's refusal does (" (pid N)").
// It opens the lock file read-only and takes a shared lock for no longer
// than the probe, so it writes nothing (export, which reads a live run
// without the lock, may ask too) and works in a directory it cannot
// write; a process that tries to take the lock in that instant is
// refused as if the directory were held.
func HeldBy(dir string) (holder string, held bool) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if !errors.Is(err, errWouldBlock) {
		return "", false
	}
	return readHolder(f), true
}
