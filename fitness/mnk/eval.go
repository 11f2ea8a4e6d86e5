package mnk

import (
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/bits128"
)

// The evaluation is a sum over lines (rows, columns and diagonals that can
// hold K): each line's live runs, scored by the player's weights, from
// each side's point of view. A move changes only the four lines through
// its cell, so the searcher keeps both sums up to date as it makes and
// takes back moves, and every node has its evaluation at hand.
//
// A line is also kept as a base-3 number (0 empty, 1 X, 2 O per cell), and
// for lines of up to tableLen cells the game maps that number to the
// line's runs once and for all (lineTables); each player then prices every
// distinct set of runs once. Longer lines, found only on long thin boards,
// are rescanned instead.

// tableLen is the longest line looked up rather than scanned: 3^10 = 59049
// entries per line length.
const tableLen = 10

// run is one live run of marks in a line.
type run struct {
	side   side
	kind   runKind
	length int
}

// runsOf appends the live runs of line (cell values 0 empty, 1 X, 2 O) to
// out. A run of length 1..K-1 is live when the stretch of cells around it
// free of the opponent's marks can hold K; its kind is how many of its two
// ends are empty (a live run always has at least one).
func runsOf(out []run, line []int8, k int) []run {
	n := len(line)
	for i := 0; i < n; {
		v := line[i]
		if v == 0 {
			i++
			continue
		}
		j := i + 1
		for j < n && line[j] == v {
			j++
		}
		if length := j - i; length < k {
			foe := 3 - v
			lo, hi := i, j
			for lo > 0 && line[lo-1] != foe {
				lo--
			}
			for hi < n && line[hi] != foe {
				hi++
			}
			if hi-lo >= k {
				ends := 0
				if i > 0 && line[i-1] == 0 {
					ends++
				}
				if j < n && line[j] == 0 {
					ends++
				}
				out = append(out, run{side: side(v - 1), kind: runKind(ends - 1), length: length})
			}
		}
		i = j
	}
	return out
}

// lineTables maps the base-3 number of every short line to its runs, as an
// index into a list of distinct run sets. Built once per game, on first use.
type lineTables struct {
	pow3 []int32    // 3^i
	ids  [][]uint32 // by line length, then line number: run set id
	sets [][]run    // by id
}

func (gm *Game) lineTables() *lineTables {
	gm.tablesOnce.Do(func() { gm.tables = buildLineTables(gm.g) })
	return gm.tables
}

func buildLineTables(g *geom) *lineTables {
	t := &lineTables{pow3: make([]int32, tableLen+1), ids: make([][]uint32, tableLen+1)}
	t.pow3[0] = 1
	for i := 1; i <= tableLen; i++ {
		t.pow3[i] = 3 * t.pow3[i-1]
	}
	byKey := map[string]uint32{}
	var cells []int8
	var runs []run
	for _, line := range g.lines {
		n := len(line)
		if n > tableLen || t.ids[n] != nil {
			continue
		}
		t.ids[n] = make([]uint32, t.pow3[n])
		cells = slices.Grow(cells[:0], n)[:n]
		for code := range t.ids[n] {
			c := code
			for i := range cells {
				cells[i] = int8(c % 3)
				c /= 3
			}
			runs = runsOf(runs[:0], cells, g.K)
			key := runKey(runs)
			id, ok := byKey[key]
			if !ok {
				id = uint32(len(t.sets))
				byKey[key] = id
				t.sets = append(t.sets, slices.Clone(runs))
			}
			t.ids[n][code] = id
		}
	}
	return t
}

// runKey names a set of runs regardless of their order in the line.
func runKey(runs []run) string {
	packed := make([]uint16, len(runs))
	for i, r := range runs {
		packed[i] = uint16(r.side)<<9 | uint16(r.kind)<<8 | uint16(r.length) // length < K <= 127
	}
	slices.Sort(packed)
	b := make([]byte, 0, 2*len(packed))
	for _, p := range packed {
		b = append(b, byte(p>>8), byte(p))
	}
	return string(b)
}

// score is the worth of some runs to each side, were it to move.
func (w *weights) score(runs []run) [2]float64 {
	var v [2]float64
	for _, r := range runs {
		if r.length >= len(w.own[r.kind]) {
			continue
		}
		v[r.side] += w.own[r.kind][r.length]
		v[r.side.other()] -= w.opp[r.kind][r.length]
	}
	return v
}

// priced are a player's weights with the worth of every run set of the
// game's line tables, so that the search looks a line's worth up.
type priced struct {
	*weights
	sets [][2]float64 // by run set id
}

func (gm *Game) price(w *weights) *priced {
	t := gm.lineTables()
	p := &priced{weights: w, sets: make([][2]float64, len(t.sets))}
	for id, runs := range t.sets {
		p.sets[id] = w.score(runs)
	}
	return p
}

// load sets the searcher to position p, recounting everything.
func (s *searcher) load(p *position) {
	s.pos = *p
	s.worths = s.worths[:0]
	clear(s.board)
	clear(s.code)
	s.key = 0
	s.cen = [2]float64{}
	s.sum = [2]float64{}
	for sd := range 2 {
		for m := p.marks[sd]; !m.Empty(); m = m.Rest() {
			b := m.First()
			s.board[b] = int8(sd) + 1
			s.key ^= s.g.zob[sd][b]
			s.cen[sd] += s.g.centre[b]
		}
	}
	for li, line := range s.g.lines {
		for i, b := range line {
			if i < tableLen {
				s.code[li] += int32(s.board[b]) * s.tables.pow3[i]
			}
		}
		s.addLine(li, 1)
	}
}

// place marks bit b for the side to move, which must not win by it.
func (s *searcher) place(b int) {
	me := s.pos.toMove()
	s.worths = append(s.worths, worthFrame{})
	f := &s.worths[len(s.worths)-1]
	at := &s.g.lineAt[b]
	for d, l := range at {
		if l.line >= 0 {
			f[d][0] = s.lineWorth(l.line)
			s.sum[X] += -1 * f[d][0][X]
			s.sum[O] += -1 * f[d][0][O]
		}
	}
	s.setCell(b, int8(me)+1)
	for d, l := range at {
		if l.line >= 0 {
			f[d][1] = s.lineWorth(l.line)
			s.sum[X] += f[d][1][X]
			s.sum[O] += f[d][1][O]
		}
	}
	s.pos.marks[me] = s.pos.marks[me].Or(bits128.Cell(b))
	s.pos.ply++
	s.key ^= s.g.zob[me][b]
	s.cen[me] += s.g.centre[b]
}

// unplace takes back the mark placed on bit b. It does the very
// arithmetic a rescan of the lines through b would (take out their worth
// now, put back their worth before), with the worths place looked up, so
// the sums come out bit for bit as they always have.
func (s *searcher) unplace(b int) {
	s.pos.undo(b)
	me := s.pos.toMove()
	f := &s.worths[len(s.worths)-1]
	at := &s.g.lineAt[b]
	for d, l := range at {
		if l.line >= 0 {
			s.sum[X] += -1 * f[d][1][X]
			s.sum[O] += -1 * f[d][1][O]
		}
	}
	s.setCell(b, 0)
	for d, l := range at {
		if l.line >= 0 {
			s.sum[X] += f[d][0][X]
			s.sum[O] += f[d][0][O]
		}
	}
	s.worths = s.worths[:len(s.worths)-1]
	s.key ^= s.g.zob[me][b]
	s.cen[me] -= s.g.centre[b]
}

// worthFrame is what place looked up: by direction, the worth of the
// line through the cell before and after the mark.
type worthFrame [4][2][2]float64

// setCell sets bit b to v (0 empty, 1 X, 2 O) in the board and the codes
// of the lines through it.
func (s *searcher) setCell(b int, v int8) {
	diff := v - s.board[b]
	s.board[b] = v
	for _, l := range &s.g.lineAt[b] {
		if l.line >= 0 && l.pos < tableLen {
			s.code[l.line] += int32(diff) * s.tables.pow3[l.pos]
		}
	}
}

// addLine adds sign times line li's worth to the sums.
func (s *searcher) addLine(li int, sign float64) {
	v := s.lineWorth(li)
	s.sum[X] += sign * v[X]
	s.sum[O] += sign * v[O]
}

// lineWorth is line li's worth to each side.
func (s *searcher) lineWorth(li int) [2]float64 {
	line := s.g.lines[li]
	if len(line) <= tableLen {
		return s.w.sets[s.tables.ids[len(line)][s.code[li]]]
	}
	s.cells = s.cells[:0]
	for _, b := range line {
		s.cells = append(s.cells, s.board[b])
	}
	s.runs = runsOf(s.runs[:0], s.cells, s.g.K)
	return s.w.score(s.runs)
}

// eval scores the position for the side to move.
func (s *searcher) eval() float64 {
	me := s.pos.toMove()
	v := s.sum[me] + s.w.centre*(s.cen[me]-s.cen[me.other()])
	if s.w.threats != nil {
		v += s.threatScore(me)
	}
	if s.w.jitter != 0 {
		v += s.w.jitter * noise(s.key^s.salt)
	}
	return min(max(v, -evalLimit), evalLimit)
}

// noise maps a position's hash, salted by the match, to [-1, 1). Hashing
// rather than drawing keeps the jitter a function of the position, so the
// transposition table stays consistent and searches stay reproducible.
func noise(h uint64) float64 { return float64(int64(fitness.Mix(h))) / (1 << 63) }

// threatScore prices both sides' threats under gravity (threatWeights) for
// me, the side to move. Threats are found with the same shifts as
// immediate wins, over every empty cell rather than the playable ones, so
// it costs two line scans per evaluation.
func (s *searcher) threatScore(me side) float64 {
	g, p, t := s.g, &s.pos, s.w.threats
	free, legal := g.free(p), g.moves(p)
	var v float64
	for _, sd := range [2]side{X, O} {
		th := g.wins(p.marks[sd], free)
		if th.Empty() {
			continue
		}
		later := th.AndNot(legal)
		odd := later.And(g.odd).Count()
		worth := t.later[sd][0]*float64(odd) + t.later[sd][1]*float64(later.Count()-odd)
		if sd == me {
			v += worth + t.now[0]*float64(th.And(legal).Count())
		} else {
			v -= worth + t.now[1]*float64(th.And(legal).Count())
		}
	}
	return v
}
