// Package search is the two-player game-tree search the board games share:
// fail-soft negamax alpha-beta with iterative deepening, a transposition
// table and move ordering, over a small Position interface. It knows no
// game: a game supplies its moves, their order, make and unmake, the
// static value of a node and its hash, and this package supplies the tree
// walk, the node budget, the table and the deepening.
//
// A search is deterministic: the same position, options and table contents
// give the same move and node count, which is what keeps evolved games
// reproducible. It is single-threaded; a player owns one Searcher per game.
//
// A search can be cancelled (ChooseContext) but never timed: it stops
// only at a node count, so a cancelled search has no move to give, only
// the context's error.
package search

import (
	"context"
	"math"
	"strconv"
)

// PollNodes is how many nodes a search visits between two looks at its
// context: from a tenth of a millisecond of work (Hadron) to about a
// millisecond (m,n,k on 9x9), so a cancelled game stops at once, while
// the look costs nothing against the nodes between.
const PollNodes = 1024

// Move is a move as the search stores it: a cell index of up to 128
// cells. NoMove marks none.
type Move int8

// NoMove is the absence of a move (an empty killer or table slot).
const NoMove Move = -1

// Node says how Settle resolved a node.
type Node uint8

// The ways a node is resolved.
const (
	// Open nodes are searched: the table, then the moves.
	Open Node = iota
	// Settled nodes have a known value (game over, the horizon, a
	// decided result): Settle's value is returned as is.
	Settled
	// Forced nodes have one move worth searching; it is searched at the
	// same depth, so a chain of forced replies is seen to its end.
	Forced
)

func (n Node) String() string {
	switch n {
	case Open:
		return "open"
	case Settled:
		return "settled"
	case Forced:
		return "forced"
	}
	return "node(" + strconv.Itoa(int(n)) + ")"
}

// Position is a game position the search walks, always scored for the
// side to move. Its methods are the hot calls of the search; each runs once
// per node (Play and Undo once per child).
type Position interface {
	// Settle looks at the node before the table: with depth plies left
	// and ply plies below the root it returns Settled and the node's
	// value, Forced and the one move to search, or Open. At depth 0 it
	// must settle.
	Settle(depth, ply int) (v float64, forced Move, n Node)
	// Leaf is Play(m), then Settle(0, ply)'s value, then Undo(m): the
	// value of a child at the horizon, for the side to move there. Most
	// nodes are leaves, so one call instead of three is worth having.
	Leaf(m Move, ply int) float64
	// Hash is the position's key in the transposition table.
	Hash() uint64
	// Moves appends the moves of an open node to dst in the order to
	// search them; the search then brings the table's move to the front.
	Moves(dst []Move, depth, ply int) []Move
	// Play makes move m; Undo takes back m, the last move played.
	Play(m Move)
	Undo(m Move)
	// Cutoff reports that m refuted the node at ply (a beta cutoff), for
	// move ordering that learns, such as killer moves.
	Cutoff(m Move, ply int)
}

// Options are the limits of a search and how the game's scores read.
type Options struct {
	// Depth is the deepest iteration, in plies.
	Depth int
	// Nodes, if positive, caps the nodes of one Choose. The first
	// iteration always finishes; when the budget runs out later, the last
	// finished iteration decides.
	Nodes int64
	// Decided is the magnitude from which a score is a proven result:
	// deepening stops once the root's value reaches it.
	Decided float64
	// MateDistance says decided scores count plies from the root (a
	// quicker win scores higher). The table then stores them as plies
	// from the node, so an entry stays right when the position is met at
	// another ply.
	MateDistance bool
	// Narrow lets a table bound too weak to cut off narrow the window
	// (alpha up to a lower bound, beta down to an upper bound). Each game
	// keeps the rule its pinned moves were searched with.
	Narrow bool
}

// Searcher is the search state of one player for one game. The zero value
// with Pos, Options and Table set is ready; the table and the position's
// ordering state carry over from move to move.
type Searcher[P Position] struct {
	Pos     P
	Options Options
	Table   Table

	// Nodes counts the nodes of the last Choose.
	Nodes int64

	// check is the node count past which the node loop leaves its fast
	// path (halt): the budget's end or the next look at ctx (poll),
	// whichever comes first. One comparison per node serves both.
	check, poll int64
	budgeted    bool            // the running iteration may be stopped by the budget
	stop        bool            // the budget ran out or ctx was cancelled mid-iteration
	ctx         context.Context // of the running ChooseContext
	err         error           // ctx's error, once the search saw it
	moves       [][]Move
}

// Choose returns the best of root, the moves of the position to search in
// order, found by iterative deepening to Options.Depth: each iteration
// searches the last one's best move first. root must not be empty; Choose
// reorders it.
func (s *Searcher[P]) Choose(root []Move) Move {
	m, _ := s.ChooseContext(context.Background(), root)
	return m
}

// ChooseContext is Choose that gives up when ctx is cancelled: it looks at
// ctx before the first node and every PollNodes nodes, and then returns
// NoMove and ctx.Err(). What a search finds does not depend on ctx: until
// it is cancelled, the move, Nodes and the table are Choose's. A cancelled
// search leaves the table holding only values of subtrees it finished, as
// a budget's stop does, and the position as it was.
func (s *Searcher[P]) ChooseContext(ctx context.Context, root []Move) (Move, error) {
	s.Nodes, s.stop, s.ctx, s.err = 0, false, ctx, nil
	s.poll = PollNodes - 1 // halt runs once Nodes passes poll: at node PollNodes
	// A pooled searcher must not keep a finished run's context alive.
	defer func() { s.ctx = nil }()
	if err := ctx.Err(); err != nil {
		return NoMove, err
	}
	best := root[0]
	for d := 1; d <= s.Options.Depth; d++ {
		s.budgeted = s.Options.Nodes > 0 && d > 1
		s.setCheck()
		alpha, top := math.Inf(-1), 0
		for i, m := range root {
			s.Pos.Play(m)
			v := -s.negamax(d-1, 1, math.Inf(-1), -alpha)
			s.Pos.Undo(m)
			if s.stop {
				break
			}
			if v > alpha {
				alpha, top = v, i
			}
		}
		if s.stop {
			if s.err != nil {
				return NoMove, s.err
			}
			break
		}
		best = root[top]
		// Search the best move first next time: the deeper iteration then
		// starts with a good alpha, and keeps it on a tie.
		copy(root[1:top+1], root[:top])
		root[0] = best
		if math.Abs(alpha) >= s.Options.Decided {
			break // the result is proven; deeper search cannot change it
		}
	}
	return best, nil
}

// setCheck sets the node count past which halt runs next.
func (s *Searcher[P]) setCheck() {
	s.check = s.poll
	if s.budgeted {
		s.check = min(s.check, s.Options.Nodes)
	}
}

// halt is the slow path of a node, taken once Nodes passes check: it
// stops the search past the node budget or when ctx is cancelled, and
// otherwise sets the next check. Kept out of line so that the node loop
// stays small.
//
//go:noinline
func (s *Searcher[P]) halt() bool {
	if s.budgeted && s.Nodes > s.Options.Nodes {
		s.stop = true
		return true
	}
	if s.Nodes > s.poll {
		if err := s.ctx.Err(); err != nil {
			s.stop, s.err = true, err
			return true
		}
		s.poll = s.Nodes + PollNodes - 1
	}
	s.setCheck()
	return false
}

// negamax returns the value of the position for the side to move, exact
// when it lies strictly between alpha and beta and a bound otherwise.
func (s *Searcher[P]) negamax(depth, ply int, alpha, beta float64) float64 {
	s.Nodes++
	if s.Nodes > s.check && s.halt() {
		return 0
	}
	v, forced, n := s.Pos.Settle(depth, ply)
	switch n {
	case Settled:
		return v
	case Forced:
		s.Pos.Play(forced)
		v = -s.negamax(depth, ply+1, -beta, -alpha)
		s.Pos.Undo(forced)
		return v
	}

	key := s.Pos.Hash()
	e := &s.Table[key&uint64(len(s.Table)-1)]
	ttMove := NoMove
	if e.bound != 0 && e.key == key {
		ttMove = e.move
		if int(e.depth) >= depth {
			v := s.fromTable(e.value, ply)
			switch e.bound {
			case Exact:
				return v
			case Lower:
				if v >= beta {
					return v
				}
				if s.Options.Narrow {
					alpha = max(alpha, v)
				}
			case Upper:
				if v <= alpha {
					return v
				}
				if s.Options.Narrow {
					beta = min(beta, v)
				}
			}
		}
	}

	for len(s.moves) <= ply {
		s.moves = append(s.moves, nil)
	}
	moves := s.Pos.Moves(s.moves[ply][:0], depth, ply)
	s.moves[ply] = moves
	if ttMove != NoMove {
		for i, m := range moves {
			if m == ttMove {
				copy(moves[1:i+1], moves[:i])
				moves[0] = m
				break
			}
		}
	}
	alpha0 := alpha
	best, bestMove := math.Inf(-1), NoMove
	for _, m := range moves {
		var v float64
		if depth == 1 {
			// The child is a leaf: what negamax would do, in one call.
			s.Nodes++
			if s.Nodes > s.check && s.halt() {
				return 0
			}
			v = -s.Pos.Leaf(m, ply+1)
		} else {
			s.Pos.Play(m)
			v = -s.negamax(depth-1, ply+1, -beta, -alpha)
			s.Pos.Undo(m)
			if s.stop {
				return 0
			}
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				if alpha >= beta {
					s.Pos.Cutoff(m, ply)
					break
				}
			}
		}
	}
	b := Exact
	switch {
	case best <= alpha0:
		b = Upper
	case best >= beta:
		b = Lower
	}
	*e = Entry{key: key, value: s.toTable(best, ply), depth: int8(min(depth, math.MaxInt8)), bound: b, move: bestMove}
	return best
}

// toTable and fromTable convert decided scores between plies from the
// root and plies from the node, when Options.MateDistance asks for it.
func (s *Searcher[P]) toTable(v float64, ply int) float64 {
	if s.Options.MateDistance {
		switch {
		case v >= s.Options.Decided:
			return v + float64(ply)
		case v <= -s.Options.Decided:
			return v - float64(ply)
		}
	}
	return v
}

func (s *Searcher[P]) fromTable(v float64, ply int) float64 {
	if s.Options.MateDistance {
		switch {
		case v >= s.Options.Decided:
			return v - float64(ply)
		case v <= -s.Options.Decided:
			return v + float64(ply)
		}
	}
	return v
}
