// Package tiny is a small chess search: alpha-beta to a fixed depth with
// a captures-only quiescence search, over material alone, on the move
// generator of github.com/corentings/chess/v2. Its piece values are
// tunable. It is the brain of evotune's built-in chess player "tiny" and
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
	// Score is the move's value for the side to move, in centipawns of
	// material, or a mate score (see MateScore and Mate).
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
// search has visited nodeCap positions every position left is scored by
// its material alone, so Nodes ends near nodeCap (above it by at most the
// moves of the positions still open); 0 means no cap. ok is false when
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
	mat := s.material(pos)
	alpha, beta := -MateScore-1, MateScore+1
	best := moves[0]
	for _, m := range moves {
		score := -s.search(pos.Update(&m), depth-1, 1, -beta, -alpha, -(mat + s.gain(pos, &m)))
		if score > alpha {
			alpha, best = score, m
		}
	}
	return Result{Move: best, Score: alpha, Nodes: s.nodes}, true
}

// Evaluate is the static score of pos for the side to move: its material
// less the opponent's, at values p.
func Evaluate(pos *chess.Position, p Params) int {
	s := searcher{p: p}
	return s.material(pos)
}

type searcher struct {
	p     Params
	cap   int64
	nodes int64
}

// capped reports whether the node budget is spent.
func (s *searcher) capped() bool { return s.cap > 0 && s.nodes >= s.cap }

// search is negamax with alpha-beta; mat is the material of the side to
// move in pos less the opponent's.
func (s *searcher) search(pos *chess.Position, depth, ply, alpha, beta, mat int) int {
	if depth <= 0 || s.capped() {
		return s.quiesce(pos, ply, alpha, beta, mat)
	}
	s.nodes++
	moves := s.ordered(pos, false)
	if len(moves) == 0 {
		return s.noMoves(pos, ply)
	}
	for _, m := range moves {
		score := -s.search(pos.Update(&m), depth-1, ply+1, -beta, -alpha, -(mat + s.gain(pos, &m)))
		if score >= beta {
			return score
		}
		alpha = max(alpha, score)
	}
	return alpha
}

// quiesce searches captures only, standing pat on the material.
func (s *searcher) quiesce(pos *chess.Position, ply, alpha, beta, mat int) int {
	s.nodes++
	legal := pos.ValidMoves()
	if len(legal) == 0 {
		return s.noMoves(pos, ply)
	}
	if mat >= beta || s.capped() || ply >= MaxPly {
		return mat
	}
	alpha = max(alpha, mat)
	for _, m := range s.order(pos, legal, true) {
		score := -s.quiesce(pos.Update(&m), ply+1, -beta, -alpha, -(mat + s.gain(pos, &m)))
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
	return s.order(pos, pos.ValidMoves(), captures)
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

// gain is the material m wins for the side that plays it in pos.
func (s *searcher) gain(pos *chess.Position, m *chess.Move) int {
	g := 0
	switch {
	case m.HasTag(chess.EnPassant):
		g = s.p.Pawn
	case m.HasTag(chess.Capture):
		g = s.p.value(pos.Board().Piece(m.S2()).Type())
	}
	if m.Promo() != chess.NoPieceType {
		g += s.p.value(m.Promo()) - s.p.Pawn
	}
	return g
}

// material is the side to move's material less the opponent's.
func (s *searcher) material(pos *chess.Position) int {
	b := pos.Board()
	sum := 0
	for sq := chess.A1; sq <= chess.H8; sq++ {
		pc := b.Piece(sq)
		if pc == chess.NoPiece {
			continue
		}
		v := s.p.value(pc.Type())
		if pc.Color() != pos.Turn() {
			v = -v
		}
		sum += v
	}
	return sum
}
