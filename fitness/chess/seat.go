package chess

import (
	"context"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
)

// Color is a side of the board.
type Color uint8

// The sides; White moves first.
const (
	White Color = iota
	Black
)

// Position is what a seat is told before it moves: the game so far, as a
// UCI engine is told it (`position fen START moves M1 M2 ...`).
type Position struct {
	StartFEN string   // the position the game started from (after no moves)
	Moves    []string // every move since, in UCI long algebraic (e2e4, e7e8q)
	ToMove   Color
	// Clock is set under a clock limit: each side's time left and
	// increment in milliseconds, and the moves to the next time control
	// (0: none). nil at fixed nodes, depth or move time.
	Clock *Clock

	// board is the referee's position after Moves, so that a built-in
	// seat need not replay the game every move; nil in a Position built
	// elsewhere. A seat reads it and never keeps it past Move.
	board *lib.Position
}

// Clock is the state of a game's clocks, as `go wtime ... btime ...`
// sends it. Time can fall below zero: the seat of a side that overran
// its clock by more than its margin returns a FaultTime.
type Clock struct {
	Time      [2]int64 // ms left, by Color
	Inc       [2]int64 // ms added after each move, by Color
	MovesToGo int      // moves to the next control; 0 for none
}

// Reply is a seat's move and what it said of it.
type Reply struct {
	Move string // UCI long algebraic; the referee checks it is legal
	// Score is the mover's last reported score from its own side, in
	// centipawns, and Mate the moves to mate (positive: the mover mates;
	// 0: no mate score); HasScore says whether any was reported.
	// Adjudication reads them.
	Score    int
	Mate     int
	HasScore bool
	Depth    int   // the last reported depth, 0 if none
	Nodes    int64 // the last reported node count, 0 if none
	// Elapsed is the milliseconds the move took, for the clock; the
	// seat measures it.
	Elapsed int64
}

// A Seat plays one side of one game. The game calls Move for each of the
// side's moves and End once when the game is over, whatever the cause.
// pos.Moves is the referee's own record: a seat reads it and does not
// change it (appending is safe: the slice has no room to grow).
// A seat that returns a *fitness.FaultError loses the game for its side
// (counted by kind); any other error stops the game with that error.
type Seat interface {
	Move(ctx context.Context, pos Position) (Reply, error)
	End()
}

// A SeatPlayer is a player that plays through seats: a built-in player
// or a process (a UCI engine). Every chess player is one.
type SeatPlayer interface {
	fitness.Player
	// NewSeat opens a seat for one game played from seed, on side c.
	// Its error is a *fitness.FaultError when the process failed
	// (crash, stall) before the game began: the game is its loss.
	NewSeat(ctx context.Context, seed uint64, c Color) (Seat, error)
}

// TimeControl is a clock limit: Base milliseconds for every Moves moves
// (Moves 0: for the whole game), and Inc milliseconds added after each
// move. 40 moves in 10 s with 0.1 s a move is {40, 10000, 100}.
type TimeControl struct {
	Moves int
	Base  int64
	Inc   int64
}

// A ClockedPlayer is a SeatPlayer that may play under a clock (an engine
// with a tc limit). When either player of a game reports a TimeControl,
// the referee keeps both sides' clocks from it (a side without one has
// none: Time and Inc 0) and passes them to both seats in Position.Clock:
// after each move it takes the move's Reply.Elapsed from the mover's
// time, adds its increment, and adds Base again once a period's Moves
// moves are made. MovesToGo is the mover's moves left in its period.
type ClockedPlayer interface {
	SeatPlayer
	TimeControl() (tc TimeControl, ok bool)
}
