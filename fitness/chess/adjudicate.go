package chess

// Adjudication ends games the players would drag on, as cutechess-cli and
// fastchess do (and fishtest through them), from the scores the players
// report with their moves (Reply). A zero field turns its rule off.
//
// Resign: a side whose own score is at most -ResignScore centipawns (or
// a mate against it) on ResignMoves of its moves in a row loses. With
// ResignTwoSided its opponent must also have scored at least
// +ResignScore (or a mate for it) on its last ResignMoves moves: both
// engines agree, as cutechess-cli's twosided=true reads it.
//
// Draw: once DrawFrom full moves have been played (the position's
// full-move number, a FEN's or EPD's own counter included, less one, as
// fastchess counts it) and the last DrawMoves moves of each side (2 x
// DrawMoves plies in a row since the last capture or pawn move) were all
// scored within DrawScore centipawns of zero, the game is drawn. A mate
// score breaks the run.
//
// Max moves: the game is drawn once the players have made MaxMoves moves
// each (the opening's moves do not count), as fastchess counts it.
//
// A move reported without a score (Reply.HasScore false) breaks the
// mover's resign runs and the draw run. Moves of the opening count in
// none of them. The rules of chess come first: a move that mates, or
// ends the game by stalemate, insufficient material, threefold
// repetition or the fifty-move rule, is never adjudicated; then resign,
// then draw, then max moves, in fastchess's order.
type Adjudication struct {
	ResignMoves    int
	ResignScore    int // centipawns, at least 0
	ResignTwoSided bool
	DrawFrom       int // full moves
	DrawMoves      int
	DrawScore      int // centipawns, at least 0
	MaxMoves       int
}

// adjudicator follows one game's scores.
type adjudicator struct {
	Adjudication
	losing, winning [2]int // moves in a row at or past the resign score, by side
	quiet           int    // plies in a row within the draw score
	plies           int    // moves the players made
}

// after is the adjudication, if any, after mover made a move with reply
// r, which left the half-move clock at halfmove and the position's
// full-move number at fullmove. loser is the side that resigns, for
// AdjudicatedResign.
func (a *adjudicator) after(mover Color, r Reply, halfmove, fullmove int) (t Termination, loser Color) {
	a.plies++
	mate, cp := r.HasScore && r.Mate != 0, r.HasScore && r.Mate == 0
	if a.ResignMoves > 0 {
		lose := mate && r.Mate < 0 || cp && r.Score <= -a.ResignScore
		win := mate && r.Mate > 0 || cp && r.Score >= a.ResignScore
		a.losing[mover] = count(a.losing[mover], lose)
		a.winning[mover] = count(a.winning[mover], win)
		if a.losing[mover] >= a.ResignMoves && (!a.ResignTwoSided || a.winning[mover.Other()] >= a.ResignMoves) {
			return AdjudicatedResign, mover
		}
	}
	if a.DrawMoves > 0 {
		if halfmove == 0 {
			a.quiet = 0
		}
		a.quiet = count(a.quiet, cp && abs(r.Score) <= a.DrawScore)
		if fullmove-1 >= a.DrawFrom && a.quiet >= 2*a.DrawMoves {
			return AdjudicatedDraw, 0
		}
	}
	if a.MaxMoves > 0 && a.plies >= 2*a.MaxMoves {
		return MaxMoves, 0
	}
	return 0, 0
}

// count extends a run by one, or ends it.
func count(run int, on bool) int {
	if on {
		return run + 1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
