package fitness

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/internal/enum"
)

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

// MarshalText writes the fault's name.
func (f Fault) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a fault's name.
func (f *Fault) UnmarshalText(b []byte) error {
	v, ok := ParseFault(string(b))
	if !ok {
		return fmt.Errorf("fitness: unknown fault %q", b)
	}
	*f = v
	return nil
}

// Refereed is one game as its referee saw it: its result, the fault
// that decided it if one did, and, when asked for, its record.
type Refereed struct {
	Outcome Outcome     // a head-to-head game's, seen from its first player
	Cost    float64     // a solo game's
	Fault   *FaultError // nil: played to its end
	// Record is the game written so that it replays (a chess game's PGN);
	// "" unless asked for.
	Record string
}

// A Referee is a game whose players may be processes (UCI engines, bots
// that play moves): beside each game's outcome it says which fault
// decided it, and writes the game's record when record is set. Its
// result is Play's.
type Referee interface {
	Game
	PlayRefereed(ctx context.Context, a, b Player, seed uint64, record bool) (Refereed, error)
}

// A SoloReferee is a solo game that referees so: its result is
// PlaySolo's, the cost in Refereed.Cost.
type SoloReferee interface {
	SoloGame
	PlaySoloRefereed(ctx context.Context, p, opp Player, seed uint64, record bool) (Refereed, error)
}

// PlayRefereed plays ms as PlayMatches (or PlaySoloMatches, when solo)
// would, through the game's referee, and returns each game as refereed,
// its record written where record(i) says. A game that does not referee
// is played as it plays, with no faults and no records.
func PlayRefereed(ctx context.Context, g Game, ms []Match, solo bool, record func(i int) bool, workers int, progress func(done int)) ([]Refereed, error) {
	ref, refs := g.(Referee)
	sref, srefs := g.(SoloReferee)
	switch {
	case solo && !srefs:
		costs, err := PlaySoloMatches(ctx, g.(SoloGame), ms, workers, progress)
		return refereedCosts(costs), err
	case !solo && !refs:
		outs, err := PlayMatches(ctx, g, ms, workers, progress)
		return refereedOutcomes(outs), err
	}
	return Parallel(ctx, len(ms), workers, func(i int) (r Refereed, err error) {
		m := ms[i]
		defer func() { err = Failed(m.Seed, err) }()
		defer catchPanic(&err)
		want := record != nil && record(i)
		if solo {
			return sref.PlaySoloRefereed(ctx, m.A, m.B, m.Seed, want)
		}
		return ref.PlayRefereed(ctx, m.A, m.B, m.Seed, want)
	}, progress)
}

func refereedCosts(costs []float64) []Refereed {
	out := make([]Refereed, len(costs))
	for i, c := range costs {
		out[i].Cost = c
	}
	return out
}

func refereedOutcomes(outs []Outcome) []Refereed {
	out := make([]Refereed, len(outs))
	for i, o := range outs {
		out[i].Outcome = o
	}
	return out
}
