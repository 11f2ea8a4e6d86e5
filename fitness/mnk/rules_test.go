package mnk

import (
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

func TestOptions(t *testing.T) {
	tests := []struct {
		name   string
		opts   map[string]string
		rules  Rules
		limits Limits
		err    string // substring of the error; "" for none
	}{
		{name: "defaults", opts: nil, rules: TicTacToe, limits: Limits{Depth: defaultDepth}},
		{name: "gomoku 9x9", opts: map[string]string{"m": "9", "n": "9", "k": "5", "depth": "2", "nodes": "5000"},
			rules: Rules{M: 9, N: 9, K: 5}, limits: Limits{Depth: 2, Nodes: 5000}},
		{name: "connect four board", opts: map[string]string{"m": "7", "n": "6", "k": "4"}, rules: Rules{M: 7, N: 6, K: 4}, limits: Limits{Depth: defaultDepth}},
		{name: "connect four", opts: map[string]string{"m": "7", "n": "6", "k": "4", "gravity": "true"}, rules: ConnectFour, limits: Limits{Depth: defaultDepth}},
		{name: "seed 003", opts: map[string]string{"gravity": "1"}, rules: Rules{M: 3, N: 3, K: 3, Gravity: true}, limits: Limits{Depth: defaultDepth}},
		{name: "gravity off", opts: map[string]string{"gravity": "false"}, rules: TicTacToe, limits: Limits{Depth: defaultDepth}},
		{name: "connect four with an opening", opts: map[string]string{"m": "7", "n": "6", "k": "4", "gravity": "true", "opening": "4"}, rules: ConnectFour, limits: Limits{Depth: defaultDepth, Opening: 4}},
		{name: "opening as long as the board", opts: map[string]string{"opening": "9"}, err: "mnk: opening 9 leaves no move to the players on the 3x3 board: at most 8"},
		{name: "opening past the board", opts: map[string]string{"m": "1", "n": "1", "k": "1", "gravity": "true", "opening": "64"}, err: "mnk: opening 64 leaves no move to the players on the 1x1 board: at most 0"},
		{name: "opening one short of the board", opts: map[string]string{"opening": "8"}, rules: TicTacToe, limits: Limits{Depth: defaultDepth, Opening: 8}},
		{name: "negative opening", opts: map[string]string{"opening": "-1"}, err: "mnk: opening -1 is outside [0, 64]"},
		{name: "gravity not a boolean", opts: map[string]string{"gravity": "down"}, err: `mnk: option gravity: "down" is not true or false`},
		{name: "largest square", opts: map[string]string{"m": "10", "n": "10", "k": "5"}, rules: Rules{M: 10, N: 10, K: 5}, limits: Limits{Depth: defaultDepth}},
		{name: "k too long", opts: map[string]string{"k": "7"}, err: "mnk: k 7 exceeds the board 3x3"},
		{name: "k zero", opts: map[string]string{"k": "0"}, err: "mnk: k 0"},
		{name: "no columns", opts: map[string]string{"m": "0"}, err: "mnk: m 0"},
		{name: "negative rows", opts: map[string]string{"n": "-2"}, err: "mnk: n -2"},
		{name: "board too large", opts: map[string]string{"m": "11", "n": "11"}, err: "mnk: board 11x11 is too large"},
		{name: "huge board", opts: map[string]string{"m": "9223372036854775807", "n": "2"}, err: "is too large"},
		{name: "unknown option", opts: map[string]string{"size": "3"}, err: `mnk: unknown option "size"`},
		{name: "not a number", opts: map[string]string{"m": "three"}, err: `mnk: m "three": not a whole number`},
		{name: "depth one", opts: map[string]string{"depth": "1"}, rules: TicTacToe, limits: Limits{Depth: 1}},
		{name: "depth at the limit", opts: map[string]string{"depth": "64"}, rules: TicTacToe, limits: Limits{Depth: 64}},
		{name: "depth zero", opts: map[string]string{"depth": "0"}, err: "mnk: depth 0 is outside [1, 64]"},
		{name: "negative nodes", opts: map[string]string{"nodes": "-1"}, err: "mnk: nodes -1 is outside [0, 1000000000]"},
		{name: "nodes above the limit", opts: map[string]string{"nodes": "1000000001"}, err: "mnk: nodes 1000000001 is outside [0, 1000000000]"},
		{name: "all errors at once", opts: map[string]string{"bogus": "1", "depth": "x"}, err: `"bogus" (want m, n, k, gravity, depth, opening or nodes)` + "\n" + `mnk: depth "x": not a whole number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Info.New(tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want one containing %q", err, tc.err)
				}
				if g != nil {
					t.Error("a game came back with the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gm := g.(*Game)
			if gm.Rules() != tc.rules || gm.Limits() != tc.limits {
				t.Errorf("got %v %+v, want %v %+v", gm.Rules(), gm.Limits(), tc.rules, tc.limits)
			}
		})
	}
}

func TestInfoListsEveryOption(t *testing.T) {
	var names []string
	for _, o := range Info.Options {
		names = append(names, o.Name+"="+o.Default)
	}
	if got, want := strings.Join(names, " "), "m=3 n=3 k=3 gravity=false depth=3 opening=0 nodes=0"; got != want {
		t.Errorf("options %q, want %q", got, want)
	}
	// Every listed default must parse back to the defaults.
	opts := map[string]string{}
	for _, o := range Info.Options {
		opts[o.Name] = o.Default
	}
	if _, err := Info.New(opts); err != nil {
		t.Error(err)
	}
}

// TestLinesMatchNaive checks line and threat detection against the naive
// scan on random positions of many boards, including ones whose runs
// would wrap from one row into the next without the spare column.
func TestLinesMatchNaive(t *testing.T) {
	boards := []Rules{{M: 3, N: 3, K: 3}, {M: 4, N: 4, K: 3}, {M: 5, N: 5, K: 4}, {M: 7, N: 6, K: 4}, {M: 9, N: 9, K: 5}, {M: 10, N: 10, K: 5}, {M: 15, N: 7, K: 7},
		{M: 1, N: 9, K: 4}, {M: 9, N: 1, K: 4}, {M: 2, N: 6, K: 2}, {M: 6, N: 2, K: 2}, {M: 3, N: 3, K: 1}, {M: 10, N: 10, K: 10}, {M: 127, N: 1, K: 20}}
	for _, r := range boards {
		t.Run(r.String(), func(t *testing.T) {
			g := mustGame(t, r, Limits{}).g
			rng := fitness.NewRand(uint64(r.M*1000 + r.N*10 + r.K))
			for range 300 {
				b := newNaive(r)
				for i := range b.cells {
					b.cells[i] = int8(rng.IntN(3))
				}
				p := b.position(g)
				free := g.free(&p)
				for who := int8(1); who <= 2; who++ {
					if got, want := g.hasLine(p.marks[who-1]), b.hasLine(who); got != want {
						t.Fatalf("hasLine(%d) = %v, naive %v on\n%s", who, got, want, g.format(&p))
					}
					wins := g.wins(p.marks[who-1], free)
					for i := range b.cells {
						bit := g.bit(i/r.M, i%r.M)
						want := b.cells[i] == 0 && b.runThrough(i, who) >= r.K
						if got := wins.Has(bit); got != want {
							t.Fatalf("wins(%d) has cell %d = %v, naive %v on\n%s", who, i, got, want, g.format(&p))
						}
					}
				}
			}
		})
	}
}

func TestEnumsHaveNames(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"X", X.String(), "X"},
		{"O", O.String(), "O"},
		{"bad side", side(7).String(), "side(7)"},
		{"strategy", perfectPlay.String(), "perfect"},
		{"bad strategy", strategy(99).String(), "strategy(99)"},
		{"run kind", halfOpen.String(), "half"},
		{"bad run kind", runKind(5).String(), "runKind(5)"},
		{"bound", lowerBound.String(), "lower"},
		{"bad bound", bound(0).String(), "bound(0)"},
		{"rules", Rules{M: 9, N: 9, K: 5}.String(), "9,9,5"},
		{"gravity rules", ConnectFour.String(), "7,6,4 gravity"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

// TestTunedSummaries: the run weights' summaries, as `evotune games mnk`
// lists them, read as English.
func TestTunedSummaries(t *testing.T) {
	tests := []struct{ name, want string }{
		{"own_open_1", "worth of an open run of 1 of the side to move"},
		{"own_half_2", "worth of a half-open run of 2 of the side to move"},
		{"opp_open_2", "worth of an open run of 2 of the side that just moved"},
	}
	schema := tunedSchema(TicTacToe)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := schema.Lookup(tc.name)
			if !ok || p.Summary != tc.want {
				t.Errorf("summary %q, want %q", p.Summary, tc.want)
			}
		})
	}
}
