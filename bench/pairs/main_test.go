package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
)

// TestSummarize checks the figures against values worked by hand: four
// pairs scoring 2, 1, 1 and 0 (games 1 1, 1 0, 0 1, 0 0).
func TestSummarize(t *testing.T) {
	p := summarize(tally([]float64{1, 1, 1, 0, 0, 1, 0, 0}))
	// Pair means 1, .5, .5, 0: mean .5, sample variance (.25+0+0+.25)/3.
	// Games: mean .5, each (x-.5)^2 = .25, sample variance 8*.25/7.
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(p.score, 0.5) || !near(p.pairVar, 0.5/3) || !near(p.gameVar, 2.0/7) {
		t.Fatalf("score %v pair var %v game var %v", p.score, p.pairVar, p.gameVar)
	}
	if p.counts != [5]int{1, 0, 2, 0, 1} {
		t.Fatalf("counts %v, want one pair of 0, two of 1, one of 2", p.counts)
	}
	half := z95 * math.Sqrt(0.5/3/4)
	if !near(p.ci[0], 0.5-half) || !near(p.ci[1], 0.5+half) || p.decide != 0 {
		t.Fatalf("interval %v (half-width %v), decide %v", p.ci, half, p.decide)
	}
	// A draw pair scores 1/2 per game: index 2 of 0..4 (0, 1/2, 1, 3/2, 2).
	if q := summarize(tally([]float64{0.5, 0.5, 1, 0.5})); q.counts != [5]int{0, 0, 1, 1, 0} {
		t.Fatalf("pairs with draws: counts %v", q.counts)
	}
}

// tally counts game scores, a pair's two games side by side, as
// fitness.PlayPairs does.
func tally(scores []float64) fitness.PairTally {
	var t fitness.PairTally
	for i, s := range scores {
		switch s {
		case 1:
			t.Wins++
		case 0.5:
			t.Draws++
		default:
			t.Losses++
		}
		if i%2 == 1 {
			t.Pairs.Add(scores[i-1], s)
		}
	}
	return t
}

// TestEvalsGames: a row is eval's figures for the same players and seed:
// the same games, so the same score and pentanomial counts.
func TestEvalsGames(t *testing.T) {
	g := hadron5(t)
	rep, err := fitness.Evaluate(context.Background(), fitness.EvalRequest{Game: g, Games: 20, Seed: 7, Workers: 2,
		Players: []fitness.Contender{{Label: "a", Player: spec(t, g, "aenigma")}}, Opponents: []fitness.Contender{{Label: "b", Player: spec(t, g, "greedy")}}})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Matches[0]
	var out strings.Builder
	if err := run([]string{"-game", "hadron", "-rule", "size=5", "-rule", "depth=2", "-rule", "opening=2",
		"-player", "aenigma", "-vs", "greedy", "-pairs", "10", "-seed", "7"}, &out); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("| aenigma | greedy | %.3f | ", m.Score)
	counts := fmt.Sprintf(" | %d/%d/%d/%d/%d | ", m.Pairs[0], m.Pairs[1], m.Pairs[2], m.Pairs[3], m.Pairs[4])
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), counts) {
		t.Fatalf("eval scored %.3f with pairs %v; pairs printed\n%s", m.Score, m.Pairs, out.String())
	}
}

func hadron5(t *testing.T) fitness.Game {
	t.Helper()
	info, err := catalog.Lookup("hadron")
	if err != nil {
		t.Fatal(err)
	}
	g, err := info.New(map[string]string{"size": "5", "depth": "2", "opening": "2"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func spec(t *testing.T, g fitness.Game, s string) fitness.Player {
	t.Helper()
	p, err := fitness.ParseSpec(g, fitness.Mover, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
