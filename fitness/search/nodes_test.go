package search_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestNodeCountsGolden pins the move and the node count of searches of the
// counters game under each table rule. The value tests cannot see how much
// work a search does; the count can: a table entry ignored, a table move
// not tried first or a cutoff taken late all change it, and with a node
// budget the work decides the move. After a deliberate change to the
// search run `go test ./fitness/search -run TestNodeCountsGolden -update`.
func TestNodeCountsGolden(t *testing.T) {
	var b strings.Builder
	for _, tc := range []struct {
		name         string
		narrow, mate bool
	}{{"plain", false, false}, {"narrow", true, false}, {"mate", false, true}} {
		for seed := range uint64(8) {
			rng := rand.New(rand.NewPCG(seed, 3))
			c := newCounters(rng, 3+int(seed%3), 4+int(seed%2))
			s := search.Searcher[*counters]{Pos: c,
				Options: search.Options{Depth: 6, Decided: counterWin / 2, Narrow: tc.narrow, MateDistance: tc.mate},
				Table:   search.NewTable(10)}
			m := s.Choose(rootMoves(c))
			fmt.Fprintf(&b, "%s seed %d: move %d nodes %d\n", tc.name, seed, m, s.Nodes)
		}
	}
	golden.Check(t, filepath.Join("testdata", "nodes.golden"), b.String(), *update)
}
