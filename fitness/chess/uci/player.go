package uci

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/genome"
)

// Player is an engine with its knobs' values and its limit: a
// chess.SeatPlayer whose seats play on the engine's processes.
type Player struct {
	e     *Engine
	opts  []knobValue // every knob's option value, in the schema's order
	limit Limit
}

type knobValue struct {
	opt   *Option
	value string
}

// NewPlayer builds a player of the engine with values v of its Schema
// (the zero Values: the defaults) and settings s (the limit's keys).
func (e *Engine) NewPlayer(v genome.Values, s fitness.Settings) (*Player, error) {
	if len(v.Schema()) == 0 && len(e.schema) > 0 {
		v = e.schema.Defaults()
	}
	if len(v.Schema()) != len(e.schema) {
		return nil, fmt.Errorf("uci: %s: values of %d knobs, want its %d", e.name, len(v.Schema()), len(e.schema))
	}
	p := &Player{e: e, opts: make([]knobValue, len(e.knobs))}
	for i, k := range e.knobs {
		q := &v.Schema()[i]
		if q.Name != k.opt.Name {
			return nil, fmt.Errorf("uci: %s: knob %d is %s, want %s", e.name, i, q.Name, k.opt.Name)
		}
		x := v.At(i)
		if err := e.schema[i].Check(x); err != nil {
			return nil, fmt.Errorf("uci: %s: %w", e.name, err)
		}
		p.opts[i] = knobValue{k.opt, k.value(x)}
	}
	var err error
	if p.limit, err = e.def.Limit.With(s); err != nil {
		return nil, fmt.Errorf("uci: %s: %w", e.name, err)
	}
	return p, nil
}

// Name is the engine's player name, "uci:NAME".
func (p *Player) Name() string { return p.e.name }

// Limit is the player's limit.
func (p *Player) Limit() Limit { return p.limit }

// Engine is the player's engine.
func (p *Player) Engine() *Engine { return p.e }

// Options lists the option values the player sends before a game: the
// fixed ones, then its knobs, as "Name=value".
func (p *Player) Options() []string {
	var out []string
	for _, f := range p.e.fixed {
		out = append(out, f.opt.Name+"="+f.value)
	}
	for _, k := range p.opts {
		out = append(out, k.opt.Name+"="+k.value)
	}
	return out
}

// Describe says what the player plays with, for a game's record: its
// options as sent, then its limit (chess.Described).
func (p *Player) Describe() []string { return append(p.Options(), p.limit.String()) }

// Deterministic reports whether the player's games replay move for
// move, and if not, why: a clock or movetime limit cannot; more than one
// search thread, an engine's own book (OwnBook, true by default in Toga
// II), or a strength limit drawn from the clock (Stockfish's Skill Level
// below its maximum, UCI_LimitStrength) cannot either.
// Whatever else an engine draws from the clock only an audit finds.
func (p *Player) Deterministic() (bool, string) {
	if p.limit.Clocked() {
		return false, fmt.Sprintf("%s plays at %s: its moves depend on time, so its games cannot replay", p.e.name, p.limit)
	}
	value := func(name string) (*Option, string, bool) {
		for _, f := range p.e.fixed {
			if strings.EqualFold(f.opt.Name, name) {
				return f.opt, f.value, true
			}
		}
		for _, k := range p.opts {
			if strings.EqualFold(k.opt.Name, name) {
				return k.opt, k.value, true
			}
		}
		if o := p.e.info.lookup(name); o != nil {
			return o, o.Default, true
		}
		return nil, "", false
	}
	for _, n := range []string{"Threads", "Number of Threads"} {
		if _, v, ok := value(n); ok && v != "1" {
			return false, fmt.Sprintf("%s searches with %s=%s: a search on more than one thread cannot replay; set it to 1", p.e.name, n, v)
		}
	}
	if _, v, ok := value("OwnBook"); ok && v == "true" {
		return false, fmt.Sprintf("%s plays from its own book (OwnBook=true), which may draw its moves at random and takes the openings out of evotune's hands; set OwnBook: false", p.e.name)
	}
	if _, v, ok := value("UCI_LimitStrength"); ok && v == "true" {
		return false, fmt.Sprintf("%s plays with UCI_LimitStrength=true, which draws moves at random", p.e.name)
	}
	if o, v, ok := value("Skill Level"); ok && o.Type == Spin && v != strconv.FormatInt(o.Max, 10) {
		return false, fmt.Sprintf("%s plays at Skill Level %s, below its %d: it draws weaker moves from the clock", p.e.name, v, o.Max)
	}
	return true, ""
}

// NewSeat opens a seat for one game: a process from the engine's pool
// (or a new one), the player's options, ucinewgame and isready. The
// seed is not used: an engine at a fixed limit is deterministic by
// itself. A process that fails here is the game's fault.
func (p *Player) NewSeat(ctx context.Context, seed uint64, side chess.Color) (chess.Seat, error) {
	c, err := p.e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	for _, k := range p.opts {
		c.setOption(k.opt, k.value, false)
	}
	c.add("ucinewgame")
	if err := c.ready(ctx, p.e.def.timeouts().Ready); err != nil {
		var fe *fitness.FaultError
		if errors.As(err, &fe) {
			p.e.release(c, fe, false)
		} else {
			p.e.release(c, nil, false)
		}
		return nil, err
	}
	return &seat{p: p, c: c, side: side}, nil
}

// seat is one game of a player on one process.
type seat struct {
	p     *Player
	c     *conn
	side  chess.Color
	fault *fitness.FaultError
	moved bool
	ended bool
	buf   []byte
}

// TimeControl is the player's clock, if it plays under one: the
// referee keeps both sides' clocks from it and tells each seat both
// (chess.ClockedPlayer).
func (p *Player) TimeControl() (chess.TimeControl, bool) {
	tc := p.limit.TC
	return chess.TimeControl{Moves: tc.Moves, Base: tc.Base, Inc: tc.Inc}, !tc.IsZero()
}

// Move asks the engine for its move in pos. Under a clock, pos.Clock
// holds both sides' time left, as the referee keeps it (which may be
// below zero after an overrun within the margin); a move past this
// side's time by more than the margin is a FaultTime.
func (s *seat) Move(ctx context.Context, pos chess.Position) (chess.Reply, error) {
	if s.fault != nil {
		return chess.Reply{}, s.fault
	}
	if s.ended {
		return chess.Reply{}, errors.New("uci: Move after End")
	}
	l := s.p.limit
	var t timing
	switch {
	case l.MoveTime > 0:
		t = timing{timed: true, budget: l.MoveTime, margin: l.margin()}
	case !l.TC.IsZero():
		if pos.Clock == nil {
			return chess.Reply{}, fmt.Errorf("uci: %s plays under a clock (%v), and the game keeps none", s.p.e.name, l.TC)
		}
		t = timing{timed: true, budget: pos.Clock.Time[s.side], margin: l.margin()}
	}
	s.buf = positionCmd(s.buf, pos)
	r, err := s.c.search(ctx, string(s.buf), goCmd(l, pos.Clock), l, s.p.e.def.timeouts().Move, t)
	if err != nil {
		var fe *fitness.FaultError
		if errors.As(err, &fe) {
			s.fault = fe
		}
		return r, err
	}
	s.moved = true
	return r, nil
}

// End gives the process back to the engine's pool, or kills it if it
// failed.
func (s *seat) End() {
	if s.ended {
		return
	}
	s.ended = true
	s.p.e.release(s.c, s.fault, s.moved)
}

// Verify plays one move from the start position at the engine's limit
// with its default knobs, and reports a limit it does not honour: told
// `go nodes N` it searched far more, or said no node count at all
// (*LimitError); or a fault, as an error. Run it before a run starts, so
// that a config that cannot work stops there.
func (e *Engine) Verify(ctx context.Context) error {
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		return err
	}
	s, err := p.NewSeat(ctx, 0, chess.White)
	if err != nil {
		return fmt.Errorf("uci: %s: a first game: %w", e.name, err)
	}
	defer s.End()
	pos := chess.Position{StartFEN: StartFEN}
	if tc := p.limit.TC; !tc.IsZero() {
		// The clock a game under the limit starts with.
		pos.Clock = &chess.Clock{Time: [2]int64{tc.Base, tc.Base}, Inc: [2]int64{tc.Inc, tc.Inc}, MovesToGo: tc.Moves}
	}
	r, err := s.Move(ctx, pos)
	switch {
	case err != nil:
		var le *LimitError
		if errors.As(err, &le) {
			return err
		}
		return fmt.Errorf("uci: %s: a first move: %w", e.name, err)
	case p.limit.Nodes > 0 && r.Nodes == 0:
		return &LimitError{Engine: e.name, Limit: p.limit, None: true}
	}
	return nil
}

// Guest is the engine as a guest of the chess game (fitness.Host): its
// PlayerInfo and its players.
func (e *Engine) Guest() fitness.Guest { return guest{e} }

type guest struct{ e *Engine }

func (g guest) Info() fitness.PlayerInfo { return g.e.PlayerInfo() }

func (g guest) NewPlayer(v genome.Values, s fitness.Settings) (fitness.Player, error) {
	p, err := g.e.NewPlayer(v, s)
	if err != nil {
		return nil, err // not a nil *Player in an interface
	}
	return p, nil
}
