package hadron

// A deliberately slow, independent model of the rules for the tests to
// check the bitboards against: a grid of colours, neighbours counted by
// walking the four directions every time.

type naive struct {
	n      int
	grid   []Color
	toMove Color
}

func newNaive(n int) *naive { return &naive{n: n, grid: make([]Color, n*n), toMove: White} }

// naiveOf copies a Board's stones and side to move.
func naiveOf(b *Board) *naive {
	n := b.Size()
	v := newNaive(n)
	for r := range n {
		for c := range n {
			v.grid[r*n+c] = b.At(Cell{r, c})
		}
	}
	v.toMove = b.ToMove()
	return v
}

var dirs = [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

func (v *naive) neighbours(r, c int) []int {
	var out []int
	for _, d := range dirs {
		rr, cc := r+d[0], c+d[1]
		if rr >= 0 && rr < v.n && cc >= 0 && cc < v.n {
			out = append(out, rr*v.n+cc)
		}
	}
	return out
}

func (v *naive) balance(i int) int {
	bal := 0
	for _, j := range v.neighbours(i/v.n, i%v.n) {
		switch v.grid[j] {
		case White:
			bal++
		case Black:
			bal--
		}
	}
	return bal
}

func (v *naive) legal(i int) bool { return v.grid[i] == Empty && v.balance(i) == 0 }

func (v *naive) moves() []int {
	var out []int
	for i := range v.grid {
		if v.legal(i) {
			out = append(out, i)
		}
	}
	return out
}

func (v *naive) play(i int)   { v.grid[i] = v.toMove; v.toMove = v.toMove.Other() }
func (v *naive) unplay(i int) { v.grid[i] = Empty; v.toMove = v.toMove.Other() }

// perft walks every sequence, no bulk counting.
func (v *naive) perft(d int) uint64 {
	if d == 0 {
		return 1
	}
	var total uint64
	for _, i := range v.moves() {
		v.play(i)
		total += v.perft(d - 1)
		v.unplay(i)
	}
	return total
}

// specials applies the definition cell by cell: R legal, P an empty, not
// legal neighbour of R whose other neighbours are all occupied or empty and
// not legal (seed 004's first-level "no longer unlockable"); R belongs to the
// colour whose stone on R leaves P unplayable while the other colour's
// stone would make it playable.
func (v *naive) specials() (white, black []Cell) {
	return v.specialsBy(func(q int) bool { return v.grid[q] != Empty || !v.legal(q) })
}

// oldSpecials is the reading evotune used before issue 15: P's other
// neighbours must all hold stones (R is P's only empty neighbour).
func (v *naive) oldSpecials() (white, black []Cell) {
	return v.specialsBy(func(q int) bool { return v.grid[q] != Empty })
}

// specialsBy finds the special moves when settled says which of P's other
// neighbours can no longer change P.
func (v *naive) specialsBy(settled func(q int) bool) (white, black []Cell) {
	for r := range v.grid {
		if !v.legal(r) {
			continue
		}
		var ownW, ownB bool
		for _, p := range v.neighbours(r/v.n, r%v.n) {
			if v.grid[p] != Empty || v.legal(p) {
				continue
			}
			only := true
			for _, q := range v.neighbours(p/v.n, p%v.n) {
				if q != r && !settled(q) {
					only = false
				}
			}
			if !only {
				continue
			}
			playableAfter := func(c Color) bool {
				v.grid[r] = c
				defer func() { v.grid[r] = Empty }()
				return v.legal(p)
			}
			w, b := playableAfter(White), playableAfter(Black)
			ownW = ownW || (!w && b)
			ownB = ownB || (!b && w)
		}
		if ownW {
			white = append(white, Cell{r / v.n, r % v.n})
		}
		if ownB {
			black = append(black, Cell{r / v.n, r % v.n})
		}
	}
	return white, black
}

// wins reports whether the side to move wins with perfect play.
func (v *naive) wins() bool {
	for _, i := range v.moves() {
		v.play(i)
		w := v.wins()
		v.unplay(i)
		if !w {
			return true
		}
	}
	return false
}
