package mnk

import (
	"testing"
)

// Benchmarks. Keep runs short on a shared machine, e.g.
//
//	go test -run '^$' -bench . -benchtime 3x ./fitness/mnk/

// BenchmarkPerft reports nodes/s, every sequence perft counts, and made/s,
// the moves actually made: the last ply is counted from the free cells
// without being played, which flatters nodes/s on wide boards.
func BenchmarkPerft(b *testing.B) {
	tests := []struct {
		name  string
		rules Rules
		depth int
	}{
		{"3,3,3 depth 9", TicTacToe, 9},
		{"4,4,4 depth 6", Rules{M: 4, N: 4, K: 4}, 6},
		{"9,9,5 depth 4", Rules{M: 9, N: 9, K: 5}, 4},
	}
	for _, tc := range tests {
		b.Run(tc.name, func(b *testing.B) {
			gm := mustGame(b, tc.rules, Limits{})
			var nodes, made uint64
			for b.Loop() {
				counts := gm.Perft(tc.depth)
				for i, c := range counts {
					nodes += c
					if i < len(counts)-1 {
						made += c
					}
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(made)/b.Elapsed().Seconds(), "made/s")
		})
	}
}

// BenchmarkSolve times the exact value of every first move from the empty
// board with an empty table: what perfect's first move costs in a fresh
// process.
func BenchmarkSolve(b *testing.B) {
	for _, r := range []Rules{TicTacToe, {M: 4, N: 4, K: 3}, {M: 4, N: 4, K: 4}} {
		b.Run(r.String(), func(b *testing.B) {
			gm := mustGame(b, r, Limits{})
			var nodes int64
			for b.Loop() {
				s := &solver{gm: gm, g: gm.g, tt: make([]solverEntry, 1<<solverTableBits(gm.g.cells))}
				var p position
				for _, c := range gm.g.order {
					s.moveValue(&p, c)
				}
				nodes += s.nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
		})
	}
}

// BenchmarkGame995 plays whole 9,9,5 games at the default depth.
func BenchmarkGame995(b *testing.B) {
	for _, pair := range [][2]string{{"tuned", "tuned"}, {"tuned", "classic"}} {
		b.Run(pair[0]+"-"+pair[1], func(b *testing.B) {
			gm := mustGame(b, Rules{M: 9, N: 9, K: 5}, Limits{})
			x, o := mustPlayer(b, gm, pair[0]), mustPlayer(b, gm, pair[1])
			moves, seed := 0, uint64(0)
			for b.Loop() {
				_, mv := gm.play(x, o, seed, true)
				moves += len(mv)
				seed++
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
		})
	}
}
