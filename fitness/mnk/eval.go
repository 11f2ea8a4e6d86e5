package mnk

import "github.com/evotune/evotune/fitness"

// The evaluation keeps, per side, the number of live runs of each kind and
// length on the board, and the sum of its marks' centrality. A move changes
// only the four lines through its cell, so making and taking back a move
// rescans those four lines rather than the board, and every node of the
// search has its evaluation at hand (which move ordering uses).

// load sets the searcher to position p, recounting everything.
func (s *searcher) load(p *position) {
	s.pos = *p
	clear(s.board)
	s.key = 0
	s.cen = [2]float64{}
	for sd := range 2 {
		for kind := range 2 {
			clear(s.feat[sd][kind])
		}
		for m := p.marks[sd]; !m.empty(); m = m.rest() {
			b := m.first()
			s.board[b] = int8(sd) + 1
			s.key ^= s.g.zob[sd][b]
			s.cen[sd] += s.g.centre[b]
		}
	}
	for _, line := range s.g.lines {
		s.scanLine(line, 1)
	}
}

// place marks bit b for the side to move, which must not win by it.
func (s *searcher) place(b int) {
	me := s.pos.toMove()
	s.rescan(b, int8(me)+1)
	s.pos.marks[me] = s.pos.marks[me].or(cell(b))
	s.pos.ply++
	s.key ^= s.g.zob[me][b]
	s.cen[me] += s.g.centre[b]
}

// unplace takes back the mark placed on bit b.
func (s *searcher) unplace(b int) {
	s.pos.undo(b)
	me := s.pos.toMove()
	s.rescan(b, 0)
	s.key ^= s.g.zob[me][b]
	s.cen[me] -= s.g.centre[b]
}

// rescan removes the runs of the lines through b, sets b to v (0 empty,
// 1 X, 2 O) and adds the runs back.
func (s *searcher) rescan(b int, v int8) {
	at := &s.g.lineAt[b]
	for _, li := range at {
		if li >= 0 {
			s.scanLine(s.g.lines[li], -1)
		}
	}
	s.board[b] = v
	for _, li := range at {
		if li >= 0 {
			s.scanLine(s.g.lines[li], 1)
		}
	}
}

// scanLine adds sign times the live runs of line to the counts. A run is
// live when the stretch of cells around it free of the opponent's marks
// can hold K; its kind is how many of its two ends are empty (a live run
// shorter than K always has at least one).
func (s *searcher) scanLine(line []int, sign int32) {
	k, n := s.g.K, len(line)
	for i := 0; i < n; {
		v := s.board[line[i]]
		if v == 0 {
			i++
			continue
		}
		j := i + 1
		for j < n && s.board[line[j]] == v {
			j++
		}
		if length := j - i; length < k {
			foe := 3 - v
			lo, hi := i, j
			for lo > 0 && s.board[line[lo-1]] != foe {
				lo--
			}
			for hi < n && s.board[line[hi]] != foe {
				hi++
			}
			if hi-lo >= k {
				ends := 0
				if i > 0 && s.board[line[i-1]] == 0 {
					ends++
				}
				if j < n && s.board[line[j]] == 0 {
					ends++
				}
				s.feat[v-1][ends-1][length] += sign
			}
		}
		i = j
	}
}

// eval scores the position for the side to move.
func (s *searcher) eval() float64 {
	me := s.pos.toMove()
	you := me.other()
	w := s.w
	v := w.centre * (s.cen[me] - s.cen[you])
	for kind := range 2 {
		own, opp := w.own[kind], w.opp[kind]
		mine, theirs := s.feat[me][kind], s.feat[you][kind]
		for l := 1; l < len(own); l++ {
			v += own[l]*float64(mine[l]) - opp[l]*float64(theirs[l])
		}
	}
	if w.jitter != 0 {
		v += w.jitter * noise(s.key^s.salt)
	}
	return min(max(v, -evalLimit), evalLimit)
}

// noise maps a position's hash, salted by the match, to [-1, 1). Hashing
// rather than drawing keeps the jitter a function of the position, so the
// transposition table stays consistent and searches stay reproducible.
func noise(h uint64) float64 { return float64(int64(fitness.Mix(h))) / (1 << 63) }
