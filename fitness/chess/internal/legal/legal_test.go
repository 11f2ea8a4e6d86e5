package legal

import (
	"testing"

	"github.com/corentings/chess/v2"
)

func position(tb testing.TB, fen string) *chess.Position {
	tb.Helper()
	var pos chess.Position
	if err := pos.UnmarshalText([]byte(fen)); err != nil {
		tb.Fatal(err)
	}
	return &pos
}

// TestUnderPromotionCheck: of the four promotions on g1 next to the king
// on e1, only the queen's and the rook's give check. The library's own
// list says all four do.
func TestUnderPromotionCheck(t *testing.T) {
	fen := "4k3/8/8/8/8/8/6p1/4K3 b - - 0 1"
	want := map[string]bool{"g2g1q": true, "g2g1r": true, "g2g1b": false, "g2g1n": false}
	for _, moves := range []struct {
		name  string
		moves []chess.Move
		fixed bool
	}{{"library", position(t, fen).ValidMoves(), false}, {"legal.Moves", Moves(position(t, fen)), true}} {
		wrong := 0
		for _, m := range moves.moves {
			s := chess.UCINotation{}.Encode(nil, &m)
			if check, ok := want[s]; ok && m.HasTag(chess.Check) != check {
				wrong++
				if moves.fixed {
					t.Errorf("%s: %s check tag %v, want %v", moves.name, s, m.HasTag(chess.Check), check)
				}
			}
		}
		if !moves.fixed && wrong == 0 {
			t.Log("the library's generator tags under-promotions rightly now: legal.Moves may go")
		}
	}
}

// TestCastlingAfterUnderPromotion: after ...b1=N (a queen there would
// check along the first rank) white may castle; Update fed the library's
// own move believes white is in check and rules castling out.
func TestCastlingAfterUnderPromotion(t *testing.T) {
	pos := position(t, "4k3/8/8/8/8/8/1p6/4K2R b K - 0 1")
	castles := func(moves []chess.Move) bool {
		for _, m := range moves {
			if (chess.UCINotation{}).Encode(nil, &m) == "b2b1n" {
				next := pos.Update(&m)
				for _, r := range Moves(next) {
					if r.HasTag(chess.KingSideCastle) {
						return true
					}
				}
			}
		}
		return false
	}
	if !castles(Moves(pos)) {
		t.Error("after b1=N from legal.Moves, white cannot castle")
	}
	if castles(pos.ValidMoves()) {
		t.Log("the library's own b1=N lets white castle now: legal.Moves may go")
	}
}
