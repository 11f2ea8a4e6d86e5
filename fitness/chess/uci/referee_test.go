package uci_test

import (
	"context"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
)

// openingPlies are the random legal plies every test game opens with,
// from its seed; maxMoves ends it as a draw.
const (
	openingPlies = 4
	maxMoves     = 50
)

// testGame is the chess game the tests play engines in: the referee of
// package chess, random openings, a draw after maxMoves moves.
func testGame(t testing.TB) *chess.Game {
	t.Helper()
	g, err := chess.New(chess.Options{RandomPlies: openingPlies, Adjudication: chess.Adjudication{MaxMoves: maxMoves}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playGame plays one game, a White, through the referee.
func playGame(ctx context.Context, g *chess.Game, a, b chess.SeatPlayer, seed uint64) (chess.Record, error) {
	return g.PlayRecord(ctx, a, b, seed)
}

// fault is the kind of the record's fault, NoFault for none.
func fault(r chess.Record) fitness.Fault {
	if r.Fault == nil {
		return fitness.NoFault
	}
	return r.Fault.Kind
}
