package mnk

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestPlayersTable(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{})
	var names []string
	for _, pi := range gm.Players() {
		names = append(names, pi.Name)
		if pi.Role != fitness.Mover || pi.Summary == "" {
			t.Errorf("%s: role %v, summary %q", pi.Name, pi.Role, pi.Summary)
		}
		if pi.Tunable() != (pi.Name == "tuned") {
			t.Errorf("%s: tunable = %v", pi.Name, pi.Tunable())
		}
		_, err := gm.NewPlayer(fitness.Mover, pi.Name, pi.Schema.Defaults())
		if (err != nil) != (pi.Name == "perfect") { // 81 cells are too many to solve
			t.Errorf("%s: error %v", pi.Name, err)
		}
	}
	if got, want := strings.Join(names, " "), "random greedy perfect classic tuned"; got != want {
		t.Errorf("players %q, want %q", got, want)
	}
}

// match is one game of the golden file.
type match struct {
	rules  Rules
	limits Limits
	x, o   string
	seed   uint64
}

var goldenMatches = []match{
	{TicTacToe, Limits{}, "perfect", "random", 1},
	{TicTacToe, Limits{}, "random", "perfect", 2},
	{TicTacToe, Limits{}, "greedy", "random", 3},
	{TicTacToe, Limits{}, "classic", "tuned", 4},
	{Rules{M: 4, N: 4, K: 3}, Limits{}, "perfect", "perfect", 5},
	{Rules{M: 4, N: 4, K: 4}, Limits{}, "perfect", "greedy", 6},
	{Rules{M: 7, N: 6, K: 4}, Limits{Depth: 2}, "classic", "tuned", 7},
	{Rules{M: 9, N: 9, K: 5}, Limits{Depth: 2}, "tuned", "classic", 8},
	{Rules{M: 9, N: 9, K: 5}, Limits{}, "greedy", "tuned", 9},
	{Rules{M: 5, N: 5, K: 4}, Limits{Depth: 8, Nodes: 400}, "tuned", "tuned", 10},
	{Rules{M: 12, N: 7, K: 5}, Limits{Depth: 1}, "tuned", "random", 11},
	{Rules{M: 3, N: 3, K: 3, Gravity: true}, Limits{}, "perfect", "random", 12},
	{ConnectFour, Limits{Depth: 4}, "tuned", "classic", 13},
	{ConnectFour, Limits{Depth: 2}, "greedy", "tuned", 14},
	{Rules{M: 10, N: 10, K: 5, Gravity: true}, Limits{Depth: 2}, "classic", "random", 15},
	{ConnectFour, Limits{Depth: 4, Opening: 4}, "classic", "tuned", 16},
}

// record plays m and writes it as one line: the match, the outcome for X
// and the moves as row,column.
func (m match) record(tb testing.TB) string {
	gm := mustGame(tb, m.rules, m.limits)
	out, moves := gm.play(mustPlayer(tb, gm, m.x), mustPlayer(tb, gm, m.o), m.seed, true)
	var b strings.Builder
	fmt.Fprintf(&b, "%v depth=%d nodes=%d %s-%s seed=%d", m.rules, gm.limits.Depth, m.limits.Nodes, m.x, m.o, m.seed)
	if m.limits.Opening > 0 {
		fmt.Fprintf(&b, " opening=%d", m.limits.Opening)
	}
	fmt.Fprintf(&b, " %v:", out)
	for _, mv := range moves {
		r, c := gm.g.rowCol(mv)
		fmt.Fprintf(&b, " %d,%d", r, c)
	}
	return b.String()
}

// TestGoldenGames pins whole games: any change to the rules, the players or
// the way seeds are used shows up here. Rewrite with -update after a
// deliberate change.
func TestGoldenGames(t *testing.T) {
	var lines []string
	for _, m := range goldenMatches {
		lines = append(lines, m.record(t))
	}
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "games.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	wantLines := strings.Split(string(want), "\n")
	for i, line := range lines {
		if i >= len(wantLines) || line != wantLines[i] {
			w := "(missing)"
			if i < len(wantLines) {
				w = wantLines[i]
			}
			t.Errorf("game %d:\n got %s\nwant %s", i, line, w)
		}
	}
	if len(lines)+1 != len(wantLines) {
		t.Errorf("%d games, golden file has %d", len(lines), len(wantLines)-1)
	}
}

// TestPlayConcurrently plays the same games on one goroutine and on four,
// sharing players and games: results must not depend on scheduling or on
// what pooled scratch space held before (run with -race).
func TestPlayConcurrently(t *testing.T) {
	type setup struct {
		gm      *Game
		players []fitness.Player
	}
	var setups []setup
	for _, r := range []Rules{TicTacToe, {M: 4, N: 4, K: 3}, {M: 7, N: 6, K: 4}, ConnectFour, {M: 4, N: 4, K: 3, Gravity: true}} {
		gm := mustGame(t, r, Limits{Depth: 2})
		s := setup{gm: gm}
		for _, pi := range gm.Players() {
			if p, err := gm.NewPlayer(fitness.Mover, pi.Name, pi.Schema.Defaults()); err == nil { // no perfect on 7x6
				s.players = append(s.players, p)
			}
		}
		setups = append(setups, s)
	}
	const n = 150
	game := func(i int) (fitness.Outcome, error) {
		s := setups[i%len(setups)]
		a := s.players[(i/3)%len(s.players)]
		b := s.players[(i/15)%len(s.players)]
		return s.gm.Play(context.Background(), a, b, fitness.Derive(42, uint64(i)))
	}
	serial, _ := fitness.Parallel(context.Background(), n, 1, game, nil)
	parallel, _ := fitness.Parallel(context.Background(), n, 4, game, nil)
	for i := range serial {
		if serial[i] != parallel[i] {
			t.Errorf("game %d: %v on one worker, %v on four", i, serial[i], parallel[i])
		}
	}
}

func TestSeedsVaryGames(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{Depth: 1})
	for _, name := range []string{"random", "greedy", "tuned"} {
		t.Run(name, func(t *testing.T) {
			p := mustPlayer(t, gm, name)
			seen := map[string]bool{}
			for seed := range uint64(10) {
				_, moves := gm.play(p, p, seed, true)
				seen[fmt.Sprint(moves)] = true
			}
			if len(seen) < 5 {
				t.Errorf("10 seeds gave %d distinct games", len(seen))
			}
		})
	}
}

func TestPlayRejectsForeignPlayers(t *testing.T) {
	small := mustGame(t, TicTacToe, Limits{})
	big := mustGame(t, Rules{M: 4, N: 4, K: 3}, Limits{})
	tests := []struct {
		name string
		p    fitness.Player
		want string
	}{
		{"other rules", mustPlayer(t, big, "greedy"), "mnk: greedy player was built for 4,4,3, not 3,3,3"},
		{"other game", stranger{}, "mnk: player mnk.stranger is not an mnk player"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := small.Play(context.Background(), tc.p, mustPlayer(t, small, "random"), 1)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

type stranger struct{}

func (stranger) Name() string { return "stranger" }

// TestOpening: a random opening makes deterministic players meet in
// varied games, is the same for both games of a colour-swapped pair (they
// share the seed), and never ends a game itself.
func TestOpening(t *testing.T) {
	distinct := func(opening int) int {
		gm := mustGame(t, ConnectFour, Limits{Depth: 2, Opening: opening})
		c := mustPlayer(t, gm, "classic")
		seen := map[string]bool{}
		for seed := range uint64(40) {
			out, moves := gm.play(c, c, seed, true)
			checkGame(t, gm, out, moves)
			seen[fmt.Sprint(moves)] = true
		}
		return len(seen)
	}
	if without, with := distinct(0), distinct(4); without > 10 || with < 35 {
		t.Errorf("classic self-play, 40 seeds: %d distinct games without an opening, %d with 4 random plies; want few, then nearly all", without, with)
	}

	gm := mustGame(t, ConnectFour, Limits{Depth: 2, Opening: 6})
	a, b := mustPlayer(t, gm, "classic"), mustPlayer(t, gm, "tuned")
	for seed := range uint64(20) {
		_, first := gm.play(a, b, seed, true)
		_, second := gm.play(b, a, seed, true)
		if !slices.Equal(first[:6], second[:6]) {
			t.Fatalf("seed %d: openings %v and %v differ between the games of a pair", seed, first[:6], second[:6])
		}
	}

	// An opening as long as the board: the players still get the last
	// move, and no game is decided before they do.
	small := mustGame(t, Rules{M: 3, N: 3, K: 3, Gravity: true}, Limits{Opening: 64})
	r := mustPlayer(t, small, "random")
	for seed := range uint64(50) {
		out, moves := small.play(r, r, seed, true)
		checkGame(t, small, out, moves)
	}
}
