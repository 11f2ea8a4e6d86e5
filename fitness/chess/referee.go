package chess

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/enum"
)

// Termination is why a game ended.
type Termination uint8

// The terminations: by the rules, by adjudication, or by a fault.
const (
	Checkmate            Termination = iota + 1
	Stalemate                        // the side to move has no legal move and is not in check
	InsufficientMaterial             // neither side can mate
	Threefold                        // the same position a third time
	FiftyMoves                       // 50 moves of each side without a capture or a pawn move
	AdjudicatedResign                // a side's own score was lost for too long (Adjudication)
	AdjudicatedDraw                  // both sides' scores stayed near zero for too long
	MaxMoves                         // the players made the most moves a game may have
	ByFault                          // a player's fault: a crash, a stall, an illegal move, ...
)

var terminationNames = [...]string{
	Checkmate:            "checkmate",
	Stalemate:            "stalemate",
	InsufficientMaterial: "insufficient material",
	Threefold:            "threefold",
	FiftyMoves:           "fifty moves",
	AdjudicatedResign:    "adjudicated resign",
	AdjudicatedDraw:      "adjudicated draw",
	MaxMoves:             "max moves",
	ByFault:              "fault",
}

func (t Termination) String() string { return enum.Name(terminationNames[:], t, "Termination") }

// Terminations lists the terminations in a fixed order, for tables.
func Terminations() []Termination {
	out := make([]Termination, 0, len(terminationNames)-1)
	for t := Checkmate; t <= ByFault; t++ {
		out = append(out, t)
	}
	return out
}

// Opening says how a game began before the players moved.
type Opening struct {
	// Book is the book line the game started from: an EPD book's line
	// number, or a PGN book's game number (1 for the first); 0 when no
	// book was used.
	Book int
	// BookLine is the line of the book file where the opening starts (for
	// an EPD book, Book itself).
	BookLine    int
	BookPlies   int // moves played from a PGN book line
	RandomPlies int // random legal moves played after them
	Plies       int // BookPlies + RandomPlies: the first Plies of Record.Moves
}

// Record is one game as it was played: enough to replay it, write its
// PGN and count its figures.
type Record struct {
	White, Black string // the players' names
	Seed         uint64
	StartFEN     string // the position before the opening's moves
	Opening      Opening
	// Moves are every move from StartFEN in UCI long algebraic notation,
	// the opening's first.
	Moves []string
	// Replies are what the players said of their moves: Replies[i] is
	// Moves[Opening.Plies+i]'s.
	Replies     []Reply
	Outcome     fitness.Outcome // seen from White, the first player of Play
	Termination Termination
	// Fault is the fault that ended the game (Termination ByFault), and
	// FaultSide the side that made it and lost; nil otherwise.
	Fault     *fitness.FaultError
	FaultSide Color
}

// Result is the game's result as PGN writes it: "1-0", "0-1" or "1/2-1/2".
func (r Record) Result() string {
	switch r.Outcome {
	case fitness.Win:
		return "1-0"
	case fitness.Loss:
		return "0-1"
	}
	return "1/2-1/2"
}

// Play plays one game: a has White, b Black, from the opening the seed
// draws (the same for (a, b, seed) and (b, a, seed), so a seat-swapped
// pair plays one opening with the colours swapped). The outcome is seen
// from a. Both players must be SeatPlayers (every player of this game
// is; so are UCI engines). A player's *fitness.FaultError, or an illegal
// or missing move, is its loss; any other error of a player, and a
// cancelled ctx, is returned.
func (gm *Game) Play(ctx context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	r, err := gm.PlayRecord(ctx, a, b, seed)
	return r.Outcome, err
}

// PlayRefereed plays a game as Play does (fitness.Referee): the fault
// that decided it, and with record its PGN, tagged with the seed, the
// opening and what each player plays with (Described).
func (gm *Game) PlayRefereed(ctx context.Context, a, b fitness.Player, seed uint64, record bool) (fitness.Refereed, error) {
	r, err := gm.PlayRecord(ctx, a, b, seed)
	if err != nil {
		return fitness.Refereed{}, err
	}
	out := fitness.Refereed{Outcome: r.Outcome, Fault: r.Fault}
	if record {
		tags := []Tag{{"Seed", strconv.FormatUint(seed, 10)}}
		if d := described(a); d != "" {
			tags = append(tags, Tag{"WhitePlays", d})
		}
		if d := described(b); d != "" {
			tags = append(tags, Tag{"BlackPlays", d})
		}
		if o := r.Opening; o.Book > 0 {
			tags = append(tags, Tag{"Opening", fmt.Sprintf("book line %d, %d plies, then %d random", o.BookLine, o.BookPlies, o.RandomPlies)})
		} else if o.RandomPlies > 0 {
			tags = append(tags, Tag{"Opening", fmt.Sprintf("%d random plies", o.RandomPlies)})
		}
		if out.Record, err = r.PGN(tags...); err != nil {
			return fitness.Refereed{}, err
		}
	}
	return out, nil
}

// RecordExtension is the extension of the game's records: a PGN's.
func (gm *Game) RecordExtension() string { return ".pgn" }

// A Described player says, for a game's record, what it plays with
// beyond its name: its knobs or options and its limit, "Name=value"
// each.
type Described interface {
	Describe() []string
}

// described is what p plays with, for a PGN tag; "" when it says not.
func described(p fitness.Player) string {
	if d, ok := p.(Described); ok {
		return strings.Join(d.Describe(), ", ")
	}
	return ""
}

// PlayRecord plays a game as Play does and returns its record. It is a
// pure function of (a, b, seed) for players whose seats are (the
// built-in ones, and engines at a fixed limit that replay).
func (gm *Game) PlayRecord(ctx context.Context, a, b fitness.Player, seed uint64) (Record, error) {
	var players [2]SeatPlayer
	for c, p := range []fitness.Player{a, b} {
		sp, ok := p.(SeatPlayer)
		if !ok || sp == nil {
			return Record{}, fmt.Errorf("chess: player %T is not a chess player (a chess.SeatPlayer)", p)
		}
		players[c] = sp
	}
	g, rec, err := gm.open(seed)
	if err != nil {
		return Record{}, err
	}
	rec.White, rec.Black, rec.Seed = a.Name(), b.Name(), seed
	ref := referee{gm: gm, g: g, rec: &rec, players: players, adj: adjudicator{Adjudication: gm.opts.Adjudication}}
	err = ref.play(ctx, seed)
	for _, s := range ref.seats {
		if s != nil {
			s.End()
		}
	}
	if err != nil {
		return Record{}, err
	}
	return rec, nil
}

// seatStream names the streams of the seats: Derive(seed, seatStream,
// colour).
const seatStream = 0x73656174 // "seat"

// referee is one game being played.
type referee struct {
	gm      *Game
	g       *game
	rec     *Record
	players [2]SeatPlayer
	seats   [2]Seat
	adj     adjudicator
	clock   *Clock // nil unless a player plays under a clock
	tc      [2]TimeControl
	timed   [2]bool
	made    [2]int // moves each side made, for the clock's periods
}

// play plays the game into r.rec; an error is the run's, not a player's.
func (r *referee) play(ctx context.Context, seed uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.startClock()
	for _, c := range []Color{White, Black} {
		s, err := r.players[c].NewSeat(ctx, fitness.Derive(seed, seatStream, uint64(c)), c)
		if err != nil {
			return r.fault(c, err)
		}
		if s == nil {
			return fmt.Errorf("chess: %s opened no seat and gave no error", r.players[c].Name())
		}
		r.seats[c] = s
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		mover := side(r.g.pos.Turn())
		n := len(r.rec.Moves)
		reply, err := r.seats[mover].Move(ctx, Position{
			StartFEN: r.rec.StartFEN, Moves: r.rec.Moves[:n:n], ToMove: mover, Clock: r.clockNow(mover), board: r.g.pos,
		})
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return ctxErr
			}
			return r.fault(mover, err)
		}
		m, ok := findMove(r.g.legal, reply.Move)
		if !ok {
			return r.fault(mover, &fitness.FaultError{Kind: fitness.FaultIllegal, Detail: r.illegal(reply.Move)})
		}
		r.g.play(&m)
		r.rec.Moves = append(r.rec.Moves, reply.Move)
		r.rec.Replies = append(r.rec.Replies, reply)
		r.tick(mover, reply.Elapsed)
		if t := r.g.ended(); t != 0 {
			r.end(t, mover, t == Checkmate)
			return nil
		}
		if t, loser := r.adj.after(mover, reply, r.g.pos.HalfMoveClock(), fullMove(r.g.pos)); t != 0 {
			r.end(t, loser.Other(), t == AdjudicatedResign)
			return nil
		}
	}
}

// illegal words an illegal or missing move for a FaultError.
func (r *referee) illegal(move string) string {
	if move == "" || move == "0000" || move == "(none)" {
		return fmt.Sprintf("no move in %s, where %d are legal", r.g.pos, len(r.g.legal))
	}
	return fmt.Sprintf("illegal move %q in %s", clip(move), r.g.pos)
}

// end records the termination t; winner wins when decisive, else it is a
// draw.
func (r *referee) end(t Termination, winner Color, decisive bool) {
	r.rec.Termination = t
	switch {
	case !decisive:
		r.rec.Outcome = fitness.Draw
	case winner == White:
		r.rec.Outcome = fitness.Win
	default:
		r.rec.Outcome = fitness.Loss
	}
}

// fault ends the game as c's loss when err is a *fitness.FaultError, and
// returns any other error as the run's.
func (r *referee) fault(c Color, err error) error {
	fe, ok := errors.AsType[*fitness.FaultError](err)
	if !ok {
		return fmt.Errorf("chess: %s (%v): %w", r.players[c].Name(), c, err)
	}
	f := *fe
	if f.Player == "" {
		f.Player = r.players[c].Name()
	}
	r.rec.Fault, r.rec.FaultSide = &f, c
	r.end(ByFault, c.Other(), true)
	return nil
}

// fullMove is pos's full-move number, as its FEN writes it.
func fullMove(pos *lib.Position) int { return (pos.Ply() + 1) / 2 }

// startClock sets both clocks when either player plays under one.
func (r *referee) startClock() {
	timed := false
	for c, p := range r.players {
		if cp, ok := p.(ClockedPlayer); ok {
			if tc, on := cp.TimeControl(); on {
				r.tc[c], r.timed[c], timed = tc, true, true
			}
		}
	}
	if !timed {
		return
	}
	r.clock = &Clock{}
	for c, tc := range r.tc {
		r.clock.Time[c], r.clock.Inc[c] = tc.Base, tc.Inc
	}
}

// clockNow is a copy of the clocks for mover's seat, nil without one.
func (r *referee) clockNow(mover Color) *Clock {
	if r.clock == nil {
		return nil
	}
	c := *r.clock
	if n := r.tc[mover].Moves; n > 0 {
		c.MovesToGo = n - r.made[mover]%n
	}
	return &c
}

// tick charges mover's clock with the move's time, adds its increment,
// and a new period's time once a period's moves are made. Whether a
// move came too late is the seat's to say (a FaultTime): it knows its
// margin.
func (r *referee) tick(mover Color, elapsed int64) {
	if !r.timed[mover] {
		return
	}
	r.made[mover]++
	tc := r.tc[mover]
	r.clock.Time[mover] += tc.Inc - elapsed
	if tc.Moves > 0 && r.made[mover]%tc.Moves == 0 {
		r.clock.Time[mover] += tc.Base
	}
}
