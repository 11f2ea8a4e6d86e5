package uci_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/cputime"
)

// benchMoves times a seat's moves in one position 20 plies into a game
// (a position command of 20 moves): ns/op is one move's wall time,
// evotune-cpu-us/move the CPU time evotune's process spent on it (the
// client's own cost, every thread), engine-share the part of the wall
// time spent waiting for bestmove.
func benchMoves(b *testing.B, d uci.Definition) {
	e, err := uci.New(context.Background(), d)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := p.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		b.Fatal(err)
	}
	defer s.End()
	pos := chess.Position{StartFEN: uci.StartFEN, Moves: []string{
		"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
		"f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7"}}
	ctx := context.Background()
	b.ReportAllocs()
	waited0, cpu0, begin := e.Waited(), cputime.Process(), time.Now()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Move(ctx, pos); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	wall, cpu, waited := time.Since(begin), cputime.Process()-cpu0, e.Waited()-waited0
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "evotune-cpu-us/move")
	b.ReportMetric(waited.Seconds()/wall.Seconds(), "engine-share")
}

// BenchmarkMoveScripted: against the scripted engine, which answers at
// once: the round trip of a move through the pipes, nearly all of it
// evotune's and the kernel's.
func BenchmarkMoveScripted(b *testing.B) { benchMoves(b, scriptDef(b, "")) }

// BenchmarkMoveStockfish1000: Stockfish at go nodes 1000.
func BenchmarkMoveStockfish1000(b *testing.B) { benchMoves(b, stockfishDef(b)) }

// BenchmarkMoveTogaDepth3: Toga II at go depth 3.
func BenchmarkMoveTogaDepth3(b *testing.B) { benchMoves(b, togaDef(b)) }

// BenchmarkMoveFixture: the fixture engine (examples/tinyuci) at depth 2.
func BenchmarkMoveFixture(b *testing.B) { benchMoves(b, fixtureDef(b, "fixture")) }

// benchGames plays b.N games of the engine against itself (seat-swapped
// pairs from seeds 1, 2, ...) on workers workers. engine-share is the
// share of the games' wall time spent waiting for the engine's answers
// (readyok and bestmove: the engine's time plus the pipes'), summed over
// the workers' seats and divided by workers; evotune-cpu-us/ply is the
// CPU time of evotune's process (client and referee) per ply.
func benchGames(b *testing.B, d uci.Definition, workers int) {
	e, err := uci.New(context.Background(), d)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	p := defaultPlayer(b, e)
	playMatch(b, p, p, 1, workers) // every process started
	pids := uci.Pids(e)
	b.ResetTimer()
	waited0, cpu0, ecpu0, begin := e.Waited(), cputime.Process(), processesCPU(pids), time.Now()
	recs := playMatch(b, p, p, (b.N+1)/2, workers)
	wall, cpu, waited, ecpu := time.Since(begin), cputime.Process()-cpu0, e.Waited()-waited0, processesCPU(pids)-ecpu0
	b.StopTimer()
	plies := 0
	for _, r := range recs {
		plies += len(r.Replies)
	}
	b.ReportMetric(float64(plies)/float64(len(recs)), "plies/game")
	b.ReportMetric(float64(cpu.Microseconds())/float64(plies), "evotune-cpu-us/ply")
	b.ReportMetric(float64(ecpu.Microseconds())/float64(plies), "engine-cpu-us/ply")
	b.ReportMetric(waited.Seconds()/float64(workers)/wall.Seconds(), "engine-share")
	b.ReportMetric(float64(len(recs))/wall.Seconds(), "games/s")
}

// processesCPU is the CPU time (user and system) processes pids have
// used, read from /proc; 0 where there is none.
func processesCPU(pids []int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64) // utime, field 14
			s, _ := strconv.ParseInt(f[12], 10, 64) // stime, field 15
			ticks += u + s
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// BenchmarkGameStockfish1000: Stockfish at go nodes 1000 against itself.
func BenchmarkGameStockfish1000(b *testing.B) {
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) { benchGames(b, stockfishDef(b), w) })
	}
}

// BenchmarkGameFixture: the fixture engine at depth 1 against itself.
func BenchmarkGameFixture(b *testing.B) { benchGames(b, fixtureDef(b, "fixture"), 1) }
