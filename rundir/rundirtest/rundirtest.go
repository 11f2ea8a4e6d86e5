// Package rundirtest reads and compares run directories for tests: the
// result files two runs of one config must hold byte for byte
// (rundir.Results), read the one way every test package reads them.
package rundirtest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// Read returns the result files of the run in dir, the rivals' too when
// rivals, and the games it keeps (games-NNNN.pgn), by name; a missing
// result file fails the test.
func Read(tb testing.TB, dir string, rivals bool) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, f := range rundir.Results(rivals) {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			tb.Fatal(err)
		}
		out[f] = data
	}
	// The games a run keeps (games-NNNN.pgn): a run that replays keeps
	// the same.
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range entries {
		if rundir.IsRecordFile(e.Name()) {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				tb.Fatal(err)
			}
			out[e.Name()] = data
		}
	}
	return out
}

// Same fails the test for every file of want that got does not hold byte
// for byte, naming what was compared.
func Same(tb testing.TB, want, got map[string][]byte, what string) {
	tb.Helper()
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for name := range got {
		if _, ok := want[name]; !ok {
			tb.Errorf("%s: %s is kept where it was not", what, name)
		}
	}
	for _, name := range names {
		if !bytes.Equal(want[name], got[name]) {
			tb.Errorf("%s: %s differs:\n%s\n---\n%s", what, name, clip(want[name]), clip(got[name]))
		}
	}
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}
