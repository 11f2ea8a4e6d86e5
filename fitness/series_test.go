package fitness_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// countdownGame is a toy series game: a player's cost in game j of a
// series is 10 - j (it learns) plus a coin from the series seed, so the
// curve is known exactly.
type countdownGame struct{ coinGame }

func (countdownGame) Solo() fitness.Solo { return fitness.Solo{Measure: "flips"} }
func (countdownGame) PlaySolo(_ context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	return float64(fitness.NewRand(seed).IntN(2)), nil
}
func (g countdownGame) PlaySeries(_ context.Context, p fitness.Player, games int, seed uint64) ([]float64, error) {
	out := make([]float64, games)
	coin := float64(fitness.NewRand(seed).IntN(2))
	for j := range out {
		out[j] = 10 - float64(j) + coin
	}
	return out, nil
}

func TestEvaluateSeries(t *testing.T) {
	g := countdownGame{}
	fair, _ := g.NewPlayer(fitness.Mover, "fair", genome.Values{})
	req := fitness.SeriesRequest{Game: g, Players: []fitness.Contender{{Label: "fair", Player: fair}}, Series: 40, Length: 12, Seed: 3, Workers: 1}
	one, err := fitness.EvaluateSeries(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	req.Workers = 3
	three, err := fitness.EvaluateSeries(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, three) {
		t.Fatal("the report depends on the worker count")
	}
	p := one.Players[0]
	if len(p.ByGame) != 12 || p.Overall.N != 40*12 {
		t.Fatalf("%d games by index, %d overall; want 12 and 480", len(p.ByGame), p.Overall.N)
	}
	// Each game index has the same coin offset: the curve falls by 1 a game.
	for j := 1; j < 12; j++ {
		if d := p.ByGame[j-1].Mean - p.ByGame[j].Mean; d < 0.999 || d > 1.001 {
			t.Fatalf("game %d to %d: mean falls by %v, want 1", j, j+1, d)
		}
	}
	var blocks [][2]int
	for _, b := range p.Blocks {
		blocks = append(blocks, [2]int{b.From, b.To})
	}
	want := [][2]int{{1, 1}, {2, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}}
	if !reflect.DeepEqual(blocks, want) {
		t.Fatalf("blocks %v, want %v", blocks, want)
	}
	if m := (p.ByGame[2].Mean + p.ByGame[3].Mean) / 2; p.Blocks[2].Summary.N != 80 || math.Abs(p.Blocks[2].Summary.Mean-m) > 1e-9 {
		t.Fatalf("block 3-4: %+v", p.Blocks[2].Summary)
	}
	if _, err := fitness.EvaluateSeries(context.Background(), fitness.SeriesRequest{Game: g, Series: 0, Length: 3}); err == nil {
		t.Fatal("no series: want an error")
	}
}

// TestEvaluateSeriesProgress: progress counts games over all players, in
// whole series: at one worker, player k's series finish at k*S*L + L,
// + 2L, ..., up to (k+1)*S*L.
func TestEvaluateSeriesProgress(t *testing.T) {
	g := countdownGame{}
	fair, _ := g.NewPlayer(fitness.Mover, "fair", genome.Values{})
	const series, length = 3, 5
	var got []int
	req := fitness.SeriesRequest{Game: g, Players: []fitness.Contender{{Label: "a", Player: fair}, {Label: "b", Player: fair}},
		Series: series, Length: length, Seed: 3, Workers: 1, Progress: func(done int) { got = append(got, done) }}
	if _, err := fitness.EvaluateSeries(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var want []int
	for done := length; done <= 2*series*length; done += length {
		want = append(want, done)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("progress %v, want %v", got, want)
	}
}
