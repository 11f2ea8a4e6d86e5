// Package program is the program side of evotune's player protocol
// (docs/protocol.md) for bots written in Go: declare the game and its
// players, write the function that plays one game, and call Main.
//
//	func main() {
//		program.Main(program.Game{
//			Name:    "coin",
//			Players: []program.Player{{Name: "biased", Schema: schema}},
//			Play:    play, // func(program.Request) (program.Outcome, error)
//		})
//	}
//
// The package answers the hello, decodes requests and checks every seat's
// parameters against the player's schema, plays pipelined requests (on
// several goroutines if Concurrency says so), writes the replies and
// turns a game's error or panic into an error reply. It imports nothing
// of evotune but genome, the parameter kinds the schemas are made of.
package program

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/enum"
)

// Outcome is the result of a two-seat game seen from seat 0.
type Outcome int8

// The outcomes.
const (
	Loss Outcome = iota
	Draw
	Win
)

var outcomeNames = [...]string{Loss: wire.Loss, Draw: wire.Draw, Win: wire.Win}

func (o Outcome) String() string { return enum.Name(outcomeNames[:], o, "Outcome") }

// Game is what the program offers. Set Play for a two-seat game or
// PlaySolo for a solo game, not both.
type Game struct {
	Name    string
	Summary string
	// Roles lists the roles; nil means one role, "mover". A two-seat
	// game has one role. A solo game's seat 0 plays Roles[0]; with a
	// second role, seat 1 plays Roles[1], by default Opponent.
	Roles []string
	// Measure names a solo game's cost ("turns"); "" is "cost".
	Measure string
	// Opponent is a solo game's default opponent (a player of Roles[1]).
	Opponent string
	Options  []Option
	Players  []Player
	// Play plays one two-seat game and returns its outcome seen from seat
	// 0. It must be a pure function of the request: every random choice
	// derived from Request.Seed.
	Play func(Request) (Outcome, error)
	// PlaySolo plays one solo game and returns the cost of seat 0, lower
	// is better. Pure in the request, as Play.
	PlaySolo func(Request) (float64, error)
	// Concurrency is how many games are played at once; 0 or 1 plays
	// them one after another on the reading goroutine. Replies may then
	// go out in any order.
	Concurrency int
}

// Option is one rule option, whose value reaches Play as a string.
type Option struct {
	Name, Default, Summary string
	Choices                []string // the legal values; nil = any
}

// Player is one player the program offers.
type Player struct {
	Name    string
	Role    string // "" is the first role
	Summary string
	Schema  genome.Schema // nil when there is nothing to tune
}

// Request is one game to play.
type Request struct {
	ID    uint64
	Seed  uint64
	Rules map[string]string // every option, defaults filled in; shared: do not modify
	Seats []Seat
}

// Seat is one player of a game and its parameter values.
type Seat struct {
	Player string
	Role   string
	Params genome.Values
}

// Main serves the protocol on stdin and stdout and exits: 0 when evotune
// closes stdin, 1 with a message on stderr when something goes wrong.
func Main(g Game) {
	if err := Serve(g, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve speaks the protocol on r and w until r ends, and returns nil
// then. It returns an error (after telling evotune, where it can) when
// the game is declared wrongly or evotune's lines make no sense.
func Serve(g Game, r io.Reader, w io.Writer) error {
	s := &server{game: g, out: bufio.NewWriterSize(w, 64<<10)}
	in := bufio.NewReaderSize(r, 64<<10)
	line, err := readLine(in)
	if err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	var hello wire.Hello
	if err := json.Unmarshal(line, &hello); err != nil || hello.Type != wire.TypeHello {
		return s.fatal(fmt.Errorf("program: the first line is not a hello: %.100q", line))
	}
	if hello.Protocol < wire.Version {
		return s.fatal(fmt.Errorf("program: evotune speaks protocol %d, this program %d", hello.Protocol, wire.Version))
	}
	offer, err := s.offer()
	if err != nil {
		return s.fatal(err)
	}
	if err := s.send(offer); err != nil {
		return err
	}
	if err := s.out.Flush(); err != nil {
		return err
	}
	return s.loop(in)
}

type server struct {
	game    Game
	roles   []string
	players map[[2]string]*Player // (role, name)

	// Decoded seats and rules by their JSON: a run sends the same few
	// players and rules over and over.
	cacheMu sync.Mutex
	seats   map[string]Seat
	rules   map[string]map[string]string

	mu  sync.Mutex // guards out, err and jobsLeft
	out *bufio.Writer
	err error // the first write error
	// jobsLeft counts the requests handed to the playing goroutines and
	// not answered yet: the goroutine that answers the last one flushes.
	jobsLeft int
	// held, when set, flushes replies that wait in out: none waits longer
	// than maxHold, however long the games played meanwhile.
	held *time.Timer
	done bool // Serve has returned: held flushes nothing more
}

func (s *server) offer() (wire.Offer, error) {
	g := s.game
	o := wire.Offer{Type: wire.TypeHello, Protocol: wire.Version, Game: g.Name, Summary: g.Summary,
		Mode: wire.ModeTwoSeat, Options: []wire.Option{}, Players: []wire.Player{}}
	if (g.Play == nil) == (g.PlaySolo == nil) {
		return o, errors.New("program: set exactly one of Game.Play and Game.PlaySolo")
	}
	s.roles = g.Roles
	if len(s.roles) == 0 {
		s.roles = []string{"mover"}
	}
	o.Roles = s.roles
	if g.PlaySolo != nil {
		o.Mode, o.Measure, o.Opponent = wire.ModeSolo, g.Measure, g.Opponent
	}
	for _, op := range g.Options {
		o.Options = append(o.Options, wire.Option{Name: op.Name, Default: op.Default, Summary: op.Summary, Choices: op.Choices})
	}
	s.players = map[[2]string]*Player{}
	for i := range g.Players {
		p := &g.Players[i]
		role := p.Role
		if role == "" {
			role = s.roles[0]
		}
		if err := p.Schema.Validate(); err != nil {
			return o, fmt.Errorf("program: player %q: %w", p.Name, err)
		}
		s.players[[2]string{role, p.Name}] = p
		wp := wire.Player{Name: p.Name, Role: role, Summary: p.Summary, Params: []wire.Param{}}
		for _, q := range p.Schema {
			wp.Params = append(wp.Params, wire.WireParam(q))
		}
		o.Players = append(o.Players, wp)
	}
	return o, nil
}

// loop reads requests until EOF.
func (s *server) loop(in *bufio.Reader) error {
	var jobs chan request
	var wg sync.WaitGroup
	if s.game.Concurrency > 1 {
		jobs = make(chan request, s.game.Concurrency)
		for range s.game.Concurrency {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for req := range jobs {
					rep := s.play(req)
					testHookBeforeReply(req.ID)
					s.replyJob(rep)
				}
			}()
		}
	}
	finish := func() error {
		if jobs != nil {
			close(jobs)
			wg.Wait()
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.flushLocked()
		s.done = true
		return s.err
	}
	for {
		if jobs == nil && in.Buffered() == 0 {
			// About to block on a read: send what is waiting first.
			s.mu.Lock()
			s.flushLocked()
			s.mu.Unlock()
		}
		line, err := readLine(in)
		if err == io.EOF {
			return finish()
		}
		if err != nil {
			finish()
			return err
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			finish()
			return s.fatal(fmt.Errorf("program: a line from evotune is not JSON (%v): %.100q", err, line))
		}
		if req.Type != wire.TypePlay {
			s.reply(wire.Reply{Type: wire.TypeError, ID: &req.ID, Error: fmt.Sprintf("unknown request type %q", req.Type)}, true)
			continue
		}
		if jobs != nil {
			s.mu.Lock()
			s.jobsLeft++
			s.mu.Unlock()
			jobs <- req
			continue
		}
		s.reply(s.play(req), false)
		if s.failed() {
			return finish()
		}
	}
}

func (s *server) failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil
}

// request is a wire.Request with its seats and rules left as JSON, to be
// looked up in the server's caches.
type request struct {
	Type  string            `json:"type"`
	ID    uint64            `json:"id"`
	Seed  string            `json:"seed"`
	Rules json.RawMessage   `json:"rules"`
	Seats []json.RawMessage `json:"seats"`
}

// maxCache bounds each cache; a full one starts over.
const maxCache = 4096

// play plays one request and returns the reply.
func (s *server) play(w request) (rep wire.Reply) {
	id := w.ID
	rep = wire.Reply{Type: wire.TypeResult, ID: &id}
	fail := func(err error) wire.Reply {
		return wire.Reply{Type: wire.TypeError, ID: &id, Error: err.Error()}
	}
	req, err := s.decode(w)
	if err != nil {
		return fail(err)
	}
	defer func() {
		if p := recover(); p != nil {
			rep = fail(fmt.Errorf("panic: %v", p))
		}
	}()
	if s.game.PlaySolo != nil {
		cost, err := s.game.PlaySolo(req)
		if err == nil && (math.IsNaN(cost) || math.IsInf(cost, 0)) {
			err = fmt.Errorf("cost %v is not a finite number", cost)
		}
		if err != nil {
			return fail(err)
		}
		rep.Cost = &cost
		return rep
	}
	o, err := s.game.Play(req)
	if err == nil && (o < Loss || o > Win) {
		err = fmt.Errorf("outcome %v", o)
	}
	if err != nil {
		return fail(err)
	}
	rep.Outcome = o.String()
	return rep
}

func (s *server) decode(w request) (Request, error) {
	seed, err := wire.ParseSeed(w.Seed)
	if err != nil {
		return Request{}, err
	}
	req := Request{ID: w.ID, Seed: seed}
	if req.Rules, err = s.decodeRules(w.Rules); err != nil {
		return req, err
	}
	want := 2
	if s.game.PlaySolo != nil {
		want = min(len(s.roles), 2)
	}
	if len(w.Seats) != want {
		return req, fmt.Errorf("%s, want %d", english.Count(len(w.Seats), "seat"), want)
	}
	for i, raw := range w.Seats {
		role := s.roles[0]
		if s.game.PlaySolo != nil && i == 1 {
			role = s.roles[1]
		}
		seat, err := s.decodeSeat(role, raw)
		if err != nil {
			return req, fmt.Errorf("seat %d%w", i, err)
		}
		req.Seats = append(req.Seats, seat)
	}
	return req, nil
}

// decodeSeat reads one seat of role; errors start with " (player): " or
// ": " to follow "seat N".
func (s *server) decodeSeat(role string, raw json.RawMessage) (Seat, error) {
	key := role + "\x00" + string(raw)
	s.cacheMu.Lock()
	seat, ok := s.seats[key]
	s.cacheMu.Unlock()
	if ok {
		return seat, nil
	}
	var w wire.Seat
	if err := json.Unmarshal(raw, &w); err != nil {
		return Seat{}, fmt.Errorf(": %w", err)
	}
	p, ok := s.players[[2]string{role, w.Player}]
	if !ok {
		return Seat{}, fmt.Errorf(": no %s called %q", role, w.Player)
	}
	vals, err := wire.DecodeValues(p.Schema, w.Params)
	if err != nil {
		return Seat{}, fmt.Errorf(" (%s): %w", w.Player, err)
	}
	seat = Seat{Player: p.Name, Role: role, Params: vals}
	s.cacheMu.Lock()
	if len(s.seats) >= maxCache || s.seats == nil {
		s.seats = map[string]Seat{}
	}
	s.seats[key] = seat
	s.cacheMu.Unlock()
	return seat, nil
}

// decodeRules reads the rules, filling in defaults and checking choices.
// The map is shared between requests.
func (s *server) decodeRules(raw json.RawMessage) (map[string]string, error) {
	key := string(raw)
	s.cacheMu.Lock()
	rules, ok := s.rules[key]
	s.cacheMu.Unlock()
	if ok {
		return rules, nil
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &rules); err != nil {
			return nil, fmt.Errorf("rules: %w", err)
		}
	}
	if rules == nil {
		rules = map[string]string{}
	}
	for _, op := range s.game.Options {
		if _, ok := rules[op.Name]; !ok {
			rules[op.Name] = op.Default
		}
		if op.Choices != nil && !slices.Contains(op.Choices, rules[op.Name]) {
			return nil, fmt.Errorf("rule %s: %q is not one of %v", op.Name, rules[op.Name], op.Choices)
		}
	}
	s.cacheMu.Lock()
	if len(s.rules) >= maxCache || s.rules == nil {
		s.rules = map[string]map[string]string{}
	}
	s.rules[key] = rules
	s.cacheMu.Unlock()
	return rules, nil
}

// testHookBeforeReply lets a test stall a playing goroutine between its
// game and its reply.
var testHookBeforeReply = func(id uint64) {}

// maxHold bounds how long a reply waits in the buffer for others to go
// out with it. evotune's timeout counts the silence since its last
// reply, so a reply must not wait for the next game, however long. A
// variable only so that tests can lengthen it, to see the flushes that
// do not wait for it.
var maxHold = time.Millisecond

// replyJob writes the reply of a request played on a playing goroutine;
// the one that answers the last request left flushes (decided under the
// lock that orders the writes, so no reply is written after the last
// flush).
func (s *server) replyJob(rep wire.Reply) {
	b, _ := json.Marshal(rep)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobsLeft--
	s.writeLocked(b, s.jobsLeft == 0)
}

// reply writes one reply; flush sends it at once, else it goes out with
// the next flush, within maxHold.
func (s *server) reply(rep wire.Reply, flush bool) {
	b, _ := json.Marshal(rep)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeLocked(b, flush)
}

func (s *server) writeLocked(b []byte, flush bool) {
	if s.err != nil {
		return
	}
	if _, s.err = s.out.Write(append(b, '\n')); s.err != nil {
		return
	}
	switch {
	case flush:
		s.flushLocked()
	case s.held == nil:
		s.held = time.AfterFunc(maxHold, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.done {
				s.flushLocked()
			}
		})
	}
}

// flushLocked sends what waits in out and disarms the hold timer.
func (s *server) flushLocked() {
	if s.held != nil {
		s.held.Stop()
		s.held = nil
	}
	if s.err == nil && s.out.Buffered() > 0 {
		s.err = s.out.Flush()
	}
}

func (s *server) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = s.out.Write(append(b, '\n'))
	return err
}

// fatal tells evotune why the program stops, and returns err.
func (s *server) fatal(err error) error {
	b, _ := json.Marshal(wire.Reply{Type: wire.TypeError, Error: err.Error()})
	s.out.Write(append(b, '\n'))
	s.out.Flush()
	return err
}

// readLine reads one of evotune's lines (wire.ReadLine), its errors
// worded for the program's messages.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := wire.ReadLine(r, wire.MaxRequestLine)
	switch {
	case errors.Is(err, wire.ErrLineTooLong):
		return nil, fmt.Errorf("program: a line from evotune is longer than %d bytes", wire.MaxRequestLine)
	case errors.Is(err, wire.ErrPartialLine):
		return nil, errors.New("program: stdin ended in the middle of a line")
	}
	return line, err
}
