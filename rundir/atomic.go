package rundir

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/evotune/evotune/internal/fileio"
)

// FS is every disk operation WriteAtomic performs. A run writes through
// one, which tests replace to tear a write, stop before a rename and
// check that nothing is renamed before it is synced.
type FS interface {
	CreateTemp(dir, pattern string) (TempFile, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	SyncDir(dir string) error
}

// TempFile is the part of *os.File WriteAtomic uses.
type TempFile interface {
	Name() string
	Chmod(mode os.FileMode) error
	Write(b []byte) (int, error)
	Sync() error
	Close() error
}

type osFS struct{}

func (osFS) CreateTemp(dir, pattern string) (TempFile, error) { return os.CreateTemp(dir, pattern) }
func (osFS) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osFS) Remove(name string) error                         { return os.Remove(name) }
func (osFS) SyncDir(dir string) error                         { return syncDir(dir) }

// OS is the operating system's file system.
var OS FS = osFS{}

// tempPattern names the temporary file that becomes path.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// WriteAtomic replaces path with data on the file system disk so that a
// crash at any instant leaves either the old file or the new one, never a
// torn one: write a temporary file in the same directory, fsync it,
// rename it over path, fsync the directory so the rename itself is
// durable.
func WriteAtomic(disk FS, path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := disk.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, fileio.Cause(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			disk.Remove(tmp)
		}
	}()
	// CreateTemp makes 0600 files; results are for sharing like any file.
	if err = f.Chmod(0o644); err == nil {
		if _, err = f.Write(data); err == nil {
			err = f.Sync()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = disk.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, fileio.Cause(err))
	}
	return disk.SyncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("rundir: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("rundir: sync %s: %w", dir, err)
	}
	return nil
}

// WriteFile writes data to path atomically on the operating system's
// file system, for the CLI's -o flags.
func WriteFile(path string, data []byte) error { return WriteAtomic(OS, path, data) }
