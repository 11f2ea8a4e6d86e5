// Package tiny is a small chess search: alpha-beta to a fixed depth with
// a captures-only quiescence search, on the move generator of
// github.com/corentings/chess/v2, over material (the piece values are
// tunable) and a few fixed positional bonuses (pawns that advance,
// knights and bishops near the centre, rooks on the seventh rank), small
// next to a pawn, so that games move on instead of shuffling pieces. It is the brain of evotune's built-in chess player "tiny" and
// of the fixture UCI engine examples/tinyuci, so both play the same moves.
//
// Search is deterministic: the same position, values, depth and node cap
// give the same move, score and node count, whatever the machine or the
// clock. Among moves of equal score it keeps the first in its order
// (captures by most valuable victim, then least valuable attacker, then
// the library's generation order), and it never reads the time.
//
// Search is safe for concurrent use on distinct positions. The library's
// Position caches its legal moves inside itself on first use, so two
// goroutines must not search the same *chess.Position at once.
package tiny

import (
	"fmt"
	"slices"

	"github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness/chess/internal/legal"
)

// Params are the piece values in centipawns. The king has none: it is
// never captured.
type Params struct {
	Pawn, Knight, Bishop, Rook, Queen int
}

// Defaults are the classic values: 100, 320, 330, 500, 900.
func Defaults() Params {
	return Params{Pawn: 100, Knight: 320, Bishop: 330, Rook: 500, Queen: 900}
}

// MaxValue bounds a piece value, so that no material sum comes near
// MateScore.
const MaxValue = 10000

// Validate reports a value outside [0, MaxValue].
func (p Params) Validate() error {
	for _, v := range []struct {
		name  string
		value int
	}{{"pawn", p.Pawn}, {"knight", p.Knight}, {"bishop", p.Bishop}, {"rook", p.Rook}, {"queen", p.Queen}} {
		if v.value < 0 || v.value > MaxValue {
			return fmt.Errorf("tiny: %s value %d is outside [0, %d]", v.name, v.value, MaxValue)
		}
	}
	return nil
}

// value is the value of a piece type.
func (p Params) value(t chess.PieceType) int {
	switch t {
	case chess.Pawn:
		return p.Pawn
	case chess.Knight:
		return p.Knight
	case chess.Bishop:
		return p.Bishop
	case chess.Rook:
		return p.Rook
	case chess.Queen:
		return p.Queen
	}
	return 0
}

// MateScore is the score of mating at once; a mate n plies away scores
// MateScore - n, and being mated the negative. Any score whose absolute
// value is above MateScore - MaxPly is a mate score.
const MateScore = 1_000_000

// MaxPly bounds the plies a mate score can count.
const MaxPly = 1000

// MaxDepth is the deepest Search goes; deeper depths are cut to it.
const MaxDepth = 6

// Result is what a search found.
type Result struct {
	Move chess.Move // the move to play; the zero Move when there is none
	// Score is the move's value for the side to move, in centipawns (as
	// Evaluate scores), or a mate score (see MateScore and Mate).
	Score int
	Nodes int64 // positions visited, the root included
}

// Mate is the number of moves to mate that Score says, positive when the
// side to move mates, negative when it is mated, 0 when Score is not a
// mate score: the form of UCI's `score mate N`.
func (r Result) Mate() int {
	switch {
	case r.Score > MateScore-MaxPly:
		return (MateScore - r.Score + 1) / 2
	case r.Score < -(MateScore - MaxPly):
		return -(MateScore + r.Score) / 2
	}
	return 0
}

// Search looks depth plies ahead of pos (1 to MaxDepth; below 1 counts as
// 1), then through captures until the position is quiet, and returns the
// best move for the side to move. nodeCap bounds the work: once the
// search has visited nodeCap positions (the root counts; it is always
// expanded), every position left is scored by Evaluate alone, unvisited,
// so Nodes is at most max(nodeCap, 1); 0 means no cap. ok is false when
// the side to move has no legal move (checkmate or stalemate); Result's
// Score then says which (-MateScore or 0).
//
// pos is read, never changed, except for the legal moves the library
// caches inside it.
func Search(pos *chess.Position, p Params, depth int, nodeCap int64) (r Result, ok bool) {
	depth = max(1, min(depth, MaxDepth))
	s := searcher{p: p, cap: nodeCap}
	s.nodes = 1
	moves := s.ordered(pos, false)
	if len(moves) == 0 {
		return Result{Score: s.noMoves(pos, 0), Nodes: s.nodes}, false
	}
	alpha, beta := -MateScore-1, MateScore+1
	best := moves[0]
	for _, m := range moves {
		score := -s.search(pos.Update(&m), depth-1, 1, -beta, -alpha)
		if score > alpha {
			alpha, best = score, m
		}
	}
	return Result{Move: best, Score: alpha, Nodes: s.nodes}, true
}

// Evaluate is the static score of pos for the side to move: its material
// at values p and its positional bonuses, less the opponent's.
func Evaluate(pos *chess.Position, p Params) int {
	s := searcher{p: p}
	return s.evaluate(pos)
}

type searcher struct {
	p     Params
	cap   int64
	nodes int64
}

// capped reports whether the node budget is spent.
func (s *searcher) capped() bool { return s.cap > 0 && s.nodes >= s.cap }

// search is negamax with alpha-beta.
func (s *searcher) search(pos *chess.Position, depth, ply, alpha, beta int) int {
	if s.capped() {
		return s.evaluate(pos)
	}
	if depth <= 0 {
		return s.quiesce(pos, ply, alpha, beta)
	}
	s.nodes++
	moves := s.ordered(pos, false)
	if len(moves) == 0 {
		return s.noMoves(pos, ply)
	}
	for _, m := range moves {
		score := -s.search(pos.Update(&m), depth-1, ply+1, -beta, -alpha)
		if score >= beta {
			return score
		}
		alpha = max(alpha, score)
	}
	return alpha
}

// quiesce searches captures only, standing pat on the static score.
func (s *searcher) quiesce(pos *chess.Position, ply, alpha, beta int) int {
	if s.capped() {
		return s.evaluate(pos)
	}
	s.nodes++
	moves := legal.Moves(pos)
	if len(moves) == 0 {
		return s.noMoves(pos, ply)
	}
	stand := s.evaluate(pos)
	if stand >= beta || ply >= MaxPly {
		return stand
	}
	alpha = max(alpha, stand)
	for _, m := range s.order(pos, moves, true) {
		score := -s.quiesce(pos.Update(&m), ply+1, -beta, -alpha)
		if score >= beta {
			return score
		}
		alpha = max(alpha, score)
	}
	return alpha
}

// noMoves scores a position without a legal move, ply plies from the
// root: mated, or stalemate.
func (s *searcher) noMoves(pos *chess.Position, ply int) int {
	if pos.Status() == chess.Checkmate {
		return -(MateScore - ply)
	}
	return 0
}

// ordered is pos's legal moves in search order; captures only when
// captures is set.
func (s *searcher) ordered(pos *chess.Position, captures bool) []chess.Move {
	return s.order(pos, legal.Moves(pos), captures)
}

// order sorts moves (pos's, a fresh slice) captures first, most valuable
// victim first, then least valuable attacker; the rest keep the library's
// order. With captures set, the quiet moves are dropped.
func (s *searcher) order(pos *chess.Position, moves []chess.Move, captures bool) []chess.Move {
	if captures {
		moves = slices.DeleteFunc(moves, func(m chess.Move) bool { return !isCapture(&m) })
	}
	b := pos.Board()
	key := func(m *chess.Move) int {
		if !isCapture(m) {
			return 0
		}
		victim := chess.Pawn // en passant
		if !m.HasTag(chess.EnPassant) {
			victim = b.Piece(m.S2()).Type()
		}
		// victims by value rank, then the cheaper attacker first
		return 16*rank(victim) + 8 - rank(b.Piece(m.S1()).Type())
	}
	slices.SortStableFunc(moves, func(x, y chess.Move) int { return key(&y) - key(&x) })
	return moves
}

// rank orders piece types by their usual worth, pawn lowest, king highest
// (as an attacker it is tried last).
func rank(t chess.PieceType) int {
	switch t {
	case chess.Pawn:
		return 1
	case chess.Knight:
		return 2
	case chess.Bishop:
		return 3
	case chess.Rook:
		return 4
	case chess.Queen:
		return 5
	case chess.King:
		return 6
	}
	return 0
}

func isCapture(m *chess.Move) bool { return m.HasTag(chess.Capture) || m.HasTag(chess.EnPassant) }

// evaluate is the side to move's material and bonuses less the
// opponent's.
func (s *searcher) evaluate(pos *chess.Position) int {
	b := pos.Board()
	sum := 0
	for sq := chess.A1; sq <= chess.H8; sq++ {
		pc := b.Piece(sq)
		if pc == chess.NoPiece {
			continue
		}
		v := s.p.value(pc.Type()) + bonus(pc, sq)
		if pc.Color() != pos.Turn() {
			v = -v
		}
		sum += v
	}
	return sum
}

// MaxBonus bounds a piece's positional bonus, in centipawns.
const MaxBonus = 60

// bonus is a piece's fixed positional bonus on sq, from its own side:
// pawns by how far they have come (and centre pawns a little more),
// knights and bishops by how near the centre they stand, rooks on the
// seventh rank. Kings and queens have none.
func bonus(pc chess.Piece, sq chess.Square) int {
	f, r := int(sq.File()), int(sq.Rank())
	if pc.Color() == chess.Black {
		r = 7 - r
	}
	// centre is 3 on the four centre squares, 0 on the rim.
	centre := 3 - max(abs(2*f-7), abs(2*r-7))/2
	switch pc.Type() {
	case chess.Pawn:
		b := [8]int{0, 0, 5, 10, 20, 30, MaxBonus, 0}[r]
		if (f == 3 || f == 4) && r >= 2 && r <= 4 {
			b += 10
		}
		return b
	case chess.Knight:
		return 10*centre - 15
	case chess.Bishop:
		return 5 * centre
	case chess.Rook:
		if r == 6 {
			return 10
		}
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
