package mnk

import (
	"fmt"
	"testing"

	"github.com/evotune/evotune/fitness"
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
		{"connect four depth 9", ConnectFour, 9},
		{"10,10,5 gravity depth 6 (general path)", Rules{M: 10, N: 10, K: 5, Gravity: true}, 6},
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

// BenchmarkSearchConnectFour times classic and tuned choosing a move on
// Connect Four at depths 4 and 6, from the empty board and from a
// middlegame, and reports nodes/s: the search speed per position.
func BenchmarkSearchConnectFour(b *testing.B) {
	middle := []int{3, 3, 2, 4, 4, 2, 5, 1} // columns played, from the left
	for _, name := range []string{"classic", "tuned"} {
		for _, depth := range []int{4, 6} {
			for _, start := range []struct {
				name  string
				moves []int
			}{{"empty", nil}, {"middlegame", middle}} {
				b.Run(fmt.Sprintf("%s/depth %d/%s", name, depth, start.name), func(b *testing.B) {
					gm := mustGame(b, ConnectFour, Limits{Depth: depth})
					pl := gm.own(mustPlayer(b, gm, name))
					var p position
					for _, col := range start.moves {
						legal := gm.g.moves(&p)
						for row := range gm.g.N {
							if c := gm.g.bit(row, col); legal.Has(c) {
								gm.g.play(&p, c)
							}
						}
					}
					var nodes int64
					seed := uint64(0)
					for b.Loop() {
						s := gm.newSearcher(pl.w, seed, fitness.NewRand(seed))
						s.move(&p)
						nodes += s.nodes
						s.release()
						seed++
					}
					b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
					b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				})
			}
		}
	}
}
