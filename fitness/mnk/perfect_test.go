package mnk

import (
	"fmt"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/internal/playtest"
	"github.com/evotune/evotune/genome"
)

// mustPlayer builds a player with default parameters or stops the test.
func mustPlayer(tb testing.TB, gm *Game, name string) fitness.Player {
	tb.Helper()
	var params genome.Values
	if name == tunedPlay.String() {
		params = gm.tuned.Defaults()
	}
	p, err := gm.NewPlayer(fitness.Mover, name, params)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestSolverMatchesNaiveMinimax compares the value the solver gives every
// move of random positions with plain minimax. One solver serves all
// positions, as a pooled one does, so what its table kept from earlier
// positions must stay true.
func TestSolverMatchesNaiveMinimax(t *testing.T) {
	for _, r := range []Rules{TicTacToe, {M: 4, N: 3, K: 3}, {M: 3, N: 4, K: 3}, {M: 4, N: 3, K: 4}, {M: 3, N: 3, K: 2},
		{M: 3, N: 3, K: 3, Gravity: true}, {M: 4, N: 3, K: 3, Gravity: true}, {M: 3, N: 4, K: 3, Gravity: true},
		{M: 4, N: 4, K: 3, Gravity: true}, {M: 5, N: 4, K: 4, Gravity: true}} {
		t.Run(r.String(), func(t *testing.T) {
			gm := mustGame(t, r, Limits{})
			s := gm.newSolverMover(fitness.NewRand(1))
			defer s.release()
			rng := fitness.NewRand(uint64(r.Cells()))
			minPly := max(1, r.Cells()-7) // keep plain minimax cheap
			for range 60 {
				b := newNaive(r)
				b.playRandom(rng, minPly+rng.IntN(r.Cells()-minPly))
				p := b.position(gm.g)
				for _, i := range b.moves() {
					over, won := b.set(i)
					want := 1
					if !won {
						want = 0
						if !over {
							want = -b.value()
						}
					}
					b.unset(i)
					if got := s.moveValue(&p, gm.g.bit(i/r.M, i%r.M)); int(got) != want {
						t.Fatalf("value of cell %d = %d, minimax %d on\n%s", i, got, want, gm.g.format(&p))
					}
				}
			}
		})
	}
}

func TestPerfectNeverLoses(t *testing.T) {
	const games = 1000
	gm := mustGame(t, TicTacToe, Limits{})
	perfect := mustPlayer(t, gm, "perfect")
	for _, opp := range []string{"random", "greedy", "perfect"} {
		for _, asX := range []bool{true, false} {
			t.Run(fmt.Sprintf("vs %s as %v", opp, map[bool]side{true: X, false: O}[asX]), func(t *testing.T) {
				other := mustPlayer(t, gm, opp)
				var tally fitness.Tally
				for seed := range uint64(games) {
					if asX {
						tally.Add(playtest.MustPlay(gm, perfect, other, seed))
					} else {
						tally.Add(playtest.MustPlay(gm, other, perfect, seed).Flip())
					}
				}
				if tally.Losses > 0 {
					t.Errorf("perfect lost %d of %d games", tally.Losses, games)
				}
				if opp == "perfect" && tally.Draws != games {
					t.Errorf("perfect against itself: %+v, want only draws", tally)
				}
				t.Logf("%+v", tally)
			})
		}
	}
}

// TestPerfectKnownResults checks perfect self-play against solved games:
// k=3 is a first-player win on boards of at least 4x3 (so 4,4,3 is), and
// 3,3,3 and 4,4,4 are draws.
func TestPerfectKnownResults(t *testing.T) {
	tests := []struct {
		rules Rules
		want  fitness.Outcome
	}{
		{TicTacToe, fitness.Draw},
		{Rules{M: 4, N: 4, K: 3}, fitness.Win},
		{Rules{M: 4, N: 3, K: 3}, fitness.Win},
		{Rules{M: 3, N: 4, K: 3}, fitness.Win},
		{Rules{M: 4, N: 4, K: 4}, fitness.Draw},
		{Rules{M: 3, N: 3, K: 2}, fitness.Win},
		{Rules{M: 2, N: 2, K: 2}, fitness.Win},
		{Rules{M: 1, N: 1, K: 1}, fitness.Win},
		{Rules{M: 3, N: 1, K: 2}, fitness.Win},
		{Rules{M: 4, N: 1, K: 2}, fitness.Win}, // X in a middle cell threatens both sides
		{Rules{M: 2, N: 1, K: 2}, fitness.Draw},
		{Rules{M: 3, N: 3, K: 3, Gravity: true}, fitness.Draw}, // seed 003
	}
	for _, tc := range tests {
		t.Run(tc.rules.String(), func(t *testing.T) {
			gm := mustGame(t, tc.rules, Limits{})
			p := mustPlayer(t, gm, "perfect")
			for seed := range uint64(3) {
				if got := playtest.MustPlay(gm, p, p, seed); got != tc.want {
					t.Errorf("seed %d: perfect self-play = %v, want %v", seed, got, tc.want)
				}
			}
		})
	}
}

// TestPerfectVariesAmongEqualMoves: every first move of tic-tac-toe
// draws, so perfect's first move must spread over the board.
func TestPerfectVariesAmongEqualMoves(t *testing.T) {
	gm := mustGame(t, TicTacToe, Limits{})
	p := mustPlayer(t, gm, "perfect")
	firsts := map[int]int{}
	for seed := range uint64(200) {
		_, moves := gm.play(p, p, seed, true)
		firsts[moves[0]]++
	}
	if len(firsts) != 9 {
		t.Errorf("first moves over 200 games: %v, want all 9 cells", firsts)
	}
}

func TestPerfectRefusesLargeBoards(t *testing.T) {
	gm := mustGame(t, Rules{M: 9, N: 9, K: 5}, Limits{})
	_, err := gm.NewPlayer(fitness.Mover, "perfect", genome.Values{})
	want := "mnk: perfect: board 9x9 has 81 cells, more than the 20 it can solve"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}
