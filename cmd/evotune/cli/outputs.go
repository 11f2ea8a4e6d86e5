package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// outputKind is what a flag that names an output file writes there, so
// that an existing file of that kind may be replaced and any other may
// not.
type outputKind struct {
	what string                 // "a pprof profile", for messages
	is   func(path string) bool // whether the file at path is one
}

var (
	profileOutput = outputKind{"a pprof profile", isProfile}
	svgOutput     = outputKind{"an SVG image", isSVG}
	exportOutput  = outputKind{"an evotune export", isExport}
)

// checkOutput refuses, before any work, an output path that the final
// rename would fail on or silently replace with something else: a
// directory, a symbolic link (the rename replaces the link, not its
// target), a FIFO or a device the user meant to write into (/dev/full),
// one of a run directory's own files, or an existing file that is not of
// the kind the flag writes (a slip such as --svg run/checkpoint.json
// would destroy the run once the work is done).
func checkOutput(flag, path string, kind outputKind) error {
	if rundir.IsRunFile(path) {
		return usagef("%s %s: is a file of the run directory %s; will not replace it", flag, path, filepath.Dir(path))
	}
	fi, err := os.Lstat(path)
	if err != nil {
		// Absent (or cannot tell): its directory must be there, or the
		// work is done for nothing; one that cannot be written fails when
		// the file is made.
		dir := filepath.Dir(path)
		switch di, err := os.Stat(dir); {
		case err == nil && !di.IsDir():
			return usagef("%s %s: cannot create a file in %s: %w", flag, path, dir, syscall.ENOTDIR)
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return usagef("%s %s: cannot create a file in %s: %w", flag, path, dir, fileio.Cause(err))
		}
		return nil
	}
	switch {
	case fi.IsDir():
		return usagef("%s %s: is a directory; want a file path", flag, path)
	case fi.Mode()&os.ModeSymlink != 0:
		return usagef("%s %s: is a symbolic link; give the file it points to", flag, path)
	case !fi.Mode().IsRegular():
		return usagef("%s %s: is a %s, not a regular file", flag, path, fileio.Kind(fi.Mode()))
	case fi.Size() > 0 && !kind.is(path):
		return usagef("%s %s: exists and is not %s; will not replace it", flag, path, kind.what)
	}
	return nil
}

// outputFlag is a flag that names a file the command writes.
type outputFlag struct{ name, path string }

// checkDistinct refuses two output flags that name one file: the later
// rename would leave only one of the two outputs.
func checkDistinct(outs ...outputFlag) error {
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if sameFile(a.path, b.path) {
				return usagef("%s %s and %s %s are both one file; want two files", a.name, a.path, b.name, b.path)
			}
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one directory entry: the
// same path once absolute and clean, or the same name in one directory
// reached two ways (a symbolic link to it, a relative and an absolute
// path through different links).
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA == nil && errB == nil && absA == absB {
		return true
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, errA := os.Stat(filepath.Dir(a))
	db, errB := os.Stat(filepath.Dir(b))
	return errA == nil && errB == nil && os.SameFile(da, db)
}

// head returns the first n bytes of the file at path, fewer if it is
// shorter, nil if it cannot be read.
func head(path string, n int) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := io.ReadFull(f, b)
	return b[:k]
}

// isProfile reports whether the file at path starts as a pprof profile
// does, with gzip's magic number.
func isProfile(path string) bool {
	return bytes.HasPrefix(head(path, 2), []byte{0x1f, 0x8b})
}

// isSVG reports whether the file at path starts as an SVG image does:
// with the svg element, or an XML declaration before it.
func isSVG(path string) bool {
	b := bytes.TrimLeft(bytes.TrimPrefix(head(path, 512), []byte("\xef\xbb\xbf")), " \t\r\n")
	return bytes.HasPrefix(b, []byte("<svg")) || bytes.HasPrefix(b, []byte("<?xml"))
}

// exportComment starts every YAML export (engine's exportYAML).
const exportComment = "# evotune export:"

// isExport reports whether the file at path is what export writes: YAML
// under export's comment, or JSON that decodes, strictly, as a parameter
// file with its players.
func isExport(path string) bool {
	b := head(path, fileio.MaxPlayerFile)
	if bytes.HasPrefix(b, []byte(exportComment)) {
		return true
	}
	var f fitness.ParamsFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(&f) == nil && f.Game != "" && len(f.Players) > 0
}
