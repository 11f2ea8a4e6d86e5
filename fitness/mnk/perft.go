package mnk

import "fmt"

// perft counts the distinct move sequences of exactly d moves from the
// empty board, for d = 1..depth. A sequence ends early, and is not
// extended, when its last move makes a line or fills the board, so depths
// past the number of cells count 0; depth is capped at maxBits, longer
// than any game, so that a typo cannot allocate gigabytes of zeros.
func (g *geom) perft(depth int) []uint64 {
	if depth < 1 {
		return nil
	}
	depth = min(depth, maxBits)
	counts := make([]uint64, min(depth, g.cells))
	if b, ok := g.board64(); ok {
		b.perft(0, 0, 0, counts)
	} else {
		var p position
		g.perftFrom(&p, counts)
	}
	// No game is longer than the board has cells.
	return append(counts, make([]uint64, depth-len(counts))...)
}

// perftFrom adds the children of the unfinished position p (at ply p.ply)
// to counts[p.ply], and their children below them. It is the general path,
// for boards of more than 64 bits; board64.perft is the fast one.
func (g *geom) perftFrom(p *position, counts []uint64) {
	free := g.moves(p)
	if p.ply == len(counts)-1 {
		counts[p.ply] += uint64(free.Count()) // leaves need not be played
		return
	}
	counts[p.ply] += uint64(free.Count())
	for f := free; !f.Empty(); f = f.Rest() {
		b := f.First()
		if !g.play(p, b) && p.ply < g.cells {
			g.perftFrom(p, counts)
		}
		p.undo(b)
	}
}

// Tree is the complete game tree of a small board, as counted by TreeCount.
type Tree struct {
	XWins, OWins, Draws uint64 // complete games (move sequences to the end) by result
	Positions           uint64 // distinct reachable positions, the empty and the final ones included
}

// Games is the number of complete games.
func (t Tree) Games() uint64 { return t.XWins + t.OWins + t.Draws }

// MaxTreeCells bounds the boards TreeCount accepts: it keeps every reachable
// position in memory, and a 12-cell board has at most 3^12 = 531441.
const MaxTreeCells = 12

// TreeCount counts every complete game of r and its distinct reachable
// positions. Games are counted by dynamic programming over positions (the
// games from a position do not depend on how it was reached), so the cost
// is the number of positions, not of games.
func TreeCount(r Rules) (Tree, error) {
	if err := r.Validate(); err != nil {
		return Tree{}, err
	}
	if r.Cells() > MaxTreeCells {
		return Tree{}, fmt.Errorf("mnk: tree count of %dx%d: at most %d cells", r.M, r.N, MaxTreeCells)
	}
	g := newGeom(r)
	memo := map[position]Tree{}
	var p position
	games := g.countGames(&p, memo)
	games.Positions = uint64(len(memo))
	return games, nil
}

// countGames returns the games that continue from the unfinished position
// p, recording p and every position below it in memo.
func (g *geom) countGames(p *position, memo map[position]Tree) Tree {
	if t, ok := memo[*p]; ok {
		return t
	}
	var t Tree
	for f := g.moves(p); !f.Empty(); f = f.Rest() {
		b := f.First()
		mover := p.toMove()
		switch won := g.play(p, b); {
		case won:
			memo[*p] = Tree{}
			if mover == X {
				t.XWins++
			} else {
				t.OWins++
			}
		case p.ply == g.cells:
			memo[*p] = Tree{}
			t.Draws++
		default:
			c := g.countGames(p, memo)
			t.XWins += c.XWins
			t.OWins += c.OWins
			t.Draws += c.Draws
		}
		p.undo(b)
	}
	memo[*p] = t
	return t
}
