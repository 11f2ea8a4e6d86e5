package hadron

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func TestPerftMatchesNaiveWalk(t *testing.T) {
	for _, tc := range []struct{ size, depth int }{
		{3, 9}, // to the end of every game
		{4, 6},
		{5, 4},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.size, tc.size), func(t *testing.T) {
			g := mustGame(t, Options{Size: tc.size})
			got := g.Perft(tc.depth)
			v := newNaive(tc.size)
			for d := 1; d <= tc.depth; d++ {
				if want := v.perft(d); got[d-1] != want {
					t.Errorf("perft(%d) = %d, naive walk says %d", d, got[d-1], want)
				}
			}
		})
	}
}

// TestPerftMidGame checks the counts from positions deep in random games,
// where the incremental state has seen many moves and take-backs.
func TestPerftMidGame(t *testing.T) {
	for _, size := range []int{4, 6, 9, 11} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			rng := fitness.NewRand(uint64(size))
			for game := range 4 {
				b := mustBoard(t, size)
				for ply := 0; !b.Over(); ply++ {
					if ply%7 == 3 {
						v := naiveOf(b)
						for d := 1; d <= min(3, 30/size); d++ {
							if got, want := b.Perft(d), v.perft(d); got != want {
								t.Fatalf("game %d ply %d perft(%d) = %d, naive %d\n%v", game, ply, d, got, want, b)
							}
						}
					}
					legal := b.Legal()
					if err := b.Play(legal[rng.IntN(len(legal))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// perftLeaf is perft with only the last ply counted in bulk, to check the
// two-ply shortcut against on boards too big for the naive walk.
func perftLeaf(b *Board, d int) uint64 {
	if d == 1 {
		return uint64(b.legal.Count())
	}
	var total uint64
	for _, i := range bits128.AppendCells([]int8(nil), b.legal) {
		b.place(int(i))
		total += perftLeaf(b, d-1)
		b.undo(int(i))
	}
	return total
}

func TestPerftTwoPlyShortcut(t *testing.T) {
	for _, size := range []int{7, 9, 11} {
		b := mustBoard(t, size)
		for d := 2; d <= 3; d++ {
			if got, want := b.Perft(d), perftLeaf(b, d); got != want {
				t.Errorf("%dx%d perft(%d) = %d, last-ply-only count %d", size, size, d, got, want)
			}
		}
	}
}

func TestPerft9x9Depth2(t *testing.T) {
	// 81 first moves; each blocks itself and its 2, 3 or 4 neighbours:
	// 81*80 - (4*2 + 28*3 + 49*4) = 6192.
	if got := mustGame(t, Options{}).Perft(2); got[1] != 6192 {
		t.Fatalf("9x9 perft(2) = %d, want 6192", got[1])
	}
}

func TestPerft9x9Golden(t *testing.T) {
	got := mustGame(t, Options{}).Perft(4)
	var sb strings.Builder
	sb.WriteString("# hadron 9x9 perft from the empty board: depth count\n")
	for d, n := range got {
		fmt.Fprintf(&sb, "%d %d\n", d+1, n)
	}
	path := filepath.Join("testdata", "perft9.golden")
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if sb.String() != string(want) {
		t.Errorf("perft 1..4 on 9x9:\n%s\nwant (%s):\n%s", sb.String(), path, want)
	}
	// The golden counts must also agree with the last-ply-only walk, so
	// an -update cannot bless a broken shortcut.
	b := mustBoard(t, 9)
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n")[1:] {
		f := strings.Fields(line)
		d, _ := strconv.Atoi(f[0])
		n, _ := strconv.ParseUint(f[1], 10, 64)
		if perftLeaf(b, d) != n {
			t.Errorf("golden perft(%d) = %d, last-ply-only walk says %d", d, n, perftLeaf(b, d))
		}
	}
}

func TestPerftEdges(t *testing.T) {
	g := mustGame(t, Options{Size: 3})
	if got := g.Perft(0); len(got) != 0 {
		t.Errorf("Perft(0) = %v, want none", got)
	}
	// 3x3 games last at most 9 moves; longer sequences do not exist.
	if got := g.Perft(12); got[9] != 0 || got[10] != 0 || got[11] != 0 {
		t.Errorf("3x3 perft beyond 9 moves = %v, want zeros", got[9:])
	}
	b := mustBoard(t, 3)
	if b.Perft(0) != 1 {
		t.Errorf("Board.Perft(0) = %d, want 1", b.Perft(0))
	}
}

func mustGame(tb testing.TB, o Options) *Game {
	tb.Helper()
	g, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func mustBoard(tb testing.TB, size int) *Board {
	tb.Helper()
	b, err := NewBoard(size)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
