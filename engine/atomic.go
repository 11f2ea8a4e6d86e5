package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data so that a crash at any instant
// leaves either the old file or the new one, never a torn one: write a
// temporary file in the same directory, fsync it, rename it over path,
// fsync the directory so the rename itself is durable.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
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
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	return syncDir(dir)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("engine: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("engine: sync %s: %w", dir, err)
	}
	return nil
}

// WriteFile writes data to path atomically, for the CLI's -o flags.
func WriteFile(path string, data []byte) error { return writeAtomic(path, data) }
