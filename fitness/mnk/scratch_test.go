package mnk

import (
	"testing"
)

func BenchmarkScratch(b *testing.B) {
	gm := mustGame(b, Rules{9, 9, 5}, Limits{Depth: 3})
	cl := mustPlayer(b, gm, "classic")
	tu := mustPlayer(b, gm, "tuned")
	n := 0
	for i := 0; b.Loop(); i++ {
		_, mv := gm.play(tu, cl, uint64(i), true)
		n += len(mv)
	}
	b.ReportMetric(float64(n)/float64(b.N), "moves/game")
}
