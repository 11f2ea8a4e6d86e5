// Package fileio is how evotune touches files it does not own the contents
// of. Inputs (configs, player files, checkpoints) must be regular files and
// are read through a size limit, so that /dev/zero, a FIFO or a runaway
// file is a one-line error instead of a hang or an out-of-memory death.
// Outputs are opened without following symbolic links, so a link planted
// in a run directory cannot make evotune write somewhere else.
package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The size limits of evotune's inputs. Each is far above what evotune
// writes itself (a config is a few KiB; the largest checkpoint a valid
// config can produce is below MaxCheckpoint, see engine's limits).
const (
	MaxConfig     = 1 << 20   // a config file: 1 MiB
	MaxPlayerFile = 1 << 20   // a player file (tuned:FILE): 1 MiB
	MaxCheckpoint = 256 << 20 // checkpoint.json: 256 MiB
	MaxBook       = 64 << 20  // a chess opening book (EPD or PGN): 64 MiB
)

// Errors the readers wrap.
var (
	// ErrNotRegular is returned for inputs that are devices, FIFOs,
	// sockets or directories.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned for inputs above their size limit.
	ErrTooLarge = errors.New("too large")
	// ErrLink is returned when an output path is a symbolic link.
	ErrLink = errors.New("is a symbolic link; evotune does not write through links")
)

// ReadFile reads the regular file at path, refusing anything else and
// anything larger than limit bytes. It never blocks on a FIFO: the file is
// opened non-blocking and checked before a byte is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if f, err = regular(f, path); err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// ReadFileNoFollow is ReadFile for a file that must not be a symbolic
// link: a reader confined to a directory (the dashboard) cannot be led
// out of it by a link planted there.
func ReadFileNoFollow(path string, limit int64) ([]byte, error) {
	f, err := OpenNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// ReadTail reads the last limit bytes, at most, of the regular file at
// path, which must not be a symbolic link; cut reports whether the file
// was longer. A log read this way starts mid-line when cut.
func ReadTail(path string, limit int64) (data []byte, cut bool, err error) {
	f, err := OpenNoFollow(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	from := max(0, fi.Size()-limit)
	data, err = io.ReadAll(io.NewSectionReader(f, from, limit))
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return data, from > 0, nil
}

// readAll reads the regular file f (named path) through limit.
func readAll(f *os.File, path string, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	// The size may grow between Stat and the read: the limit holds anyway.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, limit)
	}
	return data, nil
}

// OpenNoFollow is Open for a file that must not be a symbolic link.
func OpenNoFollow(path string) (*os.File, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return regular(f, path)
}

// Open opens the regular file at path for reading, refusing anything
// else without blocking on it (a FIFO), for inputs read as a stream.
func Open(path string) (*os.File, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// regular returns f if it is a regular file, else closes it and says
// what it is.
func regular(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, Kind(fi.Mode()))
	}
	return f, nil
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("%s: %w: more than the limit of %s", path, ErrTooLarge, Size(limit))
}

// Size renders a byte count the way the limits are documented.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Kind names a file mode's type for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// OpenAppend opens path for appending, creating it if absent, without
// following a symbolic link and without blocking on a FIFO; anything but
// a regular file is refused.
func OpenAppend(path string) (*os.File, error) {
	f, err := openNoFollow(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, Kind(fi.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Cause drops the operation and path a *fs.PathError adds, for messages
// that name the path themselves.
func Cause(err error) error { return unwrapPath(err) }

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
