package hadron

import (
	"context"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// BenchmarkPerft9 counts 9x9 perft(5) from the empty board; nodes/s is
// counted sequences (leaves) per second.
func BenchmarkPerft9(b *testing.B) {
	board := mustBoard(b, 9)
	var leaves uint64
	for b.Loop() {
		leaves += board.Perft(5)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkSearch runs aenigma's depth-4 search on 9x9 positions ten
// random moves into a game; nodes/s counts every node negamax visits.
func BenchmarkSearch(b *testing.B) {
	var positions []Board
	rng := fitness.NewRand(1)
	for range 8 {
		p := mustBoard(b, 9)
		for range 10 {
			legal := p.Legal()
			_ = p.Play(legal[rng.IntN(len(legal))])
		}
		positions = append(positions, *p)
	}
	t := getTable()
	defer putTable(t)
	// A context that can be cancelled, as games get: the search looks at it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var nodes int64
	i := 0
	for b.Loop() {
		clear(*t)
		s := searcher{b: positions[i%len(positions)], w: Aenigma, salt: uint64(i), tt: *t, depth: 4}
		if _, err := s.choose(ctx); err != nil {
			b.Fatal(err)
		}
		nodes += s.total
		i++
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(i), "nodes/op")
}

// BenchmarkGame plays whole 9x9 games of aenigma against itself at the
// default depth 4.
func BenchmarkGame(b *testing.B) {
	g := mustGame(b, Options{})
	p, err := g.NewPlayer(fitness.Mover, "aenigma", genome.Values{})
	if err != nil {
		b.Fatal(err)
	}
	seed := uint64(0)
	var nodes int64
	for b.Loop() {
		r, _ := g.PlayRecord(p, p, seed)
		nodes += r.Nodes
		seed++
	}
	b.ReportMetric(float64(nodes)/float64(seed), "nodes/game")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerft9LastPly is 9x9 perft(5) counting only the last ply in
// bulk (no two-ply shortcut): the make/take-back speed of the board.
func BenchmarkPerft9LastPly(b *testing.B) {
	board := mustBoard(b, 9)
	var leaves uint64
	for b.Loop() {
		leaves += perftLeaf(board, 5)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "nodes/s")
}
