package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Errors of run directory ownership.
var (
	// ErrLocked is returned when another process holds the run directory.
	ErrLocked = errors.New("is in use by another evotune process")
	// ErrNotEvotuneDir is returned when run -o names a non-empty
	// directory that holds no evotune run.
	ErrNotEvotuneDir = errors.New("is not empty and holds no evotune run")
	// ErrReadOnly is returned when a run directory cannot be written and
	// the command would have to.
	ErrReadOnly = errors.New("cannot be written")
)

// RunLock is a held lock on a run directory: while it is held no other
// evotune process runs, resumes or coordinates that directory. The lock is
// an advisory flock on the directory's lock file, so the kernel releases
// it when the process ends in any way, kill -9 included: there is never a
// stale lock to clean up.
type RunLock struct {
	dir      string
	f        *os.File // nil when the directory is read-only
	readOnly bool
	created  bool // this lock made the lock file
}

// lockTakenHook, when set (by tests), runs each time LockRunDir has
// locked the file it opened, before it checks that the path still names
// that file: where a releasing holder's removal can land.
var lockTakenHook func(path string)

// LockRunDir takes the lock of the run directory dir, which must exist,
// without waiting. It fails with ErrLocked, naming the holder's process
// id, when another process holds it. In a directory this process cannot
// write, it returns a read-only lock (ReadOnly reports true) that holds
// nothing: no evotune can change such a directory either.
func LockRunDir(dir string) (*RunLock, error) {
	l := &RunLock{dir: dir}
	path := filepath.Join(dir, LockFile)
	var f *os.File
	for attempt := 0; ; attempt++ {
		var err error
		f, l.created, err = openLockFile(path)
		if isReadOnly(err) {
			l.readOnly = true
			return l, nil
		}
		if err != nil {
			return nil, fmt.Errorf("rundir: lock %s: %w", dir, err)
		}
		if err := tryLock(f); err != nil {
			holder := readHolder(f)
			f.Close()
			if errors.Is(err, errWouldBlock) {
				return nil, fmt.Errorf("%s %w%s: wait for it to finish, or stop it", dir, ErrLocked, holder)
			}
			return nil, fmt.Errorf("rundir: lock %s: %w", dir, err)
		}
		if lockTakenHook != nil {
			lockTakenHook(path)
		}
		// A holder that made the file and wrote nothing removes it on
		// release (see CloseUnused); a lock taken on the removed file
		// locks nothing, so take it again on the file the path names.
		if held, err := f.Stat(); err == nil {
			if now, err := os.Lstat(path); err == nil && os.SameFile(held, now) {
				break
			}
		}
		f.Close()
		if attempt == 10 {
			return nil, fmt.Errorf("rundir: lock %s: the lock file keeps changing", dir)
		}
	}
	// Record who holds it, for the message a second process prints.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(fmt.Sprintf("%d\n", os.Getpid())), 0)
	}
	l.f = f
	return l, nil
}

// ReadOnly reports whether the directory could not be written, so
// nothing is locked.
func (l *RunLock) ReadOnly() bool { return l.readOnly }

// Close releases the lock.
func (l *RunLock) Close() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor releases the flock
	l.f = nil
	return err
}

// CloseUnused releases the lock of a command that wrote nothing to the
// directory, removing the lock file if this lock made it: a refused or
// failed command leaves the directory as it found it. The file goes
// before the lock, so another process never holds a lock on a removed
// file for long (LockRunDir checks).
func (l *RunLock) CloseUnused() error {
	if l == nil || l.f == nil {
		return nil
	}
	if l.created {
		os.Remove(filepath.Join(l.dir, LockFile))
	}
	return l.Close()
}

// Release releases the lock; if the command wrote nothing, the lock file
// goes too when this lock made it.
func (l *RunLock) Release(wrote bool) {
	if wrote {
		l.Close()
		return
	}
	l.CloseUnused()
}

func readHolder(f *os.File) string {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid := strings.TrimSpace(string(buf[:n]))
	if pid == "" || strings.Trim(pid, "0123456789") != "" {
		return ""
	}
	return " (pid " + pid + ")"
}

// RemoveStaleTemps deletes the temporary files of killed evotune
// processes: only regular files named like ours, and only under the lock,
// so no live writer's file is touched.
func (l *RunLock) RemoveStaleTemps() error {
	if l.f == nil {
		return nil
	}
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return fmt.Errorf("rundir: %w", err)
	}
	for _, e := range entries {
		if !isOwnTemp(e.Name()) || e.Type()&fs.ModeType != 0 {
			continue
		}
		if err := os.Remove(filepath.Join(l.dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rundir: remove a stale temporary file: %w", err)
		}
	}
	return nil
}

// probeHolder is Holder by a probe of the lock (HeldBy).
func probeHolder(dir string) (int, bool) {
	holder, held := HeldBy(dir)
	pid, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(holder, " (pid "), ")"))
	if err != nil {
		pid = 0
	}
	return pid, held
}

// LockBeside takes the lock of a single file evotune writes whole, such
// as an sprt state file, without waiting: an advisory flock on a lock
// file of its own beside path ("."+name+".lock"), which the kernel
// releases when the process ends in any way. It fails with ErrLocked when
// another process holds it. unlock removes the lock file, then releases
// the lock; a process that opened the file meanwhile finds its path gone
// or another's, and tries again.
func LockBeside(path string) (unlock func(), err error) {
	lpath := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	for range 16 {
		f, _, err := openLockFile(lpath)
		if err != nil {
			return nil, fmt.Errorf("rundir: lock %s: %w", path, err)
		}
		if err := tryLock(f); err != nil {
			f.Close()
			if errors.Is(err, errWouldBlock) {
				return nil, fmt.Errorf("%s %w", path, ErrLocked)
			}
			return nil, fmt.Errorf("rundir: lock %s: %w", path, err)
		}
		cur, err1 := os.Lstat(lpath)
		held, err2 := f.Stat()
		if err1 == nil && err2 == nil && os.SameFile(cur, held) {
			return func() { _ = os.Remove(lpath); f.Close() }, nil
		}
		f.Close() // a releasing holder removed it: lock the one there now
	}
	return nil, fmt.Errorf("rundir: lock %s: its lock file keeps being replaced", path)
}
