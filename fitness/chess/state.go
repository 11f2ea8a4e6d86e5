package chess

import (
	"slices"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness/chess/internal/legal"
)

// game is a game in progress as the rules see it: the position, its
// legal moves, and the positions since the last capture or pawn move,
// which are all that can repeat. The library ends a game by itself only
// at fivefold repetition and the 75-move rule, leaving threefold
// repetition and the fifty-move rule for a player to claim; a referee
// applies them at once, as match runners do, and so does game.
type game struct {
	pos   *lib.Position
	legal []lib.Move // pos's legal moves, in the library's order
	keys  []string   // repetition keys since the last irreversible move, pos's last
}

func newGame(pos *lib.Position) *game {
	g := &game{pos: pos, legal: legal.Moves(pos)}
	g.keys = append(g.keys, g.key())
	return g
}

// play makes m, one of g.legal.
func (g *game) play(m *lib.Move) {
	g.pos = g.pos.Update(m)
	g.legal = legal.Moves(g.pos)
	if g.pos.HalfMoveClock() == 0 {
		g.keys = g.keys[:0]
	}
	g.keys = append(g.keys, g.key())
}

// key names the position for the repetition rule: two positions are the
// same when the same side is to move with the same pieces on the same
// squares and the same moves possible (FIDE 9.2.3), so the castling
// rights count, and the en-passant square only when an en-passant
// capture is legal.
func (g *game) key() string {
	pos := g.pos
	ep := "-"
	if sq := pos.EnPassantSquare(); sq != lib.NoSquare && slices.ContainsFunc(g.legal, func(m lib.Move) bool { return m.HasTag(lib.EnPassant) }) {
		ep = sq.String()
	}
	return pos.Board().String() + " " + pos.Turn().String() + " " + pos.CastleRights().String() + " " + ep
}

// ended is how the rules end the game in the position reached, or 0
// when they do not: checkmate, stalemate, insufficient material,
// threefold repetition, the fifty-move rule, in that order (a mate on
// the hundredth half-move is a mate).
func (g *game) ended() Termination {
	switch {
	case len(g.legal) == 0 && g.pos.Status() == lib.Checkmate:
		return Checkmate
	case len(g.legal) == 0:
		return Stalemate
	case insufficient(g.pos.Board().String()):
		return InsufficientMaterial
	case g.repetitions() >= 3:
		return Threefold
	case g.pos.HalfMoveClock() >= 100:
		return FiftyMoves
	}
	return 0
}

// repetitions counts the occurrences of the current position.
func (g *game) repetitions() int {
	last := g.keys[len(g.keys)-1]
	n := 0
	for _, k := range g.keys {
		if k == last {
			n++
		}
	}
	return n
}

// insufficient reports whether neither side can mate on board (the
// board field of a FEN), as the library rules it: kings alone, a king
// and one minor piece against a king, or bishops (any number, both
// sides') all on squares of one colour and nothing else.
func insufficient(board string) bool {
	knights, bishops := 0, 0
	var onColour [2]int
	file, rank := 0, 7
	for i := 0; i < len(board); i++ {
		c := board[i]
		switch {
		case c == '/':
			file, rank = 0, rank-1
			continue
		case c >= '1' && c <= '8':
			file += int(c - '0')
			continue
		}
		switch c {
		case 'P', 'p', 'R', 'r', 'Q', 'q':
			return false
		case 'N', 'n':
			knights++
		case 'B', 'b':
			bishops++
			onColour[(file+rank)&1]++
		}
		file++
	}
	switch {
	case knights+bishops <= 1:
		return true
	case knights == 0:
		return onColour[0] == 0 || onColour[1] == 0
	}
	return false
}
