package search_test

import (
	"fmt"

	"github.com/evotune/evotune/fitness/search"
)

// nim is the game of Nim with one heap: take one to three stones; who
// takes the last stone wins.
type nim struct{ stones int }

const nimWin = 1000

func (p *nim) Settle(depth, ply int) (float64, search.Move, search.Node) {
	if p.stones == 0 {
		return -(nimWin - float64(ply)), search.NoMove, search.Settled // the opponent took the last
	}
	if depth == 0 {
		return 0, search.NoMove, search.Settled
	}
	return 0, search.NoMove, search.Open
}

func (p *nim) Hash() uint64 { return uint64(p.stones) }

func (p *nim) Moves(dst []search.Move, _, _ int) []search.Move {
	for take := 1; take <= min(3, p.stones); take++ {
		dst = append(dst, search.Move(take))
	}
	return dst
}

func (p *nim) Leaf(m search.Move, ply int) float64 {
	p.Play(m)
	v, _, _ := p.Settle(0, ply)
	p.Undo(m)
	return v
}

func (p *nim) Play(m search.Move)    { p.stones -= int(m) }
func (p *nim) Undo(m search.Move)    { p.stones += int(m) }
func (*nim) Cutoff(search.Move, int) {}

func Example() {
	s := search.Searcher[*nim]{
		Pos:     &nim{stones: 10},
		Options: search.Options{Depth: 12, Decided: nimWin / 2, MateDistance: true},
		Table:   search.NewTable(6),
	}
	take := s.Choose([]search.Move{1, 2, 3})
	fmt.Println("take", take) // leave a multiple of four
	// Output: take 2
}
