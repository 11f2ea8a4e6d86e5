package mnk

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/internal/playtest"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/bits128"
)

// parseBoard reads a diagram, row 0 first, of X, O and '.'.
func parseBoard(tb testing.TB, g *geom, rows ...string) position {
	tb.Helper()
	if len(rows) != g.N {
		tb.Fatalf("diagram has %d rows, want %d", len(rows), g.N)
	}
	var p position
	for r, row := range rows {
		if len(row) != g.M {
			tb.Fatalf("row %d %q has %d cells, want %d", r, row, len(row), g.M)
		}
		for c, ch := range row {
			switch ch {
			case 'X':
				p.marks[X] = p.marks[X].Or(bits128.Cell(g.bit(r, c)))
			case 'O':
				p.marks[O] = p.marks[O].Or(bits128.Cell(g.bit(r, c)))
			}
		}
	}
	nx, no := p.marks[X].Count(), p.marks[O].Count()
	if nx != no && nx != no+1 {
		tb.Fatalf("%d X and %d O: not a position of the game", nx, no)
	}
	p.ply = nx + no
	return p
}

// at names a cell in failure messages.
func at(g *geom, b int) string {
	r, c := g.rowCol(b)
	return fmt.Sprintf("(%d,%d)", r, c)
}

func TestSearchFindsTactics(t *testing.T) {
	gomoku := []string{
		"O.......O",
		".........",
		".........",
		".........",
		"...XXX...",
		".........",
		".........",
		".........",
		"O........",
	}
	blockOpenThree := slices.Clone(gomoku)
	blockOpenThree[4] = "...OOO..."
	blockOpenThree[0], blockOpenThree[8] = "X.......X", "X.......X"
	tests := []struct {
		name  string
		rules Rules
		board []string
		want  [][2]int // acceptable moves
	}{
		{"win now", TicTacToe, []string{"XX.", "OO.", "..."}, [][2]int{{0, 2}}},
		{"block", TicTacToe, []string{"XX.", "O..", "..."}, [][2]int{{0, 2}}},
		{"win before blocking", TicTacToe, []string{"XX.", "OO.", "X.."}, [][2]int{{1, 2}}},
		{"open four wins in two", Rules{M: 9, N: 9, K: 5}, gomoku, [][2]int{{4, 2}, {4, 6}}},
		{"stop an open three", Rules{M: 9, N: 9, K: 5}, blockOpenThree, [][2]int{{4, 2}, {4, 6}}},
	}
	for _, tc := range tests {
		for _, name := range []string{"classic", "tuned"} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				gm := mustGame(t, tc.rules, Limits{})
				p := parseBoard(t, gm.g, tc.board...)
				pl := gm.own(mustPlayer(t, gm, name))
				for seed := range uint64(5) {
					m := gm.start(pl, seed)
					got := mustNext(m, &p)
					m.release()
					ok := slices.ContainsFunc(tc.want, func(rc [2]int) bool { return gm.g.bit(rc[0], rc[1]) == got })
					if !ok {
						t.Errorf("seed %d: played %s, want one of %v on\n%s", seed, at(gm.g, got), tc.want, gm.g.format(&p))
					}
				}
			})
		}
	}
}

func TestRunsOf(t *testing.T) {
	tests := []struct {
		line string
		k    int
		want string // runs as side kind length, space-separated
	}{
		{"....X....", 5, "X open 1"},
		{"X........", 5, "X half 1"},
		{".XX.X..", 5, "X open 2 X open 1"},
		{"OXXXX.", 5, "X half 4"},
		{"OX...O", 5, ""}, // no room for five anywhere
		{"XXXXX", 5, ""},  // a line, not a run: the game is over
		{".O.X.", 3, "O open 1 X open 1"},
		{"XO", 2, ""},
		{"X.", 2, "X half 1"},
		{"..OO.X", 4, "O open 2"}, // X has 2 cells of room
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s k=%d", tc.line, tc.k), func(t *testing.T) {
			cells := make([]int8, len(tc.line))
			for i, ch := range tc.line {
				cells[i] = int8(strings.IndexRune(".XO", ch))
			}
			var got []string
			for _, r := range runsOf(nil, cells, tc.k) {
				got = append(got, fmt.Sprintf("%v %v %d", r.side, r.kind, r.length))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("runs %q, want %q", s, tc.want)
			}
		})
	}
}

func TestEvalOfSimplePositions(t *testing.T) {
	tests := []struct {
		name  string
		rules Rules
		board []string
		want  float64 // classic, O to move
	}{
		// The lone X has an open run of one along all four lines: 4 x 1.
		{"centre", Rules{M: 5, N: 5, K: 3}, []string{".....", ".....", "..X..", ".....", "....."}, -4},
		// In the corner: three half-open runs (0.1 each); the fourth line
		// through the corner is a single cell, too short to count.
		{"corner", Rules{M: 5, N: 5, K: 3}, []string{"X....", ".....", ".....", ".....", "....."}, -0.3},
		// A row of 12 is scanned, not looked up.
		{"long row", Rules{M: 12, N: 1, K: 4}, []string{".....X......"}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gm := mustGame(t, tc.rules, Limits{})
			p := parseBoard(t, gm.g, tc.board...)
			s := gm.newSearcher(gm.own(mustPlayer(t, gm, "classic")).w, 1, fitness.NewRand(1))
			defer s.release()
			s.load(&p)
			if got := s.eval(); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("eval = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEvalIncremental makes and takes back random moves and checks the
// running sums against a recount that scans every line without tables.
func TestEvalIncremental(t *testing.T) {
	for _, r := range []Rules{TicTacToe, {M: 9, N: 9, K: 5}, {M: 12, N: 7, K: 5}, {M: 7, N: 6, K: 4}} {
		t.Run(r.String(), func(t *testing.T) {
			gm := mustGame(t, r, Limits{})
			pl := gm.own(mustPlayer(t, gm, "tuned"))
			s := gm.newSearcher(pl.w, 7, fitness.NewRand(7))
			defer s.release()
			var empty position
			s.load(&empty)
			rng := fitness.NewRand(uint64(r.Cells()))
			var stack []int
			for range 2000 {
				free := gm.g.free(&s.pos)
				if len(stack) > 0 && (free.Empty() || rng.IntN(3) == 0) {
					s.unplace(stack[len(stack)-1])
					stack = stack[:len(stack)-1]
				} else if !free.Empty() {
					b := pick(rng, free)
					s.place(b)
					stack = append(stack, b)
				}
				want := recount(s)
				for sd := range 2 {
					if math.Abs(s.sum[sd]-want[sd]) > 1e-6*(1+math.Abs(want[sd])) {
						t.Fatalf("sum[%v] = %v, recount %v on\n%s", side(sd), s.sum[sd], want[sd], gm.g.format(&s.pos))
					}
				}
			}
		})
	}
}

func recount(s *searcher) [2]float64 {
	var sum [2]float64
	for _, line := range s.g.lines {
		cells := make([]int8, len(line))
		for i, b := range line {
			if s.pos.marks[X].Has(b) {
				cells[i] = 1
			} else if s.pos.marks[O].Has(b) {
				cells[i] = 2
			}
		}
		v := s.w.score(runsOf(nil, cells, s.g.K))
		sum[X] += v[X]
		sum[O] += v[O]
	}
	return sum
}

func TestTunedSchema(t *testing.T) {
	for k := 1; k <= 10; k++ {
		for _, gravity := range []bool{false, true} {
			s := tunedSchema(Rules{M: 10, N: 10, K: k, Gravity: gravity})
			if err := s.Validate(); err != nil {
				t.Errorf("k=%d gravity %v: %v", k, gravity, err)
			}
			want := 4*(k-1) + 2
			if gravity {
				want += len(threatParams)
			}
			if len(s) != want {
				t.Errorf("k=%d gravity %v: %d parameters, want %d", k, gravity, len(s), want)
			}
		}
	}
	var names []string
	for _, p := range tunedSchema(Rules{M: 3, N: 3, K: 3}) {
		names = append(names, p.Name)
	}
	want := "own_open_1 own_open_2 own_half_1 own_half_2 opp_open_1 opp_open_2 opp_half_1 opp_half_2 centre jitter"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	// The defaults are the classic weights.
	r5 := Rules{M: 9, N: 9, K: 5}
	w, err := tunedWeights(r5, tunedSchema(r5), tunedSchema(r5).Defaults())
	if err != nil {
		t.Fatal(err)
	}
	c := classicWeights(5)
	if !slices.Equal(w.own[open], c.own[open]) || !slices.Equal(w.opp[halfOpen], c.opp[halfOpen]) {
		t.Errorf("default weights %v %v, want the classic %v %v", w.own, w.opp, c.own, c.opp)
	}
	if w.threats != nil {
		t.Error("threat weights without gravity")
	}
	// Under gravity the threat knobs follow, and the defaults reach them.
	names = names[:0]
	for _, p := range tunedSchema(ConnectFour)[4*3+2:] {
		names = append(names, p.Name)
	}
	want = "own_threat_now opp_threat_now x_threat_odd x_threat_even o_threat_odd o_threat_even"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("gravity names %q, want %q", got, want)
	}
	w, err = tunedWeights(ConnectFour, tunedSchema(ConnectFour), tunedSchema(ConnectFour).Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if wt := (threatWeights{now: [2]float64{1000, 100}, later: [2][2]float64{{100, 30}, {30, 100}}}); *w.threats != wt {
		t.Errorf("default threat weights %+v, want %+v", *w.threats, wt)
	}
}

func TestNewPlayerErrors(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{})
	tests := []struct {
		name   string
		player string
		params genome.Values
		want   string
	}{
		{"unknown", "minimax", genome.Values{}, `mnk: unknown player "minimax" (want random, greedy, perfect, classic, tuned)`},
		{"tuned without parameters", "tuned", genome.Values{}, `mnk: tuned: parameters do not match its schema: no float "own_open_1"`},
		{"tuned with k=4 parameters", "tuned", tunedSchema(Rules{M: 9, N: 9, K: 4}).Defaults(), `mnk: tuned: parameters do not match its schema: no float "own_open_4"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gm.NewPlayer(fitness.Mover, tc.player, tc.params)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestNodeBudget: with a budget the search stops deepening once it is
// spent, whatever the depth limit, and stays reproducible.
func TestNodeBudget(t *testing.T) {
	const budget = 3000
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: maxDepth, Nodes: budget})
	p := parseBoard(t, gm.g,
		".........",
		".........",
		"...O.....",
		"...XX....",
		"....XO...",
		"....O....",
		".........",
		".........",
		".........")
	pl := gm.own(mustPlayer(t, gm, "classic"))
	var first int
	for i := range 2 {
		m := gm.start(pl, 1).(*searcher)
		got := m.move(&p)
		if m.nodes > budget+1 {
			t.Errorf("searched %d nodes, budget %d", m.nodes, budget)
		}
		m.release()
		if i == 0 {
			first = got
		} else if got != first {
			t.Errorf("second search played %s, first %s", at(gm.g, got), at(gm.g, first))
		}
	}
}

func TestHeuristicsBeatWeakPlayers(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 2})
	for _, strong := range []string{"classic", "tuned"} {
		for _, weak := range []string{"random", "greedy"} {
			t.Run(strong+" vs "+weak, func(t *testing.T) {
				a, b := mustPlayer(t, gm, strong), mustPlayer(t, gm, weak)
				var tally fitness.Tally
				for seed := range uint64(10) {
					tally.Add(playtest.MustPlay(gm, a, b, seed))
					tally.Add(playtest.MustPlay(gm, b, a, seed).Flip())
				}
				if tally.Score() < 0.9 {
					t.Errorf("%s scored %.2f against %s (%+v), want at least 0.9", strong, tally.Score(), weak, tally)
				}
			})
		}
	}
}

// TestThreatScoreMatchesNaive checks the gravity threat term against a
// cell-by-cell count on the naive board: a threat is an empty cell that
// would give its owner K in a row; it is playable now when it is the
// lowest empty cell of its column, and otherwise waits on an odd or even
// row counted from the bottom. Each knob gets a distinct weight, so a
// threat counted under the wrong one shows.
func TestThreatScoreMatchesNaive(t *testing.T) {
	tw := threatWeights{now: [2]float64{1e6, 1e5}, later: [2][2]float64{{1e4, 1e3}, {1e2, 1e1}}}
	for _, r := range []Rules{ConnectFour, {M: 3, N: 3, K: 3, Gravity: true}, {M: 5, N: 5, K: 3, Gravity: true}, {M: 10, N: 10, K: 5, Gravity: true}} {
		t.Run(r.String(), func(t *testing.T) {
			gm := mustGame(t, r, Limits{})
			w := classicWeights(r.K)
			w.threats = &tw
			s := gm.newSearcher(gm.price(w), 1, fitness.NewRand(1))
			defer s.release()
			rng := fitness.NewRand(uint64(r.Cells()))
			seen := 0
			for range 200 {
				b := newNaive(r)
				b.playRandom(rng, rng.IntN(r.Cells()))
				p := b.position(gm.g)
				s.load(&p)
				me := p.toMove()
				playable := b.moves()
				var want float64
				for i, v := range b.cells {
					if v != 0 {
						continue
					}
					for who := int8(1); who <= 2; who++ {
						if b.runThrough(i, who) < r.K {
							continue
						}
						sd := side(who - 1)
						var worth float64
						switch {
						case slices.Contains(playable, i) && sd == me:
							worth = tw.now[0]
						case slices.Contains(playable, i):
							worth = tw.now[1]
						case (r.N-i/r.M)%2 == 1:
							worth = tw.later[sd][0]
						default:
							worth = tw.later[sd][1]
						}
						if sd != me {
							worth = -worth
						}
						want += worth
						seen++
					}
				}
				if got := s.threatScore(me); got != want {
					t.Fatalf("threat score %v, naive count %v, %v to move on\n%s", got, want, me, gm.g.format(&p))
				}
			}
			if seen == 0 {
				t.Error("no position had a threat")
			}
		})
	}
}

// TestGravityTunedWeighsThreats: the tuned player's knobs reach its
// evaluation, each for its own kind of threat: a waiting threat of X on an
// even row is priced by x_threat_even alone.
func TestGravityTunedWeighsThreats(t *testing.T) {
	gm := mustGame(t, ConnectFour, Limits{})
	// X threatens the fourth cell of the second row from the bottom (even)
	// with the three to its left; the cell below it is empty, so the
	// threat waits. O is to move, so it is the opponent's threat.
	p := parseBoard(t, gm.g,
		".......",
		".......",
		".......",
		".......",
		"XXX....",
		"OOX.O..")
	eval := func(name string, v float64) float64 {
		params, err := gm.tuned.Defaults().With(name, genome.Value{Num: v})
		if err != nil {
			t.Fatal(err)
		}
		pl, err := gm.NewPlayer(fitness.Mover, "tuned", params)
		if err != nil {
			t.Fatal(err)
		}
		s := gm.newSearcher(gm.own(pl).w, 1, fitness.NewRand(1))
		defer s.release()
		s.load(&p)
		return s.threatScore(p.toMove())
	}
	if p.toMove() != O {
		t.Fatal("want O to move")
	}
	// Only x_threat_even prices this threat, from O's side: negative.
	if lo, hi := eval("x_threat_even", 1), eval("x_threat_even", 1000); lo != -1 || hi != -1000 {
		t.Errorf("threat score with x_threat_even 1 and 1000: %v, %v; want -1, -1000", lo, hi)
	}
	if a, b := eval("x_threat_odd", 1), eval("x_threat_odd", 1000); a != b {
		t.Errorf("x_threat_odd changed the score of an even-row threat: %v, %v", a, b)
	}
}
