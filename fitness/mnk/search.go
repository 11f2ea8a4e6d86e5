package mnk

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/evotune/evotune/fitness"
)

// Scores: a win found by the search is worth winScore less the plies it
// takes, so the search prefers quick wins and slow losses. Evaluations are
// clamped to evalLimit, far below any win; only weights for lines of 13 or
// more (10^12 per run) could reach it.
const (
	winScore  = 1e15
	mateBand  = 1e4 // scores within this of winScore are wins
	evalLimit = winScore / 10
)

// bound says what a transposition-table score is.
type bound uint8

// The bounds.
const (
	exact bound = iota + 1
	lowerBound
	upperBound
)

func (b bound) String() string {
	switch b {
	case exact:
		return "exact"
	case lowerBound:
		return "lower"
	case upperBound:
		return "upper"
	}
	return "bound(" + strconv.Itoa(int(b)) + ")"
}

type ttEntry struct {
	key   uint64
	score float64
	depth int8
	bound bound // 0: empty slot
	move  int8  // best move found, or -1
}

// scoredMove is a candidate move with its ordering score.
type scoredMove struct {
	bit   int
	score float64
}

// searcher is the per-game state of a classic or tuned player: the board
// and run counts of the evaluation (eval.go) and a transposition table that
// lives for the game.
type searcher struct {
	gm     *Game
	g      *geom
	tables *lineTables
	w      *priced
	lim    Limits
	salt   uint64 // jitter stream of this game
	rng    *rand.Rand

	pos   position
	key   uint64
	board []int8     // by bit: 0 empty, 1 X, 2 O
	code  []int32    // by line: its cells as a base-3 number (eval.go)
	sum   [2]float64 // worth of all lines, by side to move
	cen   [2]float64 // centrality sums by side
	cells []int8     // scratch for scanning long lines
	runs  []run      // scratch for scanning long lines
	tt    []ttEntry
	moves [][]scoredMove // by ply, reused
	// worths is a stack, one frame per place not yet taken back, of the
	// line worths place looked up, for unplace.
	worths []worthFrame

	nodes    int64 // this move's search
	budgeted bool  // the running iteration may be stopped by the node budget
	stop     bool
}

// searchTableBits sizes the transposition table: 2^16 entries (1.5 MiB) at
// most, fewer on boards with fewer positions.
func searchTableBits(cells int) int { return min(16, max(8, 2*cells)) }

func (gm *Game) newSearcher(w *priced, seed uint64, rng *rand.Rand) *searcher {
	s, _ := gm.searchers.Get().(*searcher)
	if s == nil {
		g := gm.g
		s = &searcher{gm: gm, g: g, tables: gm.lineTables(), lim: gm.limits,
			board: make([]int8, len(g.centre)),
			code:  make([]int32, len(g.lines)),
			tt:    make([]ttEntry, 1<<searchTableBits(g.cells)),
		}
	} else {
		clear(s.tt) // the jitter, and so every score, differs per game
	}
	s.w, s.rng = w, rng
	s.salt = fitness.Derive(seed, 0x6a6974746572) // "jitter"
	return s
}

func (s *searcher) release() {
	s.w, s.rng = nil, nil
	s.gm.searchers.Put(s)
}

// move searches p and returns the best move of the deepest iteration it
// completed. Immediate wins and forced blocks are played without search.
//
// Ties: the candidates are shuffled with the player's seed before they are
// sorted (stably) by their static score, and a later move must score
// strictly better to replace the best, so equally valued moves are chosen
// among at random without ever trading value for variety. That is the
// classic player's only randomness.
func (s *searcher) move(p *position) int {
	s.load(p)
	g := s.g
	me, legal := p.toMove(), g.moves(p)
	if w := g.wins(p.marks[me], legal); !w.empty() {
		return pick(s.rng, w)
	}
	if t := g.wins(p.marks[me.other()], legal); !t.empty() {
		return pick(s.rng, t) // with two or more the game is lost anyway
	}
	root := s.candidates(legal, 0)
	s.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	s.order(root)
	best := root[0].bit
	s.nodes, s.stop = 0, false
	for depth := 1; depth <= s.lim.Depth; depth++ {
		s.budgeted = s.lim.Nodes > 0 && depth > 1
		alpha, top := math.Inf(-1), 0
		for i := range root {
			s.place(root[i].bit)
			v := -s.negamax(depth-1, 1, math.Inf(-1), -alpha)
			s.unplace(root[i].bit)
			if s.stop {
				break
			}
			if v > alpha {
				alpha, top = v, i
			}
		}
		if s.stop {
			break
		}
		best = root[top].bit
		// Search the best move first next time: the deeper iteration then
		// starts with a good alpha, and keeps it on a tie.
		first := root[top]
		copy(root[1:top+1], root[:top])
		root[0] = first
		if alpha >= winScore-mateBand || alpha <= -winScore+mateBand {
			break // the result is known; deeper search cannot change it
		}
	}
	return best
}

// negamax is fail-soft alpha-beta from the side to move of s.pos, which is
// unfinished, searching depth more plies before evaluating.
func (s *searcher) negamax(depth, ply int, alpha, beta float64) float64 {
	s.nodes++
	if s.budgeted && s.nodes > s.lim.Nodes {
		s.stop = true
		return 0
	}
	g, p := s.g, &s.pos
	legal := g.moves(p)
	if legal.empty() {
		return 0 // full board: a draw
	}
	if depth <= 0 {
		return s.eval()
	}
	me := p.toMove()
	if !g.wins(p.marks[me], legal).empty() {
		return winScore - float64(ply+1)
	}
	switch threats := g.wins(p.marks[me.other()], legal); threats.count() {
	case 0:
	case 1:
		// The only move that does not lose at once. Forced replies do
		// not use up depth, so that a chain of threats is seen to its end.
		b := threats.first()
		s.place(b)
		v := -s.negamax(depth, ply+1, -beta, -alpha)
		s.unplace(b)
		return v
	default:
		return -(winScore - float64(ply+2)) // two threats: one gets through
	}

	e := &s.tt[s.key&uint64(len(s.tt)-1)]
	ttMove := -1
	if e.bound != 0 && e.key == s.key {
		ttMove = int(e.move)
		if int(e.depth) >= depth {
			v := fromTable(e.score, ply)
			switch {
			case e.bound == exact,
				e.bound == lowerBound && v >= beta,
				e.bound == upperBound && v <= alpha:
				return v
			}
		}
	}

	moves := s.candidates(legal, ply)
	if depth >= 2 {
		s.order(moves) // at depth 1 every child is evaluated anyway
	}
	if ttMove >= 0 {
		if i := slices.IndexFunc(moves, func(m scoredMove) bool { return m.bit == ttMove }); i > 0 {
			m := moves[i]
			copy(moves[1:i+1], moves[:i])
			moves[0] = m
		}
	}
	alpha0 := alpha
	best, bestMove := math.Inf(-1), -1
	for _, m := range moves {
		s.place(m.bit)
		v := -s.negamax(depth-1, ply+1, -beta, -alpha)
		s.unplace(m.bit)
		if s.stop {
			return 0
		}
		if v > best {
			best, bestMove = v, m.bit
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	b := exact
	switch {
	case best <= alpha0:
		b = upperBound
	case best >= beta:
		b = lowerBound
	}
	*e = ttEntry{key: s.key, score: toTable(best, ply), depth: int8(min(depth, math.MaxInt8)), bound: b, move: int8(bestMove)}
	return best
}

// candidates lists the legal cells next to a mark (all legal cells when
// none is): in k-in-a-row games a move far from every mark is rarely worth
// a search. Under gravity every column is a candidate: there are at most M
// moves, and a column far from the chips still decides which cells become
// playable. The slice is the buffer of ply, valid until ply is searched
// again.
func (s *searcher) candidates(legal bitset, ply int) []scoredMove {
	set := legal
	if !s.g.Gravity {
		occ := s.pos.occupied()
		near := occ
		for _, d := range s.g.dirs {
			near = near.or(occ.shl(d)).or(occ.shr(d))
		}
		if set = near.and(legal); set.empty() {
			set = legal
		}
	}
	for len(s.moves) <= ply {
		s.moves = append(s.moves, make([]scoredMove, 0, s.g.cells))
	}
	out := s.moves[ply][:0]
	for ; !set.empty(); set = set.rest() {
		out = append(out, scoredMove{bit: set.first()})
	}
	s.moves[ply] = out
	return out
}

// order sorts moves by the evaluation after each, best for the mover first.
func (s *searcher) order(moves []scoredMove) {
	for i := range moves {
		s.place(moves[i].bit)
		moves[i].score = -s.eval()
		s.unplace(moves[i].bit)
	}
	slices.SortStableFunc(moves, func(a, b scoredMove) int { return cmp.Compare(b.score, a.score) })
}

// toTable and fromTable store win scores as plies from the node rather
// than from the root, so a table entry stays right when the same position
// is met at another ply (or in the next move's search).
func toTable(v float64, ply int) float64 {
	switch {
	case v >= winScore-mateBand:
		return v + float64(ply)
	case v <= -winScore+mateBand:
		return v - float64(ply)
	}
	return v
}

func fromTable(v float64, ply int) float64 {
	switch {
	case v >= winScore-mateBand:
		return v - float64(ply)
	case v <= -winScore+mateBand:
		return v + float64(ply)
	}
	return v
}
