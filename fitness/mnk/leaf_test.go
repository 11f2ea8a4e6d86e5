package mnk

import (
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/search"
)

// TestLeafIsPlaySettleUndo checks the searcher's one-call horizon child
// against the three calls it stands for, on every move of the open nodes
// of random games: the same value, and the position and key given back.
// Each side starts from a fresh load: the centrality sums are added and
// taken back in floating point, so a second evaluation after a first
// differs in the last bits, as it always has in the search.
func TestLeafIsPlaySettleUndo(t *testing.T) {
	for _, tc := range []struct {
		rules Rules
		games int // enough to reach full boards on the small ones
	}{{TicTacToe, 200}, {Rules{M: 9, N: 9, K: 5}, 20}, {ConnectFour, 200}} {
		r := tc.rules
		t.Run(r.String(), func(t *testing.T) {
			gm := mustGame(t, r, Limits{})
			s := gm.newSearcher(gm.own(mustPlayer(t, gm, "tuned")).w, 3, fitness.NewRand(3))
			defer s.release()
			rng := fitness.NewRand(uint64(r.Cells()))
			checked := 0
			for game := range tc.games {
				var p position
				for {
					s.load(&p)
					if _, _, n := s.Settle(1, 0); n != search.Open {
						break
					}
					pos, key := s.pos, s.key
					for _, m := range s.Moves(nil, 1, 0) {
						s.load(&p)
						got := s.Leaf(m, 1)
						if s.pos != pos || s.key != key {
							t.Fatalf("game %d: Leaf(%d) changed the position", game, m)
						}
						s.load(&p)
						s.Play(m)
						want, _, n := s.Settle(0, 1)
						s.Undo(m)
						if n != search.Settled || got != want {
							t.Errorf("game %d ply %d move %d: Leaf = %v, Play+Settle+Undo = %v (%v)", game, p.ply, m, got, want, n)
						}
						checked++
					}
					legal := gm.g.moves(&p)
					quiet := legal.AndNot(gm.g.wins(p.marks[p.toMove()], legal))
					if quiet.Empty() {
						break
					}
					gm.g.play(&p, quiet.Nth(rng.IntN(quiet.Count())))
				}
			}
			if checked == 0 {
				t.Fatal("no open node met")
			}
		})
	}
}
