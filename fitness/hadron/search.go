package hadron

import (
	"math"
	"math/bits"

	"github.com/evotune/evotune/fitness"
)

// Scores are in points; see the package doc for the scale.
const (
	// Unit is the score of one unit of a heuristic term at weight 1: one
	// special move, or the parity bonus.
	Unit = 100
	// winScore is a won position, far above any heuristic score. A loss
	// found with d plies of search left scores -(winScore + d), so the
	// search prefers quick wins and slow losses.
	winScore = 1e6
)

// searcher is one player's alpha-beta search for one game. It owns its
// board copy, transposition table and move-ordering state, so players stay
// immutable and games run in parallel.
type searcher struct {
	b      Board
	w      Weights
	salt   uint64 // seeds the jitter: the seat's stream of the match seed
	tt     table
	tab    *table // where tt came from, to give it back
	depth  int
	budget int64 // nodes per move; 0 for none
	nodes  int64 // nodes this move
	total  int64 // nodes this game
	stop   bool  // the budget ran out mid-iteration
	killer [maxCells + 2][2]int8
}

// eval scores the position for the side to move: Aenigma's formula plus
// jitter. The jitter is a hash of the position and the seat's seed, not a
// draw from a stream, so a position scores the same however often and in
// whatever order the search meets it; the transposition table and
// iterative deepening then stay consistent.
func (s *searcher) eval() float64 {
	b := &s.b
	wh, bl := b.specials()
	legal := b.legal.count()
	h := wh.count() - bl.count()
	if b.toMove == Black {
		h = -h
	}
	parity := -1.0
	if b.legal.andNot(wh.or(bl)).count()%2 == 1 {
		parity = 1
	}
	w1, w2 := s.w.W1Early, s.w.W2Early
	if legal < s.w.T {
		w1, w2 = s.w.W1Late, s.w.W2Late
	}
	v := Unit * (w1*float64(h) + w2*parity)
	if s.w.Jitter != 0 {
		v += s.w.Jitter * unitNoise(b.hash^s.salt)
	}
	return v
}

// unitNoise maps a hash to a uniform number in [-1, 1).
func unitNoise(h uint64) float64 {
	return float64(fitness.Mix(h)>>11)*(2.0/(1<<53)) - 1
}

// choose returns the cell to play: iterative deepening to s.depth, each
// iteration searching the previous best move first. When the node budget
// runs out mid-iteration the last finished iteration decides; the first
// iteration always finishes.
func (s *searcher) choose() int {
	var buf [maxCells]int8
	moves := s.b.legal.cells(buf[:0])
	s.nodes = 0
	s.stop = false
	best := int(moves[0])
	for d := 1; d <= s.depth; d++ {
		alpha := math.Inf(-1)
		iterBest := -1
		for _, m := range moves {
			saved := s.b.derived()
			s.b.place(int(m))
			v := -s.negamax(d-1, 1, math.Inf(-1), -alpha, d > 1)
			s.b.unplace(int(m), saved)
			if s.stop {
				break
			}
			if v > alpha {
				alpha, iterBest = v, int(m)
			}
		}
		if s.stop {
			break
		}
		best = iterBest
		moveToFront(moves, int8(best))
		if math.Abs(alpha) >= winScore {
			break // the result is proven; deeper search cannot change it
		}
	}
	s.total += s.nodes
	return best
}

// negamax returns the score of the position for the side to move, exact
// when it lies strictly between alpha and beta and a bound otherwise.
func (s *searcher) negamax(d, ply int, alpha, beta float64, budgeted bool) float64 {
	s.nodes++
	if budgeted && s.budget > 0 && s.nodes > s.budget {
		s.stop = true
		return 0
	}
	b := &s.b
	if b.legal.empty() {
		return -(winScore + float64(d))
	}
	if d == 0 {
		return s.eval()
	}
	e := &s.tt[b.hash&(1<<ttBits-1)]
	ttMove := int8(-1)
	if e.key == b.hash && e.bound != 0 {
		ttMove = e.move
		if int(e.depth) >= d {
			switch e.bound {
			case boundExact:
				return e.value
			case boundLower:
				alpha = max(alpha, e.value)
			case boundUpper:
				beta = min(beta, e.value)
			}
			if alpha >= beta {
				return e.value
			}
		}
	}
	alpha0 := alpha
	var buf [maxCells]int8
	moves := s.order(buf[:0], ttMove, ply)
	best, bestMove := math.Inf(-1), int8(-1)
	saved := b.derived()
	for _, m := range moves {
		b.place(int(m))
		v := -s.negamax(d-1, ply+1, -beta, -alpha, budgeted)
		b.unplace(int(m), saved)
		if s.stop {
			return 0
		}
		if v > best {
			best, bestMove = v, m
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if k := &s.killer[ply]; k[0] != m {
				k[1], k[0] = k[0], m
			}
			break
		}
	}
	bd := boundExact
	switch {
	case best <= alpha0:
		bd = boundUpper
	case best >= beta:
		bd = boundLower
	}
	*e = ttEntry{key: b.hash, value: best, depth: int8(d), bound: bd, move: bestMove}
	return best
}

// order lists the legal moves: the table's move, then the killers of this
// ply (moves that refuted a sibling), then the rest by cell.
func (s *searcher) order(dst []int8, ttMove int8, ply int) []int8 {
	l := s.b.legal
	if ttMove >= 0 && l.has(int(ttMove)) {
		dst = append(dst, ttMove)
		l = l.andNot(bit(int(ttMove)))
	}
	for _, k := range s.killer[ply] {
		if k != ttMove && l.has(int(k)) {
			dst = append(dst, k)
			l = l.andNot(bit(int(k)))
		}
	}
	for w := l.lo; w != 0; w &= w - 1 {
		dst = append(dst, int8(bits.TrailingZeros64(w)))
	}
	for w := l.hi; w != 0; w &= w - 1 {
		dst = append(dst, int8(64+bits.TrailingZeros64(w)))
	}
	return dst
}

func moveToFront(moves []int8, m int8) {
	for i, x := range moves {
		if x == m {
			copy(moves[1:i+1], moves[:i])
			moves[0] = m
			return
		}
	}
}
