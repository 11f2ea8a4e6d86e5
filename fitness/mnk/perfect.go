package mnk

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/evotune/evotune/fitness/search"
	"github.com/evotune/evotune/internal/bits128"
)

// maxPerfectCells bounds the boards perfect accepts. 4x4 boards solve in
// about a second; much beyond 20 cells a single move could take hours.
const maxPerfectCells = 20

// solverEntry records what is known of one position's value for the side
// to move: lower <= value <= upper, with values -1 (loss), 0 (draw) and 1
// (win). The whole position is stored, not a hash, so the solver stays
// exact whatever collides.
type solverEntry struct {
	marks        [2]bits128.Bits
	lower, upper int8
	used         bool
}

// solver is the per-game state of the perfect player.
//
// Its table holds only true bounds on game values, facts that do not depend
// on the match, so a pooled solver keeps its table from game to game: a
// board solved once is solved for every later game. Choices still depend
// only on the exact values and the match seed.
type solver struct {
	gm    *Game
	g     *geom
	tt    []solverEntry
	rng   *rand.Rand
	ties  tieRule
	nodes int64 // positions searched, for benchmarks
	best  []int

	// A move can take minutes on the largest boards, so the solver looks
	// at ctx every search.PollNodes positions (when nodes passes poll);
	// err is ctx's error once it has seen it.
	ctx  context.Context
	poll int64
	err  error
}

// solverTableBits sizes the table: about a slot per reachable position
// (a quarter of 3^cells: tic-tac-toe has 5478 of 19683), up to 2^20
// entries, 40 MiB.
func solverTableBits(cells int) int {
	n := 1.0
	for range cells {
		n *= 3
	}
	return min(20, max(10, bits.Len64(uint64(n/4))))
}

// newSolverMover is a solver that picks among equal moves at random.
func (gm *Game) newSolverMover(rng *rand.Rand) *solver { return gm.newSolverTies(rng, tiesRandom) }

// newSolverTies is a solver with the tie rule ties.
func (gm *Game) newSolverTies(rng *rand.Rand, ties tieRule) *solver {
	s, _ := gm.solvers.Get().(*solver)
	if s == nil {
		s = &solver{gm: gm, g: gm.g, tt: make([]solverEntry, 1<<solverTableBits(gm.g.cells))}
	}
	s.rng, s.ties = rng, ties
	return s
}

func (s *solver) release() {
	s.rng = nil
	s.gm.solvers.Put(s)
}

// next computes the exact value of every move and picks among the best by
// the tie rule: at random, or the first in reading order, as seed 003's
// AI takes "the position of the maximum" in its list of moves. When ctx
// is cancelled it stops within search.PollNodes positions and returns
// ctx's error.
func (s *solver) next(ctx context.Context, p *position) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.ctx, s.poll, s.err = ctx, s.nodes+search.PollNodes-1, nil
	defer func() { s.ctx = nil }() // a pooled solver must not keep a finished run's context alive
	s.best = s.best[:0]
	top := int8(-2)
	legal := s.g.moves(p)
	for _, b := range s.g.order {
		if !legal.Has(b) {
			continue
		}
		v := s.moveValue(p, b)
		if s.err != nil {
			return 0, s.err
		}
		if v > top {
			top, s.best = v, s.best[:0]
		}
		if v == top {
			s.best = append(s.best, b)
		}
	}
	if s.ties == tiesFirst {
		return slices.Min(s.best), nil // bits run in reading order
	}
	return s.best[s.rng.IntN(len(s.best))], nil
}

// halt looks at ctx: it reports whether the search must stop, and
// otherwise sets the next look. Tests and benchmarks that call moveValue
// alone have no ctx.
func (s *solver) halt() bool {
	if s.ctx != nil {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return true
		}
	}
	s.poll = s.nodes + search.PollNodes - 1
	return false
}

// moveValue is the exact value, for the mover, of marking bit b in p.
func (s *solver) moveValue(p *position, b int) int8 {
	won := s.g.play(p, b)
	defer p.undo(b)
	switch {
	case won:
		return 1
	case p.ply == s.g.cells:
		return 0
	}
	return -s.solve(p, s.hash(p), -1, 1)
}

func (s *solver) hash(p *position) uint64 {
	var h uint64
	for sd := range 2 {
		for m := p.marks[sd]; !m.Empty(); m = m.Rest() {
			h ^= s.g.zob[sd][m.First()]
		}
	}
	return h
}

// solve is fail-soft alpha-beta over the values -1, 0, 1 of the unfinished
// position p (whose hash is key), seen from the side to move. A result at
// or below alpha is an upper bound, at or above beta a lower bound, and
// exact in between; with the full window (-1, 1) it is always exact.
func (s *solver) solve(p *position, key uint64, alpha, beta int8) int8 {
	s.nodes++
	if s.nodes > s.poll && s.halt() {
		return 0
	}
	g := s.g
	me, you := p.toMove(), p.toMove().other()
	legal := g.moves(p)
	if !g.wins(p.marks[me], legal).Empty() {
		return 1
	}
	threats := g.wins(p.marks[you], legal)
	if threats.Count() >= 2 {
		return -1 // only one of them can be blocked
	}
	if p.ply+1 == g.cells {
		return 0 // the last cell wins nothing
	}
	// A side without a K-cell window free of the other's marks can never
	// win: on a drawish board this settles most positions long before the
	// board fills.
	lo, hi := int8(-1), int8(1)
	if !g.live(g.full.AndNot(p.marks[me])) {
		lo = 0
	}
	if !g.live(g.full.AndNot(p.marks[you])) {
		hi = 0
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.used && e.marks == p.marks {
		lo, hi = max(lo, e.lower), min(hi, e.upper)
	}
	switch {
	case lo >= hi, lo >= beta:
		return lo
	case hi <= alpha:
		return hi
	}
	a, b := max(alpha, lo), min(beta, hi)
	a0 := a
	best := int8(-2)
	try := func(c int) bool {
		p.marks[me] = p.marks[me].Or(bits128.Cell(c))
		p.ply++
		// No move wins here (none was found above), so the child is
		// unfinished: it has at least one free cell left.
		v := -s.solve(p, key^g.zob[me][c], -b, -a)
		p.ply--
		p.marks[me] = p.marks[me].AndNot(bits128.Cell(c))
		if s.err != nil {
			return true
		}
		if v > best {
			best = v
			a = max(a, v)
		}
		return a >= b
	}
	if !threats.Empty() {
		try(threats.First()) // the only move that does not lose at once
	} else {
		for _, c := range g.order {
			if legal.Has(c) && try(c) {
				break
			}
		}
	}
	if s.err != nil {
		// A cancelled subtree's value bounds nothing, and the table
		// outlives the game: keep it out.
		return 0
	}
	switch {
	case best <= a0:
		hi = min(hi, best)
	case best >= b:
		lo = max(lo, best)
	default:
		lo, hi = best, best
	}
	*e = solverEntry{marks: p.marks, lower: lo, upper: hi, used: true}
	return best
}
