package mnk

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// FuzzPlay plays random games on random boards between random players
// (tuned with random weights from its ranges) and checks that nothing
// panics, bad options are clean errors, and every game ends legally with
// the right result. Run with: go test -fuzz FuzzPlay ./fitness/mnk/
func FuzzPlay(f *testing.F) {
	f.Add(uint64(1), 3, 3, 3, uint8(0), uint8(1), 3, 0, false)
	f.Add(uint64(2), 1, 1, 1, uint8(2), uint8(2), 1, 0, false)
	f.Add(uint64(3), 9, 9, 5, uint8(3), uint8(4), 2, 300, false)
	f.Add(uint64(4), 4, 4, 4, uint8(2), uint8(4), 3, 0, false)
	f.Add(uint64(5), 12, 7, 7, uint8(4), uint8(0), 2, 50, false)
	f.Add(uint64(6), 3, 3, 7, uint8(0), uint8(0), 1, 0, false)
	f.Add(uint64(7), 11, 11, 5, uint8(0), uint8(0), 1, 0, false)
	f.Add(uint64(8), 40, 1, 4, uint8(4), uint8(3), 2, 0, false)
	f.Add(uint64(9), 3, 3, 3, uint8(2), uint8(1), 3, 0, true)
	f.Add(uint64(10), 7, 6, 4, uint8(4), uint8(3), 2, 0, true)
	f.Add(uint64(11), 10, 10, 5, uint8(3), uint8(0), 1, 0, true)
	f.Add(uint64(12), 4, 4, 4, uint8(2), uint8(4), 2, 0, true)
	f.Fuzz(func(t *testing.T, seed uint64, m, n, k int, x, o uint8, depth, nodes int, gravity bool) {
		opts := map[string]string{
			"m": strconv.Itoa(m), "n": strconv.Itoa(n), "k": strconv.Itoa(k), "gravity": strconv.FormatBool(gravity),
			"depth": strconv.Itoa(depth), "nodes": strconv.Itoa(nodes),
		}
		g, err := Info.New(opts)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mnk: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		gm := g.(*Game)
		// Keep each input fast: deep searches of big boards are for
		// benchmarks, not fuzzing.
		if depth > 2 && gm.g.cells > 30 || depth > 4 {
			t.Skip()
		}
		rng := fitness.NewRand(seed)
		a := fuzzPlayer(t, gm, x, rng)
		b := fuzzPlayer(t, gm, o, rng)
		out, moves := gm.play(a, b, seed, true)
		checkGame(t, gm, out, moves)
	})
}

// fuzzPlayer builds strategy i (mod the count); perfect only on boards
// small enough to solve in a moment, tuned with random weights.
func fuzzPlayer(t *testing.T, gm *Game, i uint8, rng interface{ Float64() float64 }) fitness.Player {
	s := strategy(int(i)%(len(strategies)-1) + 1)
	if s == perfectPlay && gm.g.cells > 12 {
		s = greedyPlay
	}
	params := gm.tuned.Defaults()
	if s == tunedPlay {
		for _, p := range gm.tuned {
			u := rng.Float64()
			x := p.Min + u*(p.Max-p.Min)
			if p.Log {
				x = p.Min * math.Pow(p.Max/p.Min, u)
			}
			x = min(max(x, p.Min), p.Max) // rounding of Pow
			var err error
			if params, err = params.With(p.Name, genome.Value{Num: x}); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := gm.NewPlayer(fitness.Mover, s.String(), params)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkGame replays moves on the naive board: each on a legal cell, none
// after the game ended, and the outcome what the final board says.
func checkGame(t *testing.T, gm *Game, out fitness.Outcome, moves []int) {
	t.Helper()
	r := gm.g.Rules
	b := newNaive(r)
	var over, won bool
	for i, mv := range moves {
		row, col := gm.g.rowCol(mv)
		if over {
			t.Fatalf("move %d after the game ended", i)
		}
		if row >= r.N || col >= r.M || !slices.Contains(b.moves(), row*r.M+col) {
			t.Fatalf("move %d to (%d,%d): not a legal cell", i, row, col)
		}
		over, won = b.set(row*r.M + col)
	}
	var want fitness.Outcome
	switch {
	case !over:
		t.Fatalf("the game stopped after %d moves, unfinished", len(moves))
	case !won:
		want = fitness.Draw
	case len(moves)%2 == 1:
		want = fitness.Win // X made the last move
	default:
		want = fitness.Loss
	}
	if out != want {
		t.Fatalf("outcome %v, the board says %v", out, want)
	}
}
