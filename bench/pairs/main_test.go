package main

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
)

// TestSummarize checks the figures against values worked by hand: four
// pairs scoring 2, 1, 1 and 0 (games 1 1, 1 0, 0 1, 0 0).
func TestSummarize(t *testing.T) {
	p := summarize([]float64{1, 1, 1, 0, 0, 1, 0, 0})
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
	if q := summarize([]float64{0.5, 0.5, 1, 0.5}); q.counts != [5]int{0, 0, 1, 1, 0} {
		t.Fatalf("pairs with draws: counts %v", q.counts)
	}
}

// TestEvalsGames: the games played are eval's (fitness.PlayPairs on the
// seed eval derives), so a row here and `evotune eval` agree.
func TestEvalsGames(t *testing.T) {
	info, err := catalog.Lookup("hadron")
	if err != nil {
		t.Fatal(err)
	}
	g, err := info.New(map[string]string{"size": "5", "depth": "2", "opening": "2"})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := fitness.ParseSpec(g, fitness.Mover, "aenigma")
	b, _ := fitness.ParseSpec(g, fitness.Mover, "greedy")
	scores, err := gameScores(context.Background(), g, a, b, 50, 7, 2)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := fitness.Evaluate(context.Background(), fitness.EvalRequest{Game: g, Games: 100, Seed: 7, Workers: 2,
		Players: []fitness.Contender{{Label: "a", Player: a}}, Opponents: []fitness.Contender{{Label: "b", Player: b}}})
	if err != nil {
		t.Fatal(err)
	}
	var wins float64
	for _, s := range scores {
		wins += s
	}
	if int(wins) != rep.Matches[0].Wins || len(scores) != rep.Matches[0].Games {
		t.Fatalf("%v wins in %d games, eval has %d in %d", wins, len(scores), rep.Matches[0].Wins, rep.Matches[0].Games)
	}
	var out strings.Builder
	if err := run([]string{"-game", "hadron", "-rule", "size=5", "-player", "aenigma", "-vs", "greedy", "-pairs", "10"}, &out); err != nil ||
		!strings.Contains(out.String(), "| aenigma | greedy |") {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
}
