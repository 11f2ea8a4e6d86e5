package hadron

import (
	"context"
	"runtime"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/cputime"
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

// BenchmarkSearch runs the depth-4 search on 9x9 positions ten random
// moves into a game, with Aenigma's evaluation and with each term of the
// tuned one switched on (weights=...); nodes/s counts every node negamax
// visits; cpu-ns/node is the thread's CPU time per node, which a busy
// machine does not inflate (wall time counts waiting for a core). The
// same positions and seeds for every evaluation, so
//
//	go test ./fitness/hadron -run '^$' -bench 'Search$' -count 10 > new.txt
//	benchstat -col /weights new.txt
//
// gives each evaluation's time per node as a ratio to Aenigma's (a term
// also changes which nodes are visited, so sec/op moves with nodes/op:
// compare cpu-ns/node).
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
	with := func(e Extra) Weights { w := Aenigma; w.Early, w.Late = e, e; return w }
	for _, tc := range []struct {
		name string
		w    Weights
	}{
		{"aenigma", Aenigma},
		{"mobility", with(Extra{Mobility: 0.05})},
		{"lead", with(Extra{Lead: 0.5})},
		{"unlock", with(Extra{Unlock: 0.2})},
		{"regions", with(Extra{Regions: 0.5})},
		{"all", with(Extra{Mobility: 0.05, Lead: 0.5, Unlock: 0.2, Regions: 0.5})},
	} {
		b.Run("weights="+tc.name, func(b *testing.B) {
			t := getTable()
			defer putTable(t)
			// A context that can be cancelled, as games get: the search looks at it.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var nodes int64
			i := 0
			var nimbers *nimberCache
			runtime.LockOSThread() // cputime.Thread times this thread
			defer runtime.UnlockOSThread()
			start := cputime.Thread()
			for b.Loop() {
				clear(*t)
				s := searcher{b: positions[i%len(positions)], w: tc.w, salt: uint64(i), tt: *t, depth: 4, nimbers: nimbers}
				s.useWeights()
				if _, err := s.choose(ctx); err != nil {
					b.Fatal(err)
				}
				nimbers = s.nimbers // a game's cache lives for the game
				nodes += s.total
				i++
			}
			cpu := cputime.Thread() - start
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(nodes), "cpu-ns/node")
			b.ReportMetric(float64(nodes)/float64(i), "nodes/op")
		})
	}
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
