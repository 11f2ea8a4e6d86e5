package mnk

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/search"
)

// TestSettleCountsPlies checks the decided scores Settle gives, which the
// search compares across plies: a win the side to move can play now ends
// the game one ply on, winScore - (ply+1); an opponent with two threats
// wins two plies on, -(winScore - (ply+2)).
func TestSettleCountsPlies(t *testing.T) {
	tests := []struct {
		name  string
		board []string
		ply   int
		want  float64
	}{
		{name: "win now at the root", board: []string{"XX.", "OO.", "..."}, ply: 0, want: winScore - 1},
		{name: "win now at ply 3", board: []string{"XX.", "OO.", "..."}, ply: 3, want: winScore - 4},
		{name: "two threats against at ply 0", board: []string{"OO.", "OXX", ".X."}, ply: 0, want: -(winScore - 2)},
		{name: "two threats against at ply 5", board: []string{"OO.", "OXX", ".X."}, ply: 5, want: -(winScore - 7)},
	}
	gm := mustGame(t, TicTacToe, Limits{})
	pl := gm.own(mustPlayer(t, gm, "classic"))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gm.start(pl, 1).(*searcher)
			defer s.release()
			p := parseBoard(t, gm.g, tc.board...)
			s.load(&p)
			v, _, n := s.Settle(4, tc.ply)
			if n != search.Settled || v != tc.want {
				t.Errorf("Settle = %v (node %v), want %v settled", v, n, tc.want)
			}
		})
	}
}

// TestEvalStaysBelowWins gives the classic player a run worth 10^24 (a
// run of 25 towards k = 40): its evaluation is clamped far below the score
// of a found win, so no heuristic passes for a proven result.
func TestEvalStaysBelowWins(t *testing.T) {
	gm := mustGame(t, Rules{M: 60, N: 2, K: 40}, Limits{})
	pl := gm.own(mustPlayer(t, gm, "classic"))
	s := gm.start(pl, 1).(*searcher)
	defer s.release()
	p := parseBoard(t, gm.g, strings.Repeat("X", 25)+strings.Repeat(".", 35), strings.Repeat("O.", 25)+strings.Repeat(".", 10))
	s.load(&p)
	if v := s.eval(); !(v > 0 && v < winScore-mateBand) {
		t.Errorf("eval %g, want positive and below a win's %g", v, winScore-mateBand)
	}
}

// TestIncrementalEvalMatchesLoad plays random games move by move through
// place and checks the incrementally kept line codes and sums against a
// fresh load of the same position, on boards where some directions hold
// no line (rows or diagonals shorter than k). Sums may differ by rounding:
// the order of additions differs.
func TestIncrementalEvalMatchesLoad(t *testing.T) {
	for _, r := range []Rules{{M: 3, N: 5, K: 4}, {M: 5, N: 3, K: 4}, ConnectFour} {
		t.Run(r.String(), func(t *testing.T) {
			gm := mustGame(t, r, Limits{})
			pl := gm.own(mustPlayer(t, gm, "tuned"))
			s, fresh := gm.start(pl, 1).(*searcher), gm.start(pl, 2).(*searcher)
			defer s.release()
			defer fresh.release()
			rng := fitness.NewRand(11)
			for game := range 20 {
				var p position
				s.load(&p)
				for {
					legal := gm.g.moves(&s.pos)
					if legal.Empty() || !gm.g.wins(s.pos.marks[s.pos.toMove()], legal).Empty() {
						break
					}
					s.place(legal.Nth(rng.IntN(legal.Count())))
					q := s.pos
					fresh.load(&q)
					if !slices.Equal(s.code, fresh.code) || math.Abs(s.sum[X]-fresh.sum[X]) > 1e-9 || math.Abs(s.sum[O]-fresh.sum[O]) > 1e-9 {
						t.Fatalf("game %d ply %d: incremental codes %v sums %v, a fresh load gives %v %v",
							game, q.ply, s.code, s.sum, fresh.code, fresh.sum)
					}
				}
			}
		})
	}
}
