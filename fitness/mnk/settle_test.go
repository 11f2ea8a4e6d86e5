package mnk

import (
	"strings"
	"testing"

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
