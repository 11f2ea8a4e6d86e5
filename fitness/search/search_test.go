package search_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness/search"
)

// counters is a game with transpositions: a move adds one to one of the
// counters; whoever brings a counter to limit wins. A position is its
// counts, so orders of the same moves meet again, always at the same ply.
// The static value is a fixed random function of the counts.
//
// With doubles, a move may also add two to a counter, so a position is met
// at different plies and at different depths: what the table must get right
// for decided scores (Options.MateDistance).
type counters struct {
	counts  []int
	limit   int
	doubles bool
	played  int        // moves played: the side to move is its parity
	zob     [][]uint64 // by counter, by count
	salt    uint64
}

const counterWin = 1e6

func newCounters(rng *rand.Rand, n, limit int) *counters {
	c := &counters{counts: make([]int, n), limit: limit, salt: rng.Uint64()}
	for range n {
		row := make([]uint64, limit+1)
		for j := range row {
			row[j] = rng.Uint64()
		}
		c.zob = append(c.zob, row)
	}
	return c
}

func (c *counters) Hash() uint64 {
	h := uint64(c.played%2) * 0x5bd1e995
	for i, k := range c.counts {
		h ^= c.zob[i][k]
	}
	return h
}

func (c *counters) over() bool {
	for _, k := range c.counts {
		if k >= c.limit {
			return true
		}
	}
	return false
}

func (c *counters) eval() float64 {
	h := c.Hash() ^ c.salt
	h ^= h >> 31
	h *= 0x9e3779b97f4a7c15
	h ^= h >> 29
	return float64(h>>11)/(1<<53)*2 - 1
}

func (c *counters) Settle(depth, ply int) (float64, search.Move, search.Node) {
	if c.over() {
		return -(counterWin - float64(ply)), search.NoMove, search.Settled
	}
	if depth == 0 {
		return c.eval(), search.NoMove, search.Settled
	}
	return 0, search.NoMove, search.Open
}

func (c *counters) Moves(dst []search.Move, _, _ int) []search.Move {
	for i := range c.counts {
		dst = append(dst, search.Move(i))
	}
	if c.doubles {
		for i, k := range c.counts {
			if k+2 <= c.limit {
				dst = append(dst, search.Move(len(c.counts)+i))
			}
		}
	}
	return dst
}

// step is the counter move m adds to and by how much.
func (c *counters) step(m search.Move) (int, int) {
	if int(m) >= len(c.counts) {
		return int(m) - len(c.counts), 2
	}
	return int(m), 1
}

func (c *counters) Leaf(m search.Move, ply int) float64 {
	c.Play(m)
	v, _, _ := c.Settle(0, ply)
	c.Undo(m)
	return v
}

func (c *counters) Play(m search.Move) {
	i, d := c.step(m)
	c.counts[i] += d
	c.played++
}

func (c *counters) Undo(m search.Move) {
	i, d := c.step(m)
	c.counts[i] -= d
	c.played--
}

func (*counters) Cutoff(search.Move, int) {}

// minimax is the plain negamax value, without pruning or table.
func minimax(c *counters, depth, ply int) float64 {
	if v, _, n := c.Settle(depth, ply); n == search.Settled {
		return v
	}
	best := math.Inf(-1)
	for _, m := range c.Moves(nil, depth, ply) {
		c.Play(m)
		best = max(best, -minimax(c, depth-1, ply+1))
		c.Undo(m)
	}
	return best
}

// bestAt returns the first of the root moves, in order, of best plain
// negamax value at depth.
func bestAt(c *counters, root []search.Move, depth int) (search.Move, float64) {
	best, bv := search.NoMove, math.Inf(-1)
	for _, m := range root {
		c.Play(m)
		if v := -minimax(c, depth-1, 1); v > bv {
			best, bv = m, v
		}
		c.Undo(m)
	}
	return best, bv
}

// deepen is iterative deepening by plain negamax: it returns the best
// move, ties going to the earlier move in an order that puts each
// iteration's best first, of every iteration up to depth or the first
// proven one.
func deepen(c *counters, depth int) []search.Move {
	root := rootMoves(c)
	var bests []search.Move
	for d := 1; d <= depth; d++ {
		best, v := bestAt(c, root, d)
		bests = append(bests, best)
		for i, m := range root {
			if m == best {
				copy(root[1:i+1], root[:i])
				root[0] = best
			}
		}
		if math.Abs(v) >= counterWin/2 {
			break
		}
	}
	return bests
}

func rootMoves(c *counters) []search.Move { return c.Moves(nil, 1, 0) }

// TestChooseMatchesMinimax checks the search against plain negamax: under
// every table rule, with decided results and transpositions, it picks the
// best move of the deepest iteration it runs, stopping early only on a
// proven result. A wrong bound, cutoff, mate-distance conversion or
// reordering shows up as another move.
func TestChooseMatchesMinimax(t *testing.T) {
	for _, tc := range []struct {
		name         string
		narrow, mate bool
	}{
		{"plain", false, false},
		{"narrow", true, false},
		{"mate distance", false, true},
		{"narrow and mate distance", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(40) {
				rng := rand.New(rand.NewPCG(seed, 1))
				c := newCounters(rng, 3+int(seed%3), 3+int(seed%2))
				// Play a few random moves so some searches see a decided end.
				for range rng.IntN(5) {
					if m := rng.IntN(len(c.counts)); c.counts[m]+1 < c.limit {
						c.counts[m]++
					}
				}
				depth := 1 + int(seed%6)
				bests := deepen(c, depth)
				want := bests[len(bests)-1]
				s := search.Searcher[*counters]{
					Pos:     c,
					Options: search.Options{Depth: depth, Decided: counterWin / 2, Narrow: tc.narrow, MateDistance: tc.mate},
					Table:   search.NewTable(10),
				}
				if got := s.Choose(rootMoves(c)); got != want {
					t.Errorf("seed %d depth %d: chose %d, negamax's best is %d", seed, depth, got, want)
				}
			}
		})
	}
}

// TestSolvedGamesPlayPerfectly searches games with doubles deep enough to
// see every end, so each score is exact and a position recurs at other
// plies and depths within a search and from one move's search to the
// next. Each move chosen must be worth the best exact value: a quickest
// win or a slowest loss. A wrong bound, a decided score carried to another
// ply without conversion, or a table cutoff at the wrong depth picks a
// slower win or a quicker loss.
func TestSolvedGamesPlayPerfectly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		narrow bool
	}{
		{"plain", false},
		{"narrow", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(20) {
				rng := rand.New(rand.NewPCG(seed, 2))
				c := newCounters(rng, 3, 3+int(seed%2))
				c.doubles = true
				const depth = 12
				s := search.Searcher[*counters]{
					Pos:     c,
					Options: search.Options{Depth: depth, Decided: counterWin / 2, Narrow: tc.narrow, MateDistance: true},
					Table:   search.NewTable(8),
				}
				for ply := 0; !c.over(); ply++ {
					root := rootMoves(c)
					_, want := bestAt(c, root, depth)
					got := s.Choose(root)
					c.Play(got)
					if v := -minimax(c, depth-1, 1); v != want {
						t.Fatalf("seed %d ply %d: chose %d worth %v, the best is worth %v", seed, ply, got, v, want)
					}
				}
			}
		})
	}
}

// TestNodeBudget checks that a budget stops the search within one node of
// it once the first iteration is done, and that the move is then the best
// of some finished iteration.
func TestNodeBudget(t *testing.T) {
	for _, budget := range []int64{20, 100, 500, 2000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			c := newCounters(rng, 5, 6)
			const depth = 7
			s := search.Searcher[*counters]{
				Pos:     c,
				Options: search.Options{Depth: depth, Nodes: budget, Decided: counterWin / 2},
				Table:   search.NewTable(12),
			}
			got := s.Choose(rootMoves(c))
			if s.Nodes > budget+1 {
				t.Errorf("searched %d nodes on a budget of %d", s.Nodes, budget)
			}
			if bests := deepen(c, depth); !slices.Contains(bests, got) {
				t.Errorf("move %d is the best of no iteration (%v)", got, bests)
			}
		})
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct{ name, got, want string }{
		{"open", search.Open.String(), "open"},
		{"settled", search.Settled.String(), "settled"},
		{"forced", search.Forced.String(), "forced"},
		{"bad node", search.Node(9).String(), "node(9)"},
		{"exact", search.Exact.String(), "exact"},
		{"lower", search.Lower.String(), "lower"},
		{"upper", search.Upper.String(), "upper"},
		{"bad bound", search.Bound(0).String(), "bound(0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}
