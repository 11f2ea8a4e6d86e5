package mnk

import (
	"math/rand/v2"
	"testing"

	"github.com/evotune/evotune/internal/bits128"
)

// naive is the tests' independent model of the rules: a plain row-major
// array scanned cell by cell, sharing no code with the bitboards.
type naive struct {
	m, n, k int
	gravity bool
	cells   []int8 // 0 empty, 1 X, 2 O; cell (row, col) at row*m+col, row 0 on top
	ply     int
}

func newNaive(r Rules) *naive {
	return &naive{m: r.M, n: r.N, k: r.K, gravity: r.Gravity, cells: make([]int8, r.M*r.N)}
}

// moves lists the cells the mover may mark: every empty cell in reading
// order, or under gravity, column by column from the left, the lowest
// empty cell of each column that is not full.
func (b *naive) moves() []int {
	var out []int
	if !b.gravity {
		for i, v := range b.cells {
			if v == 0 {
				out = append(out, i)
			}
		}
		return out
	}
	for col := range b.m {
		for row := b.n - 1; row >= 0; row-- {
			if i := row*b.m + col; b.cells[i] == 0 {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// mover is 1 for X, 2 for O.
func (b *naive) mover() int8 { return int8(b.ply%2) + 1 }

// hasLine reports whether who has k in a row anywhere.
func (b *naive) hasLine(who int8) bool {
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for row := range b.n {
		for col := range b.m {
			for _, d := range dirs {
				run := 0
				for r, c := row, col; r >= 0 && r < b.n && c >= 0 && c < b.m && b.cells[r*b.m+c] == who; r, c = r+d[0], c+d[1] {
					run++
				}
				if run >= b.k {
					return true
				}
			}
		}
	}
	return false
}

// runThrough is the longest line of who's marks that a mark of who on
// cell i would be part of.
func (b *naive) runThrough(i int, who int8) int {
	best := 0
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		run := 1
		for _, sign := range []int{1, -1} {
			r, c := i/b.m+sign*d[0], i%b.m+sign*d[1]
			for r >= 0 && r < b.n && c >= 0 && c < b.m && b.cells[r*b.m+c] == who {
				run++
				r, c = r+sign*d[0], c+sign*d[1]
			}
		}
		best = max(best, run)
	}
	return best
}

// set marks cell i for the mover and reports whether the game is over,
// and whether by a line. Games stop at the first line, so only lines
// through i can be new.
func (b *naive) set(i int) (over, won bool) {
	who := b.mover()
	b.cells[i] = who
	b.ply++
	won = b.runThrough(i, who) >= b.k
	return won || b.ply == len(b.cells), won
}

func (b *naive) unset(i int) {
	b.cells[i] = 0
	b.ply--
}

// playRandom plays uniformly random legal moves until plies marks are down,
// stopping short of a move that would end the game.
func (b *naive) playRandom(rng *rand.Rand, plies int) {
	for b.ply < plies {
		moves := b.moves()
		i := moves[rng.IntN(len(moves))]
		if over, _ := b.set(i); over {
			b.unset(i)
			return
		}
	}
}

// perft counts move sequences of 1..depth moves by plain recursion.
func (b *naive) perft(depth int) []uint64 {
	counts := make([]uint64, depth)
	var walk func(d int)
	walk = func(d int) {
		for _, i := range b.moves() {
			counts[d]++
			if over, _ := b.set(i); !over && d+1 < depth {
				walk(d + 1)
			}
			b.unset(i)
		}
	}
	walk(0)
	return counts
}

// tree plays out every game, counting results and the distinct positions
// met (as strings of the cells).
func (b *naive) tree() Tree {
	var t Tree
	seen := map[string]bool{string(cellBytes(b.cells)): true}
	var walk func()
	walk = func() {
		for _, i := range b.moves() {
			who := b.mover()
			over, won := b.set(i)
			seen[string(cellBytes(b.cells))] = true
			switch {
			case won && who == 1:
				t.XWins++
			case won:
				t.OWins++
			case over:
				t.Draws++
			default:
				walk()
			}
			b.unset(i)
		}
	}
	walk()
	t.Positions = uint64(len(seen))
	return t
}

func cellBytes(cells []int8) []byte {
	out := make([]byte, len(cells))
	for i, v := range cells {
		out[i] = byte('0' + v)
	}
	return out
}

// value is plain minimax without pruning: 1 if the mover wins with best
// play, 0 for a draw, -1 for a loss.
func (b *naive) value() int {
	best := -2
	for _, i := range b.moves() {
		over, won := b.set(i)
		var val int
		switch {
		case won:
			val = 1
		case over:
			val = 0
		default:
			val = -b.value()
		}
		b.unset(i)
		best = max(best, val)
	}
	return best
}

// position converts the naive board to the package's bitboards.
func (b *naive) position(g *geom) position {
	var p position
	for i, v := range b.cells {
		if v != 0 {
			p.marks[v-1] = p.marks[v-1].Or(bits128.Cell(g.bit(i/b.m, i%b.m)))
		}
	}
	p.ply = b.ply
	return p
}

// mustGame builds a game or stops the test.
func mustGame(tb testing.TB, r Rules, l Limits) *Game {
	tb.Helper()
	gm, err := NewGame(r, l)
	if err != nil {
		tb.Fatal(err)
	}
	return gm
}
