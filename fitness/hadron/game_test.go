package hadron

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/internal/playtest"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/bits128"
)

// scale returns n, or under the race detector the smaller count.
func scale(n, underRace int) int {
	if raceEnabled {
		return underRace
	}
	return n
}

func TestParseOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts map[string]string
		want Options
		err  string // every line of the error, joined by |
	}{
		{name: "defaults", opts: nil, want: Options{Size: 9, Depth: 4}},
		{name: "all set", opts: map[string]string{"size": "11", "depth": " 6 ", "nodes": "5000"}, want: Options{Size: 11, Depth: 6, Nodes: 5000}},
		{name: "smallest", opts: map[string]string{"size": "3", "depth": "1"}, want: Options{Size: 3, Depth: 1}},
		{name: "size too small", opts: map[string]string{"size": "2"}, err: "hadron: size 2: must be at least 3"},
		{name: "size too big", opts: map[string]string{"size": "12"}, err: "hadron: size 12: must be at most 11"},
		{name: "depth zero", opts: map[string]string{"depth": "0"}, err: "hadron: depth 0: must be from 1 to 16"},
		{name: "depth 10^8", opts: map[string]string{"depth": "100000000"}, err: "hadron: depth 100000000: must be from 1 to 16"},
		{name: "nodes above the limit", opts: map[string]string{"nodes": "1000000001"}, err: "hadron: nodes 1000000001: must be 0 (no budget) to 1000000000"},
		{name: "negative nodes", opts: map[string]string{"nodes": "-1"}, err: "hadron: nodes -1: must be 0 (no budget) to 1000000000"},
		{name: "not a number", opts: map[string]string{"size": "nine"}, err: `hadron: size "nine": not a whole number`},
		{name: "unknown", opts: map[string]string{"sise": "9"}, err: `hadron: unknown option "sise" (want size, depth or nodes)`},
		{name: "several, in name order", opts: map[string]string{"size": "1", "depth": "-2", "colour": "x"},
			err: `hadron: unknown option "colour" (want size, depth or nodes)|hadron: depth -2: must be from 1 to 16|hadron: size 1: must be at least 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseOptions(tc.opts)
			if tc.err != "" {
				if err == nil || strings.ReplaceAll(err.Error(), "\n", "|") != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if _, err := Info.New(tc.opts); err == nil {
					t.Fatal("Info.New accepted what ParseOptions refused")
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
			g, err := Info.New(tc.opts)
			if err != nil || g.(*Game).Options() != tc.want || g.Name() != "hadron" {
				t.Fatalf("Info.New: %v, %v", g, err)
			}
		})
	}
}

func TestInfoListsEveryOption(t *testing.T) {
	o := map[string]string{}
	for _, opt := range Info.Options {
		o[opt.Name] = opt.Default
	}
	if got, err := ParseOptions(o); err != nil || got != DefaultOptions() {
		t.Fatalf("defaults as listed give %+v, %v; want %+v", got, err, DefaultOptions())
	}
}

func TestPlayersAndSchema(t *testing.T) {
	g := mustGame(t, Options{})
	var names []string
	for _, p := range g.Players() {
		names = append(names, p.Name)
		if p.Role != fitness.Mover {
			t.Errorf("%s: role %v", p.Name, p.Role)
		}
		if err := p.Schema.Validate(); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		pl, err := g.NewPlayer(fitness.Mover, p.Name, p.Schema.Defaults())
		if err != nil || pl.Name() != p.Name {
			t.Errorf("NewPlayer(%q) = %v, %v", p.Name, pl, err)
		}
	}
	if want := []string{"random", "greedy", "aenigma", "tuned"}; !slices.Equal(names, want) {
		t.Errorf("players %v, want %v", names, want)
	}
	w, err := WeightsFrom(Schema(9).Defaults())
	if err != nil || w != Aenigma {
		t.Errorf("tuned defaults = %+v, %v; want Aenigma %+v", w, err, Aenigma)
	}
	if p, _ := Schema(9).Lookup(ParamT); p.Max != 81 {
		t.Errorf("9x9 t max = %v, want 81", p.Max)
	}
	for _, size := range []int{MinSize, MaxSize} {
		if err := Schema(size).Validate(); err != nil {
			t.Errorf("schema on %dx%d: %v", size, size, err)
		}
	}
	if _, err := g.NewPlayer(fitness.Mover, "over9000", genome.Values{}); err == nil || !strings.Contains(err.Error(), `unknown player "over9000"`) {
		t.Errorf("unknown player: %v", err)
	}
	if _, err := g.NewPlayer(fitness.Mover, "tuned", genome.Values{}); err == nil || !strings.HasPrefix(err.Error(), "hadron: tuned:") {
		t.Errorf("tuned without its schema: %v", err)
	}
}

func newPlayer(tb testing.TB, g *Game, name string, v genome.Values) fitness.Player {
	tb.Helper()
	if v.Schema() == nil {
		v = Schema(g.opts.Size).Defaults()
	}
	p, err := g.NewPlayer(fitness.Mover, name, v)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func record(tb testing.TB, g *Game, a, b fitness.Player, seed uint64) Record {
	tb.Helper()
	r, err := g.PlayRecord(a, b, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestGamesAreLegalAndReproducible replays every game on a fresh board
// and plays it again from the same seed.
func TestGamesAreLegalAndReproducible(t *testing.T) {
	g := mustGame(t, Options{Size: 7, Depth: 3})
	names := []string{"random", "greedy", "aenigma", "tuned"}
	for _, a := range names {
		for _, b := range names {
			t.Run(a+"-"+b, func(t *testing.T) {
				pa, pb := newPlayer(t, g, a, genome.Values{}), newPlayer(t, g, b, genome.Values{})
				seen := map[string]bool{}
				for seed := range uint64(scale(4, 2)) {
					r := record(t, g, pa, pb, seed)
					replay(t, r)
					if again := record(t, g, pa, pb, seed); again.String() != r.String() {
						t.Fatalf("seed %d: %v then %v", seed, r, again)
					}
					if out := playtest.MustPlay(g, pa, pb, seed); (out == fitness.Win) != (r.Winner == White) || out == fitness.Draw {
						t.Fatalf("seed %d: Play says %v, record %v", seed, out, r)
					}
					seen[r.String()] = true
				}
				if len(seen) < 2 {
					t.Errorf("%d seeds gave %d distinct games", scale(4, 2), len(seen))
				}
			})
		}
	}
}

// replay checks a record against the rules: every move legal, the loser
// the side left without a legal cell.
func replay(tb testing.TB, r Record) {
	tb.Helper()
	b := mustBoard(tb, r.Size)
	for k, m := range r.Moves {
		if err := b.Play(m); err != nil {
			tb.Fatalf("move %d: %v in %v", k+1, err, r)
		}
	}
	if !b.Over() || b.Winner() != r.Winner {
		tb.Fatalf("after %v: over %v winner %v", r, b.Over(), b.Winner())
	}
}

func TestTunedWithAenigmaValuesIsAenigma(t *testing.T) {
	g := mustGame(t, Options{Depth: 3})
	aen := newPlayer(t, g, "aenigma", genome.Values{})
	tun := newPlayer(t, g, "tuned", Schema(9).Defaults())
	for _, oppName := range []string{"greedy", "aenigma"} {
		opp := newPlayer(t, g, oppName, genome.Values{})
		for seed := range uint64(scale(12, 2)) {
			t.Run(fmt.Sprintf("%s/seed%d", oppName, seed), func(t *testing.T) {
				if a, b := record(t, g, aen, opp, seed), record(t, g, tun, opp, seed); a.String() != b.String() {
					t.Errorf("as White:\naenigma %v\ntuned   %v", a, b)
				}
				if a, b := record(t, g, opp, aen, seed), record(t, g, opp, tun, seed); a.String() != b.String() {
					t.Errorf("as Black:\naenigma %v\ntuned   %v", a, b)
				}
			})
		}
	}
	// And the knobs are live: other values play other games.
	v, err := Schema(9).Defaults().With(ParamW1Early, genome.Value{Num: -1})
	if err != nil {
		t.Fatal(err)
	}
	other := newPlayer(t, g, "tuned", v)
	opp := newPlayer(t, g, "greedy", genome.Values{})
	if record(t, g, aen, opp, 1).String() == record(t, g, other, opp, 1).String() {
		t.Error("w1_early = -1 played the same game as aenigma")
	}
}

// TestSearchPlaysPerfectlyInEndgames gives the search enough depth to see
// to the end of small positions and checks it against a naive solver: from
// a won position it must play a winning move.
func TestSearchPlaysPerfectlyInEndgames(t *testing.T) {
	rng := fitness.NewRand(99)
	tested := 0
	for game := 0; tested < scale(60, 12) && game < 200; game++ {
		b := mustBoard(t, 4)
		for range 2 + rng.IntN(3) {
			if b.Over() {
				break
			}
			legal := b.Legal()
			_ = b.Play(legal[rng.IntN(len(legal))])
		}
		if b.Over() || !naiveOf(b).wins() {
			continue
		}
		tested++
		for _, w := range []Weights{Aenigma, {W1Early: -1, W2Late: -1, T: 5, Jitter: 100}} {
			s := searcher{b: *b, w: w, salt: uint64(game), tt: make(table, 1<<ttBits), depth: 16}
			m := s.move(b)
			after := *b
			after.place(m)
			if naiveOf(&after).wins() {
				t.Fatalf("weights %+v: %v loses from a won position\n%v", w, b.cell(m), b)
			}
		}
	}
	if tested < scale(30, 10) {
		t.Fatalf("only %d won positions tested", tested)
	}
}

func TestGreedyLeavesFewestCells(t *testing.T) {
	rng := fitness.NewRand(5)
	for game := range 10 {
		b := mustBoard(t, 9)
		m := greedyMover{fitness.NewRand(uint64(game))}
		for !b.Over() {
			pick := m.move(b)
			counts := map[int]int{}
			for _, c := range b.Legal() {
				v := naiveOf(b)
				v.play(c.Row*9 + c.Col)
				counts[c.Row*9+c.Col] = len(v.moves())
			}
			for c, n := range counts {
				if n < counts[pick] {
					t.Fatalf("greedy played %v leaving %d, %v leaves %d", b.cell(pick), counts[pick], b.cell(c), n)
				}
			}
			legal := b.Legal()
			_ = b.Play(legal[rng.IntN(len(legal))])
		}
	}
}

func TestNodeBudget(t *testing.T) {
	g := mustGame(t, Options{Depth: 6, Nodes: 3000})
	p := newPlayer(t, g, "aenigma", genome.Values{})
	s := g.newMover(p.(*Player), 1).(*searcher)
	defer s.release()
	b := mustBoard(t, 9)
	for range 10 {
		m := s.move(b)
		if s.nodes > g.opts.Nodes+1 {
			t.Fatalf("searched %d nodes on a budget of %d", s.nodes, g.opts.Nodes)
		}
		_ = b.Play(b.cell(m))
	}
	r1, r2 := record(t, g, p, p, 4), record(t, g, p, p, 4)
	if r1.String() != r2.String() {
		t.Fatalf("budgeted games differ:\n%v\n%v", r1, r2)
	}
	replay(t, r1)
}

// TestConcurrentGames plays the same players in parallel, sharing the
// Game and Player values, and wants the sequential results.
func TestConcurrentGames(t *testing.T) {
	g := mustGame(t, Options{Size: 7, Depth: 3})
	a := newPlayer(t, g, "aenigma", genome.Values{})
	b := newPlayer(t, g, "greedy", genome.Values{})
	const n = 8
	want := make([]string, n)
	for i := range want {
		want[i] = record(t, g, a, b, uint64(i)).String()
	}
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = record(t, g, a, b, uint64(i)).String() })
	}
	wg.Wait()
	if !slices.Equal(got, want) {
		t.Fatalf("parallel games differ from sequential ones")
	}
}

func TestPlayRecordRejectsForeignPlayers(t *testing.T) {
	g := mustGame(t, Options{Size: 3})
	p := newPlayer(t, g, "random", genome.Values{})
	if _, err := g.PlayRecord(p, foreign{}, 1); err == nil || !strings.Contains(err.Error(), "not a hadron player") {
		t.Fatalf("foreign player: %v", err)
	}
}

type foreign struct{}

func (foreign) Name() string { return "foreign" }

func TestNotation(t *testing.T) {
	for _, tc := range []struct {
		in   string
		size int
		want Cell
		err  bool
	}{
		{"A1", 9, Cell{0, 0}, false},
		{"i9", 9, Cell{8, 8}, false},
		{"E5", 9, Cell{4, 4}, false},
		{"K11", 11, Cell{10, 10}, false},
		{"J1", 9, Cell{}, true},
		{"A10", 9, Cell{}, true},
		{"A0", 9, Cell{}, true},
		{"5E", 9, Cell{}, true},
		{"", 9, Cell{}, true},
		{"@1", 9, Cell{}, true},  // the row before A
		{"E-1", 9, Cell{}, true}, // a negative column
		{"C3", 3, Cell{2, 2}, false},
		{"D3", 3, Cell{}, true},
		{"C4", 3, Cell{}, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseCell(tc.in, tc.size)
			if (err != nil) != tc.err || c != tc.want {
				t.Fatalf("ParseCell(%q) = %v, %v", tc.in, c, err)
			}
			if err == nil && !strings.EqualFold(c.String(), tc.in) {
				t.Fatalf("%v prints as %q", c, c.String())
			}
		})
	}
}

// TestPlayEdgesOnEverySide: the cells one step outside each of the four
// sides are refused as off the board; the cells on each side are on it.
func TestPlayEdgesOnEverySide(t *testing.T) {
	const n = 5
	for _, tc := range []struct {
		name string
		c    Cell
		on   bool
	}{
		{"top row", Cell{0, 2}, true},
		{"above the top", Cell{-1, 2}, false},
		{"bottom row", Cell{n - 1, 2}, true},
		{"below the bottom", Cell{n, 2}, false},
		{"left column", Cell{2, 0}, true},
		{"left of the left", Cell{2, -1}, false},
		{"right column", Cell{2, n - 1}, true},
		{"right of the right", Cell{2, n}, false},
		{"past the last cell", Cell{n - 1, n}, false},
		{"before the first cell", Cell{0, -1}, false},
		{"corner", Cell{n - 1, n - 1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mustBoard(t, n)
			err := b.Play(tc.c)
			if tc.on && err != nil {
				t.Fatalf("%v on an empty %dx%d board: %v", tc.c, n, n, err)
			}
			if !tc.on && (err == nil || !strings.Contains(err.Error(), "not on a 5x5 board")) {
				t.Fatalf("%v: %v, want it refused as off the board", tc.c, err)
			}
		})
	}
}

func TestBoardErrorsAndText(t *testing.T) {
	if _, err := NewBoard(2); err == nil || err.Error() != "hadron: size 2: must be at least 3" {
		t.Errorf("NewBoard(2): %v", err)
	}
	b := mustBoard(t, 5)
	if err := b.Play(Cell{2, 2}); err != nil {
		t.Fatal(err)
	}
	if err := b.Play(Cell{1, 2}); err == nil || err.Error() != "hadron: B3: not a legal cell for black" {
		t.Errorf("playing next to a lone stone: %v", err)
	}
	if err := b.Play(Cell{5, 0}); err == nil || !strings.Contains(err.Error(), "not on a 5x5 board") {
		t.Errorf("playing off the board: %v", err)
	}
	again, err := ParseBoard(b.String())
	if err != nil || again.String() != b.String() || again.hash != b.hash || again.legal != b.legal {
		t.Errorf("String does not round-trip: %v\n%v", err, b)
	}
	for _, bad := range []string{"", ". .\n. .", "...\n.x.\n...", "...\n..\n...", "to-move: red\n...\n...\n...", "colour: white\n..."} {
		if _, err := ParseBoard(bad); err == nil || !strings.HasPrefix(err.Error(), "hadron: ") {
			t.Errorf("ParseBoard(%q): %v", bad, err)
		}
	}
}

// TestUnplaceIsUndo: taking a move back with the saved derived sets
// (unplace, the search's way) leaves the very board undo does, for every
// legal move of positions along seeded random playouts.
func TestUnplaceIsUndo(t *testing.T) {
	for _, size := range []int{MinSize, 7, 9} {
		for _, start := range goldenPositions(size, 20) {
			for _, c := range start.Legal() {
				i, _ := start.index(c)
				a, b := start, start
				a.place(i)
				a.undo(i)
				saved := b.derived()
				b.place(i)
				b.unplace(i, saved)
				if a != b || a != start {
					t.Fatalf("size %d, %v after\n%v: unplace and undo differ", size, c, start.String())
				}
			}
		}
	}
}

// TestBoardSizesAndNames: the sizes at both bounds are boards, one step
// past either is refused; colours and cells off the alphabet have names.
func TestBoardSizesAndNames(t *testing.T) {
	for size, ok := range map[int]bool{MinSize - 1: false, MinSize: true, MaxSize: true, MaxSize + 1: false} {
		b, err := NewBoard(size)
		if (err == nil) != ok || (ok && b.Size() != size) {
			t.Errorf("NewBoard(%d): %v", size, err)
		}
	}
	if _, err := NewBoard(MaxSize + 1); err == nil || err.Error() != "hadron: size 12: must be at most 11" {
		t.Errorf("NewBoard(12): %v", err)
	}
	for c, want := range map[Cell]string{{0, 0}: "A1", {25, 3}: "Z4", {26, 0}: "Cell(26,0)", {-1, 2}: "Cell(-1,2)"} {
		if c.String() != want {
			t.Errorf("%#v prints as %q, want %q", c, c.String(), want)
		}
	}
	for c, want := range map[Color]string{Empty: "empty", White: "white", Black: "black", 7: "Color(7)"} {
		if c.String() != want {
			t.Errorf("colour %d: %q, want %q", c, c.String(), want)
		}
	}
	if White.Other() != Black || Black.Other() != White {
		t.Error("Other does not swap the colours")
	}
	b := mustBoard(t, 5)
	for _, c := range []Cell{{-1, 0}, {0, -1}, {5, 0}, {0, 5}} {
		if got := b.At(c); got != Empty {
			t.Errorf("At(%v) off the board = %v, want empty", c, got)
		}
	}
}

// TestGeomNeighbours compares every board size's neighbour tables and
// shifts with coordinates: corners have 2 neighbours, edges 3, the
// inside 4, none across a side.
func TestGeomNeighbours(t *testing.T) {
	for n := MinSize; n <= MaxSize; n++ {
		g := geoms[n]
		for r := range n {
			for c := range n {
				i := r*n + c
				var want bits128.Bits
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					if rr, cc := r+d[0], c+d[1]; rr >= 0 && rr < n && cc >= 0 && cc < n {
						want = want.Or(bits128.Cell(rr*n + cc))
					}
				}
				onEdge := 0
				if r == 0 || r == n-1 {
					onEdge++
				}
				if c == 0 || c == n-1 {
					onEdge++
				}
				if g.nbr[i] != want || g.around(bits128.Cell(i)) != want || int(g.deg[i]) != 4-onEdge {
					t.Fatalf("%dx%d cell (%d,%d): %d neighbours, tables disagree with coordinates", n, n, r, c, g.deg[i])
				}
				var adj bits128.Bits
				for _, j := range g.adj[i][:g.deg[i]] {
					adj = adj.Or(bits128.Cell(int(j)))
				}
				if adj != want {
					t.Fatalf("%dx%d cell (%d,%d): adj is not its neighbours", n, n, r, c)
				}
			}
		}
	}
}
