// Package ucitest builds the fixture UCI engine, examples/tinyuci, once
// per test binary, for the tests that play engines as processes.
package ucitest

import (
	"hash/fnv"
	"io"
	"testing"

	"github.com/evotune/evotune/internal/proctest"
)

// Optimum is the fixture's planted optimum: the value of its Focus
// option at which it plays best (examples/tinyuci's Optimum).
const Optimum = 70

// Build builds examples/tinyuci with go build, once per test binary,
// and returns the path of the binary. A TestMain calls Remove after the
// tests.
func Build(tb testing.TB) string {
	tb.Helper()
	return proctest.Build(tb, "github.com/evotune/evotune/examples/tinyuci")
}

// Remove deletes what Build built.
func Remove() { proctest.Remove() }

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
