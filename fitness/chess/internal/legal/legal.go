// Package legal is the legal moves of a position as
// github.com/corentings/chess/v2 generates them, with the one flaw of
// its v2.3.2 generator mended: it tags the four promotions of a pawn to
// one square through one reused Move, clearing the tags before the
// queen's only, so an under-promotion carries the queen's Check tag
// (e7e8n "gives check" when e7e8q would). Position.Update trusts that
// tag to decide whether the side to move is in check, which then rules
// out castling and turns a stalemate into a checkmate. Moves re-derives
// the tags of every under-promotion.
//
// fitness/chess and fitness/chess/tiny take their moves from here,
// never from Position.ValidMoves.
package legal

import "github.com/corentings/chess/v2"

// Moves are pos's legal moves in the library's order, tagged rightly.
func Moves(pos *chess.Position) []chess.Move {
	moves := pos.ValidMoves()
	for i := range moves {
		m := &moves[i]
		if p := m.Promo(); p == chess.NoPieceType || p == chess.Queen {
			continue
		}
		// The library's UCI decoder tags a fresh Move from the position.
		fresh, err := chess.UCINotation{}.Decode(pos, chess.UCINotation{}.Encode(pos, m))
		if err != nil {
			panic("legal: the library cannot read its own move " + m.String() + ": " + err.Error())
		}
		*m = *fresh
	}
	return moves
}
