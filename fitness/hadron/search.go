package hadron

import (
	"context"
	"math/bits"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/internal/bits128"
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

// searcher is one player's alpha-beta search for one game: the position
// side of the shared search (fitness/search). It owns its board copy,
// transposition table and killer moves, so players stay immutable and
// games run in parallel.
type searcher struct {
	b       Board
	w       Weights
	extra   bool         // some term beyond Aenigma's is on
	nimbers *nimberCache // the regions term's, when it is on
	salt    uint64       // seeds the jitter: the seat's stream of the match seed
	tt      table
	tab     *table // where tt came from, to give it back
	depth   int
	budget  int64 // nodes per move; 0 for none
	nodes   int64 // nodes this move
	total   int64 // nodes this game
	// killer holds, by ply, the last two moves that refuted a sibling
	// (search.NoMove for none); they are searched early.
	killer [maxCells + 2][2]int8
	// saved holds, by ply, the derived sets of the node being searched
	// there, for Undo: saved once per node rather than once per move.
	saved  [maxCells + 2]derived
	played int // moves made by Play and not undone: the ply
	eng    search.Searcher[*searcher]
}

// eval scores the position for the side to move: Aenigma's formula, the
// terms beyond it that the weights switch on (extra), and jitter. The
// jitter is a hash of the position and the seat's seed, not a draw from
// a stream, so a position scores the same however often and in whatever
// order the search meets it; the transposition table and iterative
// deepening then stay consistent. With every extra term off the
// arithmetic is Aenigma's alone, so the score is its to the last bit.
func (s *searcher) eval() float64 {
	b := &s.b
	wh, bl := b.specials()
	legal := b.legal.Count()
	h := wh.Count() - bl.Count()
	if b.toMove == Black {
		h = -h
	}
	nonSpecial := b.legal.AndNot(wh.Or(bl))
	parity := -1.0
	if nonSpecial.Count()%2 == 1 {
		parity = 1
	}
	late := legal < s.w.T
	w1, w2 := s.w.W1Early, s.w.W2Early
	if late {
		w1, w2 = s.w.W1Late, s.w.W2Late
	}
	if s.w.TiedParity && h != 0 {
		w2 = 0
	}
	v := Unit * (w1*float64(h) + w2*parity)
	if s.extra {
		v += s.extraTerms(late, h, legal, nonSpecial)
	}
	if s.w.Jitter != 0 {
		v += s.w.Jitter * unitNoise(b.hash^s.salt)
	}
	return v
}

// extraTerms are the terms beyond Aenigma's of the phase (late or not),
// each computed only when its weight is not zero; h is hSpecialMoves.
func (s *searcher) extraTerms(late bool, h, legal int, nonSpecial bits128.Bits) float64 {
	e := &s.w.Early
	if late {
		e = &s.w.Late
	}
	b := &s.b
	var v float64
	if e.Mobility != 0 {
		v += e.Mobility * float64(legal)
	}
	if e.Lead != 0 {
		v += e.Lead * float64(min(max(h, -1), 1))
	}
	if e.Unlock != 0 {
		// A white stone brings a cell of balance -1 to 0: White unlocks
		// the minus cells next to a legal cell, Black the plus cells.
		near := b.g.around(b.legal)
		mine, theirs := b.minus.And(near).Count(), b.plus.And(near).Count()
		if b.toMove == Black {
			mine, theirs = theirs, mine
		}
		v += e.Unlock * float64(mine-theirs)
	}
	if e.Regions != 0 && !(s.w.TiedParity && h != 0) {
		if s.nimbers == nil {
			s.nimbers = getNimberCache(b.g.n)
		}
		if b.g.nimber(nonSpecial, s.nimbers) != 0 {
			v += e.Regions
		} else {
			v -= e.Regions
		}
	}
	return Unit * v
}

// unitNoise maps a hash to a uniform number in [-1, 1).
func unitNoise(h uint64) float64 {
	return float64(fitness.Mix(h)>>11)*(2.0/(1<<53)) - 1
}

// choose returns the cell to play: iterative deepening to s.depth over
// the legal cells in order, each iteration searching the previous best
// move first. When the node budget runs out mid-iteration the last
// finished iteration decides; the first iteration always finishes. When
// ctx is cancelled the search stops within search.PollNodes nodes and
// choose returns ctx's error.
func (s *searcher) choose(ctx context.Context) (int, error) {
	s.eng.Pos = s
	s.eng.Options = search.Options{Depth: s.depth, Nodes: s.budget, Decided: winScore, Narrow: true}
	s.eng.Table = s.tt
	var cells [maxCells]int8
	var buf [maxCells]search.Move
	root := buf[:0]
	for _, c := range bits128.AppendCells(cells[:0], s.b.legal) {
		root = append(root, search.Move(c))
	}
	s.saved[0], s.played = s.b.derived(), 0
	best, err := s.eng.ChooseContext(ctx, root)
	s.nodes = s.eng.Nodes
	s.total += s.nodes
	if err != nil {
		return 0, err
	}
	return int(best), nil
}

// Settle ends the search at a lost position (no legal cell: the side to
// move loses, the sooner the worse for it) and at the horizon.
func (s *searcher) Settle(depth, _ int) (float64, search.Move, search.Node) {
	if s.b.legal.Empty() {
		return -(winScore + float64(depth)), search.NoMove, search.Settled
	}
	if depth == 0 {
		return s.eval(), search.NoMove, search.Settled
	}
	return 0, search.NoMove, search.Open
}

// Hash is the board's Zobrist key.
func (s *searcher) Hash() uint64 { return s.b.hash }

// Moves lists the legal cells: the killers of this ply (moves that
// refuted a sibling), then the rest by cell. It saves the derived sets of
// the node for Undo, since the search plays a node's moves only after it
// asked for them.
func (s *searcher) Moves(dst []search.Move, _, ply int) []search.Move {
	s.saved[ply] = s.b.derived()
	l := s.b.legal
	for _, k := range s.killer[ply] {
		if l.Has(int(k)) {
			dst = append(dst, search.Move(k))
			l = l.AndNot(bits128.Cell(int(k)))
		}
	}
	for w := l.Lo; w != 0; w &= w - 1 {
		dst = append(dst, search.Move(bits.TrailingZeros64(w)))
	}
	for w := l.Hi; w != 0; w &= w - 1 {
		dst = append(dst, search.Move(64+bits.TrailingZeros64(w)))
	}
	return dst
}

// Play places a stone on cell m.
func (s *searcher) Play(m search.Move) {
	s.played++
	s.b.place(int(m))
}

// Undo takes back Play(m), restoring the derived sets Moves saved (as
// Board.unplace does, without copying them through the stack).
func (s *searcher) Undo(m search.Move) {
	s.played--
	d := &s.saved[s.played]
	s.b.legal, s.b.plus, s.b.minus = d.legal, d.plus, d.minus
	s.b.retract(int(m))
}

// Leaf is the value after m at the horizon.
func (s *searcher) Leaf(m search.Move, _ int) float64 {
	s.b.place(int(m))
	v := float64(-winScore) // no legal cell: lost
	if !s.b.legal.Empty() {
		v = s.eval()
	}
	d := &s.saved[s.played]
	s.b.legal, s.b.plus, s.b.minus = d.legal, d.plus, d.minus
	s.b.retract(int(m))
	return v
}

// Cutoff makes m the first killer of its ply.
func (s *searcher) Cutoff(m search.Move, ply int) {
	if k := &s.killer[ply]; k[0] != int8(m) {
		k[1], k[0] = k[0], int8(m)
	}
}

// useWeights records whether any term of s.w beyond Aenigma's is on,
// for eval. It is called before the first search and whenever s.w
// changes.
func (s *searcher) useWeights() {
	s.extra = !s.w.Early.zero() || !s.w.Late.zero()
}
