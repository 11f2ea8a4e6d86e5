package external_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// BenchmarkProtocol measures games per second through the protocol: the
// trivial coin game of testdata/bot, one process, requests pipelined in
// batches of 1024 (one caller, as one engine worker).
func BenchmarkProtocol(b *testing.B) {
	g := open(b, botCommand("", 0), nil)
	ms := matches(b, g, 1024)
	ctx := context.Background()
	if _, err := g.PlayBatch(ctx, ms); err != nil { // start the process
		b.Fatal(err)
	}
	b.ResetTimer()
	for done := 0; done < b.N; done += len(ms) {
		if _, err := g.PlayBatch(ctx, ms[:min(len(ms), b.N-done)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkPlayMatches is the path of a run: fitness.PlayMatches hands
// the game batches of fitness.BatchSize, here at one worker.
func BenchmarkPlayMatches(b *testing.B) {
	g := open(b, botCommand("", 0), nil)
	ms := matches(b, g, 1024)
	ctx := context.Background()
	b.ResetTimer()
	for done := 0; done < b.N; done += len(ms) {
		if _, err := fitness.PlayMatches(ctx, g, ms[:min(len(ms), b.N-done)], 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkProtocolUnpipelined is the same with one request in flight at
// a time: the round trip that pipelining hides.
func BenchmarkProtocolUnpipelined(b *testing.B) {
	g := open(b, botCommand("", 0), nil)
	ms := matches(b, g, 1024)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		m := ms[i%len(ms)]
		if _, err := g.Play(ctx, m.A, m.B, m.Seed); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// coin is the bot's game played in-process, as a built-in game would be:
// the same arithmetic, no protocol.
type coin struct{ bias float64 }

func (coin) Name() string { return "coin" }

func playCoin(a, b coin, seed uint64) fitness.Outcome {
	x := rand.New(rand.NewPCG(seed, 7)).Float64()
	if x*(a.bias+b.bias) < a.bias {
		return fitness.Win
	}
	return fitness.Loss
}

// BenchmarkBuiltinPath is the coin game called in-process through
// fitness.Parallel at one worker: what the protocol's figure compares to.
func BenchmarkBuiltinPath(b *testing.B) {
	a, o := coin{0.8 + 0.02 + 0.03 - 0.01}, coin{0.5}
	ctx := context.Background()
	b.ResetTimer()
	for done := 0; done < b.N; done += 1024 {
		n := min(1024, b.N-done)
		if _, err := fitness.Parallel(ctx, n, 1, func(i int) (fitness.Outcome, error) {
			return playCoin(a, o, fitness.Derive(1, uint64(i))), nil
		}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
