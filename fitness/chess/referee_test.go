package chess

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// scripted is a SeatPlayer whose seats play a fixed line: at ply n of the
// game (counted from its start position, the opening's moves included)
// a seat answers reply(n), or its move line[n].
type scripted struct {
	name    string
	line    []string
	reply   func(n int) Reply // nil: line[n] without a score
	fail    map[int]error     // an error instead of the move at ply n
	seatErr error             // NewSeat's error
	tc      *TimeControl
	seen    *[]Position // every position the seats were asked to move in
	opened  *int
	ended   *int
}

func newScripted(name string, line ...string) *scripted {
	return &scripted{name: name, line: line, seen: new([]Position), opened: new(int), ended: new(int)}
}

func (p *scripted) Name() string { return p.name }

func (p *scripted) NewSeat(_ context.Context, _ uint64, _ Color) (Seat, error) {
	if p.seatErr != nil {
		return nil, p.seatErr
	}
	*p.opened++
	return &scriptedSeat{p: p}, nil
}

type scriptedSeat struct {
	p     *scripted
	ended bool
}

func (s *scriptedSeat) Move(_ context.Context, pos Position) (Reply, error) {
	*s.p.seen = append(*s.p.seen, pos)
	n := len(pos.Moves)
	if err := s.p.fail[n]; err != nil {
		return Reply{}, err
	}
	if s.p.reply != nil {
		return s.p.reply(n), nil
	}
	if n >= len(s.p.line) {
		return Reply{}, fmt.Errorf("scripted %s: no move for ply %d", s.p.name, n)
	}
	return Reply{Move: s.p.line[n]}, nil
}

func (s *scriptedSeat) End() {
	if s.ended {
		panic("End called twice")
	}
	s.ended = true
	*s.p.ended++
}

// clocked is a scripted player under a clock.
type clocked struct{ *scripted }

func (c clocked) TimeControl() (TimeControl, bool) { return *c.tc, true }

func newGameT(tb testing.TB, o Options) *Game {
	tb.Helper()
	g, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// foolsMate is the shortest mate: black mates on its second move.
var foolsMate = strings.Fields("f2f3 e7e5 g2g4 d8h4")

func TestPlayEnds(t *testing.T) {
	g := newGameT(t, Options{})
	w, b := newScripted("w", foolsMate...), newScripted("b", foolsMate...)
	rec, err := g.PlayRecord(context.Background(), w, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != fitness.Loss || rec.Termination != Checkmate || !slices.Equal(rec.Moves, foolsMate) || rec.Result() != "0-1" {
		t.Fatalf("record %+v", rec)
	}
	if *w.opened != 1 || *w.ended != 1 || *b.opened != 1 || *b.ended != 1 {
		t.Fatalf("seats opened %d, %d and ended %d, %d times; want each once", *w.opened, *b.opened, *w.ended, *b.ended)
	}
	// The same game with the players' seats swapped: seen from the first
	// player, a win.
	if out, err := g.Play(context.Background(), newScripted("b", foolsMate...), newScripted("w", foolsMate...), 1); err != nil || out != fitness.Loss {
		t.Fatalf("swapped: %v, %v; the first player has White and is mated: a loss", out, err)
	}
}

// TestPlayIllegal: a move that is not legal, written badly or missing is
// the mover's loss, counted as illegal; the nearest legal move plays on.
func TestPlayIllegal(t *testing.T) {
	promote := "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	cases := []struct {
		name, fen, move string
		ply             int    // the ply (from 0) the bad move is played at
		detail          string // "" when the move is legal
	}{
		{"too far", StartFEN, "e2e5", 0, `illegal move "e2e5"`},
		{"legal", StartFEN, "e2e4", 0, ""},
		{"upper case", StartFEN, "E2E4", 0, `illegal move "E2E4"`},
		{"SAN", StartFEN, "e4", 0, `illegal move "e4"`},
		{"nothing", StartFEN, "", 0, "no move in"},
		{"a null move", StartFEN, "0000", 0, "no move in"},
		{"none", StartFEN, "(none)", 0, "no move in"},
		{"black's wrong piece", StartFEN, "e2e4", 1, `illegal move "e2e4"`},
		{"a promotion without its piece", promote, "a7a8", 0, `illegal move "a7a8"`},
		{"a promotion", promote, "a7a8q", 0, ""},
		{"a line too long", StartFEN, strings.Repeat("e2e4", 100), 0, `illegal move "e2e4e2e4`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newGameT(t, Options{FEN: tc.fen, Adjudication: Adjudication{MaxMoves: 1}})
			line := []string{"e2e4", "e7e5"}
			if tc.fen == promote {
				line = []string{"a7a8q", "e8d7"}
			}
			line[tc.ply] = tc.move
			w, b := newScripted("white", line...), newScripted("black", line...)
			rec, err := g.PlayRecord(context.Background(), w, b, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tc.detail == "" {
				if rec.Termination != MaxMoves || rec.Fault != nil {
					t.Fatalf("a legal move: %v, fault %v", rec.Termination, rec.Fault)
				}
				return
			}
			loser := Color(tc.ply % 2)
			if rec.Termination != ByFault || rec.Fault == nil || rec.Fault.Kind != fitness.FaultIllegal || rec.FaultSide != loser {
				t.Fatalf("termination %v, fault %+v on %v; want illegal on %v", rec.Termination, rec.Fault, rec.FaultSide, loser)
			}
			if want := []string{"white", "black"}[loser]; rec.Fault.Player != want || !strings.Contains(rec.Fault.Detail, tc.detail) {
				t.Fatalf("fault %q by %q, want %q by %q", rec.Fault.Detail, rec.Fault.Player, tc.detail, want)
			}
			if want := []fitness.Outcome{fitness.Loss, fitness.Win}[loser]; rec.Outcome != want {
				t.Fatalf("outcome %v, want %v", rec.Outcome, want)
			}
			if len(rec.Fault.Detail) > 200 {
				t.Fatalf("a detail of %d bytes", len(rec.Fault.Detail))
			}
			if *w.ended != 1 || *b.ended != 1 {
				t.Fatalf("seats ended %d, %d times", *w.ended, *b.ended)
			}
		})
	}
}

// TestPlayFaults: a seat's *fitness.FaultError, from Move or NewSeat,
// wrapped or not, is its side's loss; any other error is the run's, and
// every seat opened is ended.
func TestPlayFaults(t *testing.T) {
	crash := &fitness.FaultError{Kind: fitness.FaultCrash, Detail: "exit status 1"}
	stall := &fitness.FaultError{Kind: fitness.FaultStall, Player: "uci:dev", Detail: "no readyok"}
	broken := errors.New("disk on fire")
	cases := []struct {
		name      string
		white     func(*scripted)
		black     func(*scripted)
		kind      fitness.Fault
		side      Color
		player    string
		err       error // a run's error instead of a game
		whiteSeat int   // seats opened
		blackSeat int
	}{
		{"white crashes", func(p *scripted) { p.fail = map[int]error{2: crash} }, nil, fitness.FaultCrash, White, "w", nil, 1, 1},
		{"black stalls, wrapped", nil, func(p *scripted) { p.fail = map[int]error{1: fmt.Errorf("reading: %w", stall)} }, fitness.FaultStall, Black, "uci:dev", nil, 1, 1},
		{"white's seat fails", func(p *scripted) { p.seatErr = crash }, nil, fitness.FaultCrash, White, "w", nil, 0, 0},
		{"black's seat fails", nil, func(p *scripted) { p.seatErr = stall }, fitness.FaultStall, Black, "uci:dev", nil, 1, 0},
		{"a run's error", nil, func(p *scripted) { p.fail = map[int]error{3: broken} }, 0, 0, "", broken, 1, 1},
		{"a seat's run error", func(p *scripted) { p.seatErr = broken }, nil, 0, 0, "", broken, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := newGameT(t, Options{Adjudication: Adjudication{MaxMoves: 5}})
			line := strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7")
			w, b := newScripted("w", line...), newScripted("b", line...)
			if tc.white != nil {
				tc.white(w)
			}
			if tc.black != nil {
				tc.black(b)
			}
			rec, err := g.PlayRecord(context.Background(), w, b, 1)
			if *w.opened != tc.whiteSeat || *b.opened != tc.blackSeat || *w.ended != *w.opened || *b.ended != *b.opened {
				t.Fatalf("seats opened %d, %d, ended %d, %d; want %d, %d opened, each ended", *w.opened, *b.opened, *w.ended, *b.ended, tc.whiteSeat, tc.blackSeat)
			}
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Termination != ByFault || rec.Fault.Kind != tc.kind || rec.FaultSide != tc.side || rec.Fault.Player != tc.player {
				t.Fatalf("%v, fault %+v on %v; want %v on %v by %s", rec.Termination, rec.Fault, rec.FaultSide, tc.kind, tc.side, tc.player)
			}
			if want := []fitness.Outcome{fitness.Loss, fitness.Win}[tc.side]; rec.Outcome != want {
				t.Fatalf("outcome %v, want %v", rec.Outcome, want)
			}
		})
	}
}

// cancelling cancels its context when asked for a move and says so.
type cancelling struct {
	*scripted
	cancel context.CancelFunc
}

func (c cancelling) NewSeat(ctx context.Context, seed uint64, col Color) (Seat, error) {
	s, _ := c.scripted.NewSeat(ctx, seed, col)
	return cancelSeat{s, c.cancel}, nil
}

type cancelSeat struct {
	Seat
	cancel context.CancelFunc
}

func (s cancelSeat) Move(ctx context.Context, _ Position) (Reply, error) {
	s.cancel()
	// An engine's seat cut short reports a stall; the referee must see
	// the cancel, not a fault.
	return Reply{}, &fitness.FaultError{Kind: fitness.FaultStall, Detail: ctx.Err().Error()}
}

func TestPlayCancelled(t *testing.T) {
	g := newGameT(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Play(ctx, newScripted("w", foolsMate...), newScripted("b", foolsMate...), 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled context: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	w := newScripted("w", foolsMate...)
	b := cancelling{newScripted("b", foolsMate...), cancel}
	if _, err := g.Play(ctx, w, b, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled during black's move: %v", err)
	}
	if *w.ended != 1 || *b.ended != 1 {
		t.Fatalf("seats ended %d, %d times", *w.ended, *b.ended)
	}
}

// TestPlaySeesGame: a seat is told the start position, every move since
// (the opening's included) and the side to move; a seat that appends to
// the moves it is given changes nothing.
func TestPlaySeesGame(t *testing.T) {
	book, err := ParseBook("b.pgn", []byte("1. e4 c5 2. Nf3 d6 *\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewWithBook(Options{Adjudication: Adjudication{MaxMoves: 2}}, book)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6")
	w, b := newScripted("w", line...), newScripted("b", line...)
	for _, p := range []*scripted{w, b} {
		p.reply = func(n int) Reply { return Reply{Move: line[n]} }
	}
	rec, err := g.PlayRecord(context.Background(), w, b, 7)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Opening.Plies != 4 || rec.Opening.BookPlies != 4 || rec.Opening.Book != 1 || !slices.Equal(rec.Moves, line) {
		t.Fatalf("opening %+v, moves %v", rec.Opening, rec.Moves)
	}
	if len(rec.Replies) != 4 {
		t.Fatalf("%d replies, want the players' 4", len(rec.Replies))
	}
	seen := append(append([]Position(nil), *w.seen...), *b.seen...)
	if len(seen) != 4 {
		t.Fatalf("%d positions seen, want 4", len(seen))
	}
	for _, pos := range seen {
		n := len(pos.Moves)
		if pos.StartFEN != StartFEN || !slices.Equal(pos.Moves, line[:n]) || pos.ToMove != Color(n%2) || pos.Clock != nil {
			t.Fatalf("a seat saw %+v at ply %d", pos, n)
		}
		if cap(pos.Moves) != n {
			t.Fatalf("moves with room to grow (cap %d, len %d): a seat's append would write into the record", cap(pos.Moves), n)
		}
	}
}

// TestPlayClock: with a clocked player, both seats see both clocks: the
// mover's time less its move's, plus its increment, plus its base again
// once a period's moves are made.
func TestPlayClock(t *testing.T) {
	g := newGameT(t, Options{Adjudication: Adjudication{MaxMoves: 3}})
	line := strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6")
	w := clocked{newScripted("w", line...)}
	w.tc = &TimeControl{Moves: 2, Base: 1000, Inc: 10}
	w.reply = func(n int) Reply { return Reply{Move: line[n], Elapsed: 100} }
	b := newScripted("b", line...)
	b.reply = func(n int) Reply { return Reply{Move: line[n], Elapsed: 7} }
	if _, err := g.PlayRecord(context.Background(), w, b, 1); err != nil {
		t.Fatal(err)
	}
	// Before each of white's moves, then black's; black has no clock.
	want := []Clock{
		{Time: [2]int64{1000, 0}, Inc: [2]int64{10, 0}, MovesToGo: 2},
		{Time: [2]int64{910, 0}, Inc: [2]int64{10, 0}, MovesToGo: 1},
		{Time: [2]int64{1820, 0}, Inc: [2]int64{10, 0}, MovesToGo: 2},
		{Time: [2]int64{910, 0}, Inc: [2]int64{10, 0}},
		{Time: [2]int64{1820, 0}, Inc: [2]int64{10, 0}},
		{Time: [2]int64{1730, 0}, Inc: [2]int64{10, 0}},
	}
	var got []Clock
	for _, seen := range [][]Position{*w.seen, *b.seen} {
		for _, pos := range seen {
			if pos.Clock == nil {
				t.Fatalf("no clock at ply %d", len(pos.Moves))
			}
			got = append(got, *pos.Clock)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("clocks\n%+v\nwant\n%+v", got, want)
	}
}

// TestPlayAdjudicates: the referee adjudicates from the replies' scores.
func TestPlayAdjudicates(t *testing.T) {
	g := newGameT(t, Options{Adjudication: Adjudication{ResignMoves: 3, ResignScore: 600}})
	line := strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6")
	w, b := newScripted("w", line...), newScripted("b", line...)
	w.reply = func(n int) Reply { return Reply{Move: line[n], Score: -600, HasScore: true} }
	b.reply = func(n int) Reply { return Reply{Move: line[n], Score: 20, HasScore: true} }
	rec, err := g.PlayRecord(context.Background(), w, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Termination != AdjudicatedResign || rec.Outcome != fitness.Loss || len(rec.Moves) != 5 {
		t.Fatalf("%v %v after %d moves; want white to resign after its third move (ply 5)", rec.Termination, rec.Outcome, len(rec.Moves))
	}
}

// TestPlayNotAChessPlayer: a player of another game is refused.
func TestPlayNotAChessPlayer(t *testing.T) {
	g := newGameT(t, Options{})
	_, err := g.Play(context.Background(), namedOnly{}, newScripted("b"), 1)
	if err == nil || !strings.Contains(err.Error(), "not a chess player") {
		t.Fatalf("a player of another game: %v", err)
	}
}

type namedOnly struct{}

func (namedOnly) Name() string { return "coin" }

// TestPlayPure: a game of the built-in players is a function of (a, b,
// seed); (a, b, seed) and (b, a, seed) open alike; seeds vary the
// opening.
func TestPlayPure(t *testing.T) {
	g := newGameT(t, Options{RandomPlies: 6, Adjudication: Adjudication{MaxMoves: 30}})
	tiny, err := g.NewPlayer(fitness.Mover, "tiny", Schema().Defaults())
	if err != nil {
		t.Fatal(err)
	}
	random, err := g.NewPlayer(fitness.Mover, "random", Schema().Defaults())
	if err != nil {
		t.Fatal(err)
	}
	openings := map[string]bool{}
	for seed := range uint64(6) {
		a, err := g.PlayRecord(context.Background(), tiny, random, seed)
		if err != nil {
			t.Fatal(err)
		}
		again, err := g.PlayRecord(context.Background(), tiny, random, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, again) {
			t.Fatalf("seed %d: two records of one game differ:\n%+v\n%+v", seed, a, again)
		}
		b, err := g.PlayRecord(context.Background(), random, tiny, seed)
		if err != nil {
			t.Fatal(err)
		}
		if a.Opening.Plies != 6 || !slices.Equal(a.Moves[:6], b.Moves[:6]) {
			t.Fatalf("seed %d: openings %v and %v, want the same 6 plies", seed, a.Moves[:6], b.Moves[:b.Opening.Plies])
		}
		openings[strings.Join(a.Moves[:6], " ")] = true
	}
	if len(openings) < 5 {
		t.Fatalf("%d openings over 6 seeds", len(openings))
	}
}
