// Package ucitest builds the fixture UCI engine, examples/tinyuci, once
// per test binary, for the tests that play engines as processes.
package ucitest

import (
	"errors"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Optimum is the fixture's planted optimum: the value of its Focus
// option at which it plays best (examples/tinyuci's Optimum).
const Optimum = 70

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Build builds examples/tinyuci with go build, once, and returns the
// path of the binary. A TestMain calls Remove after the tests.
func Build(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "evotune-tinyuci-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "tinyuci")
		// By import path, so the build does not depend on the test's package.
		out, err := exec.Command("go", "build", "-o", built.path, "github.com/evotune/evotune/examples/tinyuci").CombinedOutput()
		if err != nil {
			built.err = errors.New("go build examples/tinyuci: " + err.Error() + "\n" + string(out))
		}
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.path
}

// Remove deletes what Build built.
func Remove() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// Gate is the fixture's choice of the games its fault injectors fault
// (its option Fault Every): those whose first n moves, after the start
// position fen, hash to a multiple of every. The fixture computes the
// same; a test that counts faults computes the games it expects them in.
func Gate(fen string, moves []string, every int) bool {
	h := fnv.New64a()
	io.WriteString(h, fen)
	for _, m := range moves {
		io.WriteString(h, " "+m)
	}
	return h.Sum64()%uint64(every) == 0
}
