package mnk

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// goldenWeights are the searching players whose moves are pinned: classic,
// tuned at its defaults and tuned at three seeded uniform draws from its
// schema.
func goldenWeights(tb testing.TB, gm *Game) []struct {
	name string
	w    *priced
} {
	tb.Helper()
	type named = struct {
		name string
		w    *priced
	}
	out := []named{{"classic", gm.price(classicWeights(gm.g.K))}}
	add := func(name string, v genome.Values) {
		w, err := tunedWeights(gm.g.Rules, gm.tuned, v)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, named{name, gm.price(w)})
	}
	add("tuned-defaults", gm.tuned.Defaults())
	space, err := genome.NewSpace(gm.tuned, nil)
	if err != nil {
		tb.Fatal(err)
	}
	rng := fitness.NewRand(1414)
	for i := range 3 {
		v, err := space.Decode(space.Random(rng))
		if err != nil {
			tb.Fatal(err)
		}
		add(fmt.Sprintf("tuned-draw%d", i), v)
	}
	return out
}

// goldenPositions are positions reached by seeded random playouts of
// 0 to maxPlies plies, none of them won or full.
func goldenPositions(gm *Game, n, maxPlies int) []position {
	var out []position
	for seed := uint64(0); len(out) < n; seed++ {
		rng := fitness.NewRand(fitness.Derive(seed, 0x676f6c64)) // "gold"
		var p position
		over := false
		for range rng.IntN(maxPlies + 1) {
			if over = gm.g.play(&p, pick(rng, gm.g.free(&p))) || p.ply == gm.g.cells; over {
				break
			}
		}
		if !over {
			out = append(out, p)
		}
	}
	return out
}

// TestGoldenSearchMoves pins the moves the search picks: for every golden
// player, on the shipped 9x9x5 config's rules at depths 1 to 3 and on a
// board with lines longer than the lookup tables (12x4x4, rescanned), the
// move a fresh searcher picks in each golden position, and whole games
// between the players at depth 3, where the table carries over from move
// to move. A speed-up of the search must not change a single one; rewrite
// with -update only after a deliberate change of what the search computes.
func TestGoldenSearchMoves(t *testing.T) {
	var lines []string
	for _, tc := range []struct {
		rules            Rules
		depth, positions int
		maxPlies         int
	}{
		{Rules{M: 9, N: 9, K: 5}, 1, 60, 30}, {Rules{M: 9, N: 9, K: 5}, 2, 60, 30}, {Rules{M: 9, N: 9, K: 5}, 3, 60, 30},
		{Rules{M: 12, N: 4, K: 4}, 3, 30, 16},
	} {
		gm := mustGame(t, tc.rules, Limits{Depth: tc.depth})
		positions := goldenPositions(gm, tc.positions, tc.maxPlies)
		for _, pl := range goldenWeights(t, gm) {
			var sb strings.Builder
			fmt.Fprintf(&sb, "%v depth=%d %s:", tc.rules, tc.depth, pl.name)
			for i, p := range positions {
				seed := fitness.Derive(uint64(i), 7)
				s := gm.newSearcher(pl.w, seed, fitness.NewRand(seed))
				view := p
				r, c := gm.g.rowCol(s.move(&view))
				fmt.Fprintf(&sb, " %d,%d", r, c)
				s.release()
			}
			lines = append(lines, sb.String())
		}
	}
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 3})
	players := goldenWeights(t, gm)
	for i, a := range players {
		b := players[(i+1)%len(players)]
		pa := &player{strategy: tunedPlay, rules: gm.g.Rules, w: a.w}
		pb := &player{strategy: tunedPlay, rules: gm.g.Rules, w: b.w}
		out, moves := gm.play(pa, pb, uint64(i), true)
		var sb strings.Builder
		fmt.Fprintf(&sb, "game %s-%s seed=%d %v:", a.name, b.name, i, out)
		for _, mv := range moves {
			r, c := gm.g.rowCol(mv)
			fmt.Fprintf(&sb, " %d,%d", r, c)
		}
		lines = append(lines, sb.String())
	}
	compareGolden(t, filepath.Join("testdata", "search-moves.golden"), lines)
}

// compareGolden checks lines against the golden file at path, rewriting
// it first under -update, and reports every line that differs.
func compareGolden(t *testing.T, path string, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	for i, line := range lines {
		if i >= len(want) || line != want[i] {
			t.Errorf("line %d differs from %s:\n got %s", i+1, path, line)
		}
	}
	if len(want) != len(lines) {
		t.Errorf("%d lines, %s has %d", len(lines), path, len(want))
	}
}

// rescanRef is how place and unplace used to update the sums, kept as
// the reference: take out the worth of every line through b, set b to v,
// put the lines' new worth back.
func rescanRef(s *searcher, b int, v int8) {
	for _, l := range s.g.lineAt[b] {
		if l.line >= 0 {
			s.addLine(l.line, -1)
		}
	}
	s.setCell(b, v)
	for _, l := range s.g.lineAt[b] {
		if l.line >= 0 {
			s.addLine(l.line, 1)
		}
	}
}

// TestUnplaceMatchesRescan walks seeded random nests of place and unplace
// from the golden positions with a tuned player's fractional weights (so
// rounding shows) beside a searcher updated by rescanRef: the sums, the
// codes and the board must agree bit for bit after every step, rounding
// drift included.
func TestUnplaceMatchesRescan(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 3})
	w := goldenWeights(t, gm)[2].w
	for i, p := range goldenPositions(gm, 40, 30) {
		s := gm.newSearcher(w, uint64(i), fitness.NewRand(uint64(i)))
		r := gm.newSearcher(w, uint64(i), fitness.NewRand(uint64(i)))
		s.load(&p)
		r.load(&p)
		rng := fitness.NewRand(uint64(i))
		var stack []int
		for step := range 400 {
			free := gm.g.free(&s.pos)
			if len(stack) < 4 && free.Count() > 0 && (len(stack) == 0 || rng.IntN(2) == 0) {
				b := pick(rng, free)
				me := s.pos.toMove()
				s.place(b)
				rescanRef(r, b, int8(me)+1)
				stack = append(stack, b)
			} else if len(stack) > 0 {
				b := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				s.unplace(b)
				rescanRef(r, b, 0)
			}
			if s.sum != r.sum || !slices.Equal(s.code, r.code) || !slices.Equal(s.board, r.board) {
				t.Fatalf("position %d step %d: sums %v, rescan %v", i, step, s.sum, r.sum)
			}
		}
		s.release()
		r.release()
	}
}
