package fitness

import "github.com/evotune/evotune/internal/enum"

// Fault is what a player that is a process (a UCI engine, a bot that
// plays moves) did wrong in a game that the referee then scored as its
// loss. Faults are counted by kind in a run's figures; NoFault is a game
// played to its end.
type Fault uint8

// The faults, as the field's match runners (fastchess, cutechess-cli)
// count them.
const (
	NoFault      Fault = iota
	FaultCrash         // the process exited or closed its output
	FaultStall         // no answer within its timeout (no readyok, no move)
	FaultTime          // a move past the clock (beyond its margin)
	FaultIllegal       // an illegal move, or none where one is legal
	FaultGarbage       // an answer that is not the protocol's
)

var faultNames = [...]string{
	NoFault:      "none",
	FaultCrash:   "crash",
	FaultStall:   "stall",
	FaultTime:    "time",
	FaultIllegal: "illegal",
	FaultGarbage: "garbage",
}

func (f Fault) String() string { return enum.Name(faultNames[:], f, "Fault") }

// Faults lists the fault kinds, NoFault excluded, in a fixed order: the
// columns of every table that counts them.
func Faults() []Fault {
	return []Fault{FaultCrash, FaultStall, FaultTime, FaultIllegal, FaultGarbage}
}

// ParseFault reads a fault kind by its name ("crash").
func ParseFault(s string) (Fault, bool) { return enum.Parse[Fault](faultNames[:], s) }

// FaultError is a player's fault in one game: the referee scores the
// game as that player's loss and counts the kind. A player returns it
// (wrapped or not) from the call that found it; errors.As finds it.
// Any other error from a player is the run's failure, not a lost game.
type FaultError struct {
	Kind   Fault
	Player string // the player's name as a spec writes it ("uci:dev")
	Detail string // one line, escaped by whoever prints it
}

func (e *FaultError) Error() string {
	if e.Detail == "" {
		return e.Player + ": " + e.Kind.String()
	}
	return e.Player + ": " + e.Kind.String() + ": " + e.Detail
}
