package chess

import (
	"context"
	"runtime"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// BenchmarkReferee measures the referee's own cost per ply: a whole game
// between two seats that do no work (each answers the next move of a
// game played before, with a score, so adjudication runs too), so
// everything timed is the referee's: the opening, the positions it
// builds and tells the seats, its legality check, the draw rules and
// adjudication. Issue 39's target is at most 0.3 ms a ply.
func BenchmarkReferee(b *testing.B) {
	g := newGameT(b, Options{Adjudication: Adjudication{ResignMoves: 3, ResignScore: 600, DrawFrom: 34, DrawMoves: 8, DrawScore: 20}})
	random, err := g.NewPlayer(fitness.Mover, "random", genome.Values{})
	if err != nil {
		b.Fatal(err)
	}
	// A long game of random moves, to replay: 300 plies or so.
	var line []string
	for seed := uint64(0); len(line) < 250; seed++ {
		rec, err := g.PlayRecord(context.Background(), random, random, seed)
		if err != nil {
			b.Fatal(err)
		}
		line = rec.Moves
	}
	w, bl := newScripted("w", line...), newScripted("b", line...)
	for _, p := range []*scripted{w, bl} {
		p.reply = func(n int) Reply { return Reply{Move: line[n], Score: 100, HasScore: true, Depth: 1, Nodes: 1} }
		p.seen = nil
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	plies := 0
	for b.Loop() {
		rec, err := g.PlayRecord(context.Background(), lean{w}, lean{bl}, 1)
		if err != nil {
			b.Fatal(err)
		}
		if len(rec.Moves) != len(line) {
			b.Fatalf("%d plies, want %d", len(rec.Moves), len(line))
		}
		plies += len(rec.Moves)
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies), "ns/ply")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(plies), "allocs/ply")
	b.ReportMetric(float64(len(line)), "plies/game")
}

// lean is a scripted player whose seats keep nothing of what they see.
type lean struct{ p *scripted }

func (l lean) Name() string { return l.p.name }

func (l lean) NewSeat(context.Context, uint64, Color) (Seat, error) { return leanSeat(l), nil }

type leanSeat struct{ p *scripted }

func (s leanSeat) Move(_ context.Context, pos Position) (Reply, error) {
	return s.p.reply(len(pos.Moves)), nil
}

func (leanSeat) End() {}

// BenchmarkGame plays whole games of the built-in players.
func BenchmarkGame(b *testing.B) {
	g := newGameT(b, Options{RandomPlies: 8, Adjudication: Adjudication{MaxMoves: 100}})
	tiny, _ := g.NewPlayer(fitness.Mover, "tiny", Schema().Defaults())
	random, _ := g.NewPlayer(fitness.Mover, "random", genome.Values{})
	for _, m := range []struct {
		name string
		a, b fitness.Player
	}{{"random-random", random, random}, {"tiny-random", tiny, random}, {"tiny-tiny", tiny, tiny}} {
		b.Run(m.name, func(b *testing.B) {
			plies, seed := 0, uint64(0)
			for b.Loop() {
				rec, err := g.PlayRecord(context.Background(), m.a, m.b, seed)
				if err != nil {
					b.Fatal(err)
				}
				plies += len(rec.Moves)
				seed++
			}
			b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
		})
	}
}
