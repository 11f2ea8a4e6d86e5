package hadron

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// goldenSearchers are the searching players whose moves are pinned: the
// published Aenigma, tuned at its defaults and tuned at three seeded
// uniform draws from its schema (other weights, thresholds and jitter).
func goldenSearchers(tb testing.TB, size int) []struct {
	name string
	w    Weights
} {
	tb.Helper()
	schema := Schema(size)
	space, err := genome.NewSpace(schema, nil)
	if err != nil {
		tb.Fatal(err)
	}
	out := []struct {
		name string
		w    Weights
	}{{"aenigma", Aenigma}}
	def, err := WeightsFrom(schema.Defaults())
	if err != nil {
		tb.Fatal(err)
	}
	out = append(out, struct {
		name string
		w    Weights
	}{"tuned-defaults", def})
	rng := fitness.NewRand(1414)
	for i := range 3 {
		v, err := space.Decode(space.Random(rng))
		if err != nil {
			tb.Fatal(err)
		}
		w, err := WeightsFrom(v)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, struct {
			name string
			w    Weights
		}{fmt.Sprintf("tuned-draw%d", i), w})
	}
	return out
}

// goldenPositions are positions reached by seeded random playouts of
// 0 to 60 plies on a size x size board, none of them over.
func goldenPositions(size, n int) []Board {
	var out []Board
	for seed := uint64(0); len(out) < n; seed++ {
		rng := fitness.NewRand(fitness.Derive(seed, 0x676f6c64)) // "gold"
		b := newBoard(geoms[size])
		plies := rng.IntN(61)
		for range plies {
			if b.Over() {
				break
			}
			b.place(b.legal.Nth(rng.IntN(b.legal.Count())))
		}
		if !b.Over() {
			out = append(out, b)
		}
	}
	return out
}

// TestGoldenSearchMoves pins the moves the search picks: for every
// golden searcher, at depths 1 to 3 on 9x9 and depth 4 on 7x7, the move a
// fresh searcher (empty table, no killers) chooses in each of the golden
// positions, and whole games between them at depth 3, where the table and
// killers carry over from move to move. A speed-up of the search must not
// change a single one; rewrite with -update only after a deliberate
// change of what the search computes.
func TestGoldenSearchMoves(t *testing.T) {
	var lines []string
	for _, tc := range []struct{ size, depth, positions int }{
		{9, 1, 60}, {9, 2, 60}, {9, 3, 60}, {7, 4, 30},
	} {
		if testing.Short() && tc.depth == 4 {
			continue
		}
		positions := goldenPositions(tc.size, tc.positions)
		for _, p := range goldenSearchers(t, tc.size) {
			var sb strings.Builder
			fmt.Fprintf(&sb, "size=%d depth=%d %s:", tc.size, tc.depth, p.name)
			for i, b := range positions {
				t := getTable()
				s := &searcher{w: p.w, salt: fitness.Derive(uint64(i), 7), tt: *t, tab: t, depth: tc.depth}
				for k := range s.killer {
					s.killer[k] = [2]int8{-1, -1}
				}
				fmt.Fprintf(&sb, " %v", b.cell(s.move(&b)))
				s.release()
			}
			lines = append(lines, sb.String())
		}
	}
	g := mustGame(t, Options{Size: 9, Depth: 3})
	searchers := goldenSearchers(t, 9)
	for i, a := range searchers {
		b := searchers[(i+1)%len(searchers)]
		pa := &Player{name: a.name, strategy: StrategySearch, weights: a.w}
		pb := &Player{name: b.name, strategy: StrategySearch, weights: b.w}
		r, err := g.PlayRecord(pa, pb, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("game %s-%s seed=%d: %v", a.name, b.name, i, r))
	}
	compareGolden(t, filepath.Join("testdata", "search-moves.golden"), lines)
}

// compareGolden checks lines against the golden file at path, rewriting
// it first under -update, and reports every line that differs.
func compareGolden(t *testing.T, path string, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	if *update && !testing.Short() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	want := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		want[line] = true
	}
	for _, line := range lines {
		if !want[line] {
			t.Errorf("not in %s:\n%s", path, line)
		}
	}
	if !testing.Short() && got != string(raw) {
		t.Errorf("%s differs from what the search plays (%d lines, file %d)", path, len(lines), len(want))
	}
}
