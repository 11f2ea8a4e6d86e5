package uci_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/chess/uci"
)

var (
	uciNotation lib.UCINotation
	fenMu       sync.Mutex
)

// record is one game as the tests read it.
type record struct {
	moves   []string
	outcome fitness.Outcome // seen from a
	fault   fitness.Fault
	faulty  chess.Color // the side that faulted
	replies []chess.Reply
}

// maxPlies ends a game as a draw.
const maxPlies = 100

// openingPlies is the random legal plies each game opens with.
const openingPlies = 4

// playGame is a small referee for the tests: a seat per side (a plays
// White), random legal opening plies from the seed, each move checked,
// a fault the faulty side's loss, mate and stalemate, a draw after
// maxPlies.
func playGame(ctx context.Context, a, b chess.SeatPlayer, seed uint64) (record, error) {
	var rec record
	// The library's FEN reader writes a package-level buffer
	// (fen.go's rankBuffer): positions are read one at a time.
	fenMu.Lock()
	pos := lib.StartingPosition()
	fenMu.Unlock()
	rng := rand.New(rand.NewPCG(seed, 7))
	for range openingPlies {
		ms := pos.ValidMoves()
		m := ms[rng.IntN(len(ms))]
		rec.moves = append(rec.moves, uciNotation.Encode(pos, &m))
		pos = pos.Update(&m)
	}
	var seats [2]chess.Seat
	for i, p := range []chess.SeatPlayer{a, b} {
		s, err := p.NewSeat(ctx, seed, chess.Color(i))
		var fe *fitness.FaultError
		if errors.As(err, &fe) {
			for _, s := range seats[:i] {
				s.End()
			}
			return faulted(rec, fe.Kind, chess.Color(i)), nil
		}
		if err != nil {
			for _, s := range seats[:i] {
				s.End()
			}
			return rec, err
		}
		seats[i] = s
	}
	defer func() {
		for _, s := range seats {
			s.End()
		}
	}()
	for len(rec.moves) < maxPlies {
		side := chess.Color(len(rec.moves) % 2)
		legal := pos.ValidMoves()
		if len(legal) == 0 {
			if pos.Status() == lib.Checkmate {
				rec.outcome = fitness.Win
				if side == chess.White {
					rec.outcome = fitness.Loss
				}
			} else {
				rec.outcome = fitness.Draw
			}
			return rec, nil
		}
		r, err := seats[side].Move(ctx, chess.Position{StartFEN: uci.StartFEN, Moves: rec.moves, ToMove: side})
		var fe *fitness.FaultError
		switch {
		case errors.As(err, &fe):
			return faulted(rec, fe.Kind, side), nil
		case err != nil:
			return rec, err
		}
		var next *lib.Position
		for _, m := range legal {
			if uciNotation.Encode(pos, &m) == r.Move {
				next = pos.Update(&m)
			}
		}
		if next == nil {
			return faulted(rec, fitness.FaultIllegal, side), nil
		}
		pos = next
		rec.moves = append(rec.moves, r.Move)
		rec.replies = append(rec.replies, r)
	}
	rec.outcome = fitness.Draw
	return rec, nil
}

func faulted(rec record, kind fitness.Fault, side chess.Color) record {
	rec.fault, rec.faulty = kind, side
	rec.outcome = fitness.Loss
	if side == chess.Black {
		rec.outcome = fitness.Win
	}
	return rec
}

func (r record) String() string {
	return fmt.Sprintf("%v %v(%v) %v", r.outcome, r.fault, r.faulty, r.moves)
}
