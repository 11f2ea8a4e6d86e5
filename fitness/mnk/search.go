package mnk

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/internal/bits128"
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

// bound is the shared search's table bound.
type bound = search.Bound

// lowerBound is kept for the bound names' tests.
const lowerBound = search.Lower

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
	tt    search.Table
	moves [][]scoredMove // by ply, reused
	root  []search.Move  // the root's moves, in search order
	legal bits128.Bits   // the legal cells of the node Settle left open
	// worths is a stack, one frame per place not yet taken back, of the
	// line worths place looked up, for unplace.
	worths []worthFrame

	nodes int64 // this move's search
	eng   search.Searcher[*searcher]
}

// searchTableBits sizes the transposition table: 2^16 entries (1.5 MiB) at
// most, fewer on boards with fewer positions.
func searchTableBits(cells int) int { return min(16, max(8, 2*cells)) }

// newSearcher is a searcher at the game's limits.
func (gm *Game) newSearcher(w *priced, seed uint64, rng *rand.Rand) *searcher {
	return gm.newSearcherWith(w, gm.limits, seed, rng)
}

// newSearcherWith is a searcher at the limits lim (a player's own).
func (gm *Game) newSearcherWith(w *priced, lim Limits, seed uint64, rng *rand.Rand) *searcher {
	s, _ := gm.searchers.Get().(*searcher)
	if s == nil {
		g := gm.g
		s = &searcher{gm: gm, g: g, tables: gm.lineTables(),
			board: make([]int8, len(g.centre)),
			code:  make([]int32, len(g.lines)),
			tt:    search.NewTable(searchTableBits(g.cells)),
		}
	} else {
		clear(s.tt) // the jitter, and so every score, differs per game
	}
	s.w, s.rng, s.lim = w, rng, lim
	s.salt = fitness.Derive(seed, 0x6a6974746572) // "jitter"
	return s
}

func (s *searcher) release() {
	s.w, s.rng = nil, nil
	s.gm.searchers.Put(s)
}

// next searches p and returns the best move of the deepest iteration it
// completed. Immediate wins and forced blocks are played without search.
// When ctx is cancelled the search stops within search.PollNodes nodes
// and next returns ctx's error.
//
// Ties: the candidates are shuffled with the player's seed before they are
// sorted (stably) by their static score, and a later move must score
// strictly better to replace the best, so equally valued moves are chosen
// among at random without ever trading value for variety. That is the
// classic player's only randomness.
func (s *searcher) next(ctx context.Context, p *position) (int, error) {
	s.load(p)
	g := s.g
	me, legal := p.toMove(), g.moves(p)
	if w := g.wins(p.marks[me], legal); !w.Empty() {
		return pick(s.rng, w), nil
	}
	if t := g.wins(p.marks[me.other()], legal); !t.Empty() {
		return pick(s.rng, t), nil // with two or more the game is lost anyway
	}
	root := s.candidates(legal, 0)
	s.rng.Shuffle(len(root), func(i, j int) { root[i], root[j] = root[j], root[i] })
	s.order(root)
	s.root = s.root[:0]
	for _, m := range root {
		s.root = append(s.root, search.Move(m.bit))
	}
	s.eng.Pos = s
	s.eng.Options = search.Options{
		Depth: s.lim.Depth, Nodes: s.lim.Nodes,
		Decided: winScore - mateBand, MateDistance: true,
	}
	s.eng.Table = s.tt
	best, err := s.eng.ChooseContext(ctx, s.root)
	s.nodes = s.eng.Nodes
	if err != nil {
		return 0, err
	}
	return int(best), nil
}

// Settle ends the search at a full board (a draw), at the horizon and at
// decided nodes: the side to move wins at once, or faces two threats and
// loses. Facing one threat, blocking it is the only move that does not
// lose at once: it is forced, and forced replies do not use up depth, so
// that a chain of threats is seen to its end.
func (s *searcher) Settle(depth, ply int) (float64, search.Move, search.Node) {
	g, p := s.g, &s.pos
	legal := g.moves(p)
	if legal.Empty() {
		return 0, search.NoMove, search.Settled
	}
	if depth <= 0 {
		return s.eval(), search.NoMove, search.Settled
	}
	me := p.toMove()
	if !g.wins(p.marks[me], legal).Empty() {
		return winScore - float64(ply+1), search.NoMove, search.Settled
	}
	switch threats := g.wins(p.marks[me.other()], legal); threats.Count() {
	case 0:
	case 1:
		return 0, search.Move(threats.First()), search.Forced
	default:
		return -(winScore - float64(ply+2)), search.NoMove, search.Settled // one gets through
	}
	s.legal = legal
	return 0, search.NoMove, search.Open
}

// Hash is the position's Zobrist key.
func (s *searcher) Hash() uint64 { return s.key }

// Moves lists the candidates of the node Settle left open, best first by
// their evaluation when two or more plies are left (at depth 1 every
// child is evaluated anyway).
func (s *searcher) Moves(dst []search.Move, depth, ply int) []search.Move {
	if depth < 2 {
		for set := s.candidateSet(s.legal); !set.Empty(); set = set.Rest() {
			dst = append(dst, search.Move(set.First()))
		}
		return dst
	}
	moves := s.candidates(s.legal, ply)
	s.order(moves)
	for _, m := range moves {
		dst = append(dst, search.Move(m.bit))
	}
	return dst
}

// Play marks cell m for the side to move; Undo takes it back.
func (s *searcher) Play(m search.Move) { s.place(int(m)) }
func (s *searcher) Undo(m search.Move) { s.unplace(int(m)) }

// Leaf is the value after m at the horizon.
func (s *searcher) Leaf(m search.Move, _ int) float64 {
	s.place(int(m))
	v := 0.0 // full board: a draw
	if !s.g.moves(&s.pos).Empty() {
		v = s.eval()
	}
	s.unplace(int(m))
	return v
}

// Cutoff does nothing: the evaluation orders the moves.
func (*searcher) Cutoff(search.Move, int) {}

// candidates lists the legal cells next to a mark (all legal cells when
// none is): in k-in-a-row games a move far from every mark is rarely worth
// a search. Under gravity every column is a candidate: there are at most M
// moves, and a column far from the chips still decides which cells become
// playable. The slice is the buffer of ply, valid until ply is searched
// again.
func (s *searcher) candidates(legal bits128.Bits, ply int) []scoredMove {
	set := s.candidateSet(legal)
	for len(s.moves) <= ply {
		s.moves = append(s.moves, make([]scoredMove, 0, s.g.cells))
	}
	out := s.moves[ply][:0]
	for ; !set.Empty(); set = set.Rest() {
		out = append(out, scoredMove{bit: set.First()})
	}
	s.moves[ply] = out
	return out
}

// candidateSet is the set candidates lists.
func (s *searcher) candidateSet(legal bits128.Bits) bits128.Bits {
	if s.g.Gravity {
		return legal
	}
	occ := s.pos.occupied()
	near := occ
	for _, d := range s.g.dirs {
		near = near.Or(occ.Shl(d)).Or(occ.Shr(d))
	}
	if set := near.And(legal); !set.Empty() {
		return set
	}
	return legal
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
