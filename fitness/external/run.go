package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/internal/printable"
)

// result is one game's result: an outcome (two-seat) or a cost (solo).
type result struct {
	outcome fitness.Outcome
	cost    float64
}

// call is one game to play: its request without the id, and what came of
// it.
type call struct {
	seed  uint64
	rules []byte   // the rules' JSON, the game's
	seats [][]byte // each seat's JSON, its player's: shared, not copied

	res     result
	done    bool
	refused string // the program answered with an error
	fails   int    // process failures while the game was in flight
	lastErr error
	tail    []string
}

// body calls write with the pieces of the request after its id:
// `,"seed":...}`. A call keeps the pieces, not the body: a seat may hold a
// grid of 65,536 cells (1.3 MB of JSON), shared by every game its player
// plays, and a copy per game made a batch of them take 80 MB.
func (c *call) body(write func([]byte)) {
	write([]byte(`,"seed":"`))
	write(strconv.AppendUint(nil, c.seed, 10))
	write([]byte(`","rules":`))
	write(c.rules)
	write([]byte(`,"seats":[`))
	for i, s := range c.seats {
		if i > 0 {
			write([]byte{','})
		}
		write(s)
	}
	write([]byte("]}"))
}

// size is the length of the request line, newline included, give or
// take the digits of its id.
func (c *call) size() int {
	n := 64 + len(c.rules)
	for _, s := range c.seats {
		n += len(s) + 1
	}
	return n
}

// line is the request line for id, with its newline.
func (c *call) line(id uint64) []byte {
	b := make([]byte, 0, c.size())
	b = append(b, `{"type":"play","id":`...)
	b = strconv.AppendUint(b, id, 10)
	c.body(func(p []byte) { b = append(b, p...) })
	return append(b, '\n')
}

// maxQuoted bounds the request an error quotes.
const maxQuoted = 2000

// text is the request as an error quotes it, cut short past maxQuoted
// bytes.
func (c *call) text() string {
	l := c.line(0)
	l = l[:len(l)-1]
	if len(l) > maxQuoted {
		return fmt.Sprintf("%s... (%d bytes)", l[:maxQuoted], len(l))
	}
	return string(l)
}

// failure is a process failure during run: the process must be killed,
// and the games in flight are suspects.
type failure struct {
	err    error
	exited bool // the program closed its stdout: it probably died
	// charged is the game a second reply was to, when it is of this
	// batch: the failure is its own, its result is not trusted, and the
	// games in flight are replayed without blame.
	charged *call
	// innocent says the games in flight are not to blame (a second
	// reply, to this batch's game or an earlier one's).
	innocent bool
}

func (f *failure) Error() string { return f.err.Error() }

// maxInFlightBytes bounds the bytes of the requests in flight on one
// process (one request may go alone whatever its size): requests that
// carry big grids (1.3 MB for 65,536 cells) would otherwise queue
// wire.MaxInFlight of them in memory, per process.
const maxInFlightBytes = 4 << 20

// run plays calls on p, pipelined, at most wire.MaxInFlight at a time and
// maxInFlightBytes of requests. It
// returns nil when every call is answered. On a process failure it
// returns a *failure with the calls that were in flight (suspects) and
// those not sent yet; on cancellation, ctx.Err().
func (p *proc) run(ctx context.Context, calls []*call, solo bool, timeout time.Duration) (inFlight, unsent []*call, err error) {
	base := p.nextID
	p.nextID += uint64(len(calls))
	defer func() { p.last, p.lastBase = calls, base }()
	next, answered := 0, 0
	live := make([]bool, len(calls))
	outstanding := 0
	sent := make([]int, len(calls)) // bytes of each request in flight
	sentBytes := 0                  // their sum
	var pending []byte
	t := time.NewTimer(timeout)
	defer t.Stop()
	fail := func(err error) ([]*call, []*call, error) {
		for i, c := range calls[:next] {
			if live[i] {
				inFlight = append(inFlight, c)
			}
		}
		return inFlight, calls[next:], &failure{err: err}
	}
	for answered < len(calls) {
		var in chan []byte
		if next < len(calls) && outstanding < wire.MaxInFlight {
			if pending == nil {
				pending = calls[next].line(base + uint64(next))
			}
			if outstanding == 0 || sentBytes+len(pending) <= maxInFlightBytes {
				in = p.in
			}
		}
		select {
		case in <- pending:
			sent[next] = len(pending)
			sentBytes += len(pending)
			pending = nil
			live[next] = true
			next++
			if outstanding == 0 {
				t.Reset(timeout)
			}
			outstanding++
		case line, ok := <-p.lines:
			if !ok {
				in, un, err := fail(p.readErr)
				err.(*failure).exited = true
				return in, un, err
			}
			id, r, refused, err := parseReply(line, solo)
			if err != nil {
				return fail(err)
			}
			k := id - base
			switch {
			case id < base:
				// A request of an earlier batch, answered then: its game is
				// done with (it is charged, for the record); the process
				// is not to be trusted.
				in, un, err := fail(fmt.Errorf("a second reply to request %d, answered before: %s", id, clip(line)))
				f := err.(*failure)
				f.innocent = true
				if k := id - p.lastBase; id >= p.lastBase && k < uint64(len(p.last)) {
					f.charged = p.last[k]
					f.charged.fails++
				}
				return in, un, err
			case id >= base && k < uint64(next) && calls[k].done:
				c := calls[k]
				c.done = false
				c.fails++
				in, un, err := fail(fmt.Errorf("a second reply to request %d: %s", id, clip(line)))
				err.(*failure).innocent, err.(*failure).charged = true, c
				return in, un, err
			case id < base || k >= uint64(next) || !live[k]:
				return fail(fmt.Errorf("reply to unknown request id %d: %s", id, clip(line)))
			}
			live[k] = false
			sentBytes -= sent[k]
			outstanding--
			answered++
			p.served++
			c := calls[k]
			c.res, c.refused, c.done = r, refused, true
			t.Reset(timeout)
		case <-t.C:
			if outstanding > 0 {
				return fail(fmt.Errorf("no reply within %v", timeout))
			}
		case <-ctx.Done():
			return fail(ctx.Err())
		}
	}
	return nil, nil, nil
}

// parseReply reads one reply line.
func parseReply(line []byte, solo bool) (id uint64, r result, refused string, err error) {
	var rep wire.Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return 0, r, "", fmt.Errorf("garbage on stdout (%v): %s", err, clip(line))
	}
	if rep.ID == nil {
		if rep.Type == wire.TypeError {
			return 0, r, "", fmt.Errorf("the program gave up: %s", printable.Escape(rep.Error))
		}
		return 0, r, "", fmt.Errorf("reply without an id: %s", clip(line))
	}
	id = *rep.ID
	switch rep.Type {
	case wire.TypeError:
		if rep.Error == "" {
			rep.Error = "error without a message"
		}
		return id, r, rep.Error, nil
	case wire.TypeResult:
	default:
		return 0, r, "", fmt.Errorf("reply of type %q: %s", rep.Type, clip(line))
	}
	if solo {
		if rep.Cost == nil || !finite(*rep.Cost) {
			return 0, r, "", fmt.Errorf("solo result without a finite cost: %s", clip(line))
		}
		r.cost = *rep.Cost
		return id, r, "", nil
	}
	switch rep.Outcome {
	case wire.Win:
		r.outcome = fitness.Win
	case wire.Draw:
		r.outcome = fitness.Draw
	case wire.Loss:
		r.outcome = fitness.Loss
	default:
		return 0, r, "", fmt.Errorf(`outcome %q is not "win", "draw" or "loss": %s`, rep.Outcome, clip(line))
	}
	return id, r, "", nil
}

// source hands out processes: the Game's pool, or the audit's.
type source interface {
	get(ctx context.Context) (*proc, error)
	put(p *proc)  // a healthy process, after use
	drop(p *proc) // a failed process: kill it
}

// playAll plays calls on processes from src. A process failure kills the
// process; the games that were in flight are replayed one at a time on
// new processes (so the failing game is found and the others are not
// blamed), up to 1+retries tries each; the rest go on pipelined. A
// failure counts against a game only when it was the one game in flight.
//
// A failed batch reports its first failing game in batch order, as a
// *fitness.GameError wrapping a *GameError: the same game whatever the
// timing. Games are sent in order, so when one runs out of retries every
// earlier one has an answer.
func (g *Game) playAll(ctx context.Context, src source, calls []*call) error {
	g.asked.Add(int64(len(calls)))
	pending := calls
	for len(pending) > 0 {
		p, err := src.get(ctx)
		if err != nil {
			if err := fatal(ctx, err); err != nil {
				return err
			}
			pending[0].fails++
			pending[0].lastErr = err
			if failed, err := g.isolate(ctx, src, pending[:1]); failed != nil || err != nil {
				return g.firstError(calls, failed, err)
			}
			pending = pending[1:]
			continue
		}
		suspects, unsent, err := p.run(ctx, pending, g.desc.Solo, g.cmd.timeout())
		if err == nil {
			src.put(p)
			break
		}
		src.drop(p)
		if err := fatal(ctx, err); err != nil {
			return err
		}
		tail := p.stderrTail()
		cause := describeFailure(err, p)
		var f *failure
		errors.As(err, &f)
		if f.charged != nil && !f.charged.done && slices.Contains(calls, f.charged) {
			suspects = append([]*call{f.charged}, suspects...) // its result is not trusted
		}
		for _, c := range suspects {
			if len(suspects) == 1 && !f.innocent {
				c.fails++ // the only game in flight: the failure is its own
			}
			c.lastErr, c.tail = cause, tail
		}
		if err := g.note(p, cause, len(suspects)); err != nil {
			return tooManyFailures(f, suspects, err)
		}
		if failed, err := g.isolate(ctx, src, suspects); failed != nil || err != nil {
			return g.firstError(calls, failed, err)
		}
		pending = unsent
	}
	return g.firstError(calls, nil, nil)
}

// tooManyFailures is the error that stops a game whose program failed
// too often (err, from note), naming the game the last failure is
// charged to, else the first suspect.
func tooManyFailures(f *failure, suspects []*call, err error) error {
	c := f.charged
	if c == nil {
		c = suspects[0]
	}
	return &fitness.GameError{Seed: c.seed, Err: fmt.Errorf("external: %w", err)}
}

// firstError returns the error of the first call in batch order that the
// program refused or that is failed (out of retries); fatal, if set,
// wins.
func (g *Game) firstError(calls []*call, failed *call, fatal error) error {
	if fatal != nil {
		return fatal
	}
	for _, c := range calls {
		var ge *GameError
		switch {
		case c == failed:
			ge = &GameError{Seed: c.seed, Request: c.text(), Attempts: c.fails, StderrTail: c.tail, TailShown: g.cmd.StderrShown, Err: c.lastErr}
		case c.refused != "":
			ge = &GameError{Seed: c.seed, Request: c.text(), Attempts: c.fails + 1,
				StderrTail: c.tail, TailShown: g.cmd.StderrShown, Err: fmt.Errorf("the program answered: %s", printable.Escape(c.refused))}
		default:
			continue
		}
		return &fitness.GameError{Seed: c.seed, Err: ge}
	}
	return nil
}

// isolate plays each call alone until it succeeds or has failed
// 1+retries times; it returns the first call that runs out of retries,
// or an error that ends the batch at once.
func (g *Game) isolate(ctx context.Context, src source, calls []*call) (*call, error) {
	for _, c := range calls {
		for !c.done {
			if c.fails > g.cmd.retries() {
				return c, nil
			}
			p, err := src.get(ctx)
			if err != nil {
				if err := fatal(ctx, err); err != nil {
					return nil, err
				}
				c.fails++
				c.lastErr = err
				if se := (*SetupError)(nil); errors.As(err, &se) {
					c.tail = se.StderrTail
				}
				continue
			}
			if _, _, err := p.run(ctx, []*call{c}, g.desc.Solo, g.cmd.timeout()); err != nil {
				src.drop(p)
				if err := fatal(ctx, err); err != nil {
					return nil, err
				}
				var f *failure
				if errors.As(err, &f); !f.innocent {
					c.fails++ // the only game in flight: the failure is its own
				}
				c.lastErr, c.tail = describeFailure(err, p), p.stderrTail()
				if err := g.note(p, c.lastErr, 1); err != nil {
					return nil, tooManyFailures(f, []*call{c}, err)
				}
				continue
			}
			src.put(p)
		}
	}
	return nil, nil
}

// errTooManyFailures marks the error of a game whose program failed more
// often than maxFailures allows.
var errTooManyFailures = errors.New("evotune stops it")

// maxFailures is how many process failures (each a restart) a game
// allows once games have been asked of it: a program that fails in more
// than one game in twenty (after ten failures, which any count of games
// allows) is broken, not unlucky, and restarting it for ever would only
// slow the run down. (TestFlakyProgramGivesTheSameResults's program
// fails in one game in a hundred and must not be stopped.)
func maxFailures(games int64) int64 { return 10 + games/20 }

// note tells the log (Command.Stderr) that a process failed, so that a
// run slowed by restarts and replays says why, and counts the failure
// against the game's bound: past it, it returns an error wrapping
// errTooManyFailures.
func (g *Game) note(p *proc, cause error, replays int) error {
	msg := fmt.Sprintf("process failed: %v; %d game%s to replay", cause, replays, plural(replays))
	g.sink.writeLine([]byte("[evotune] pid "+strconv.Itoa(p.pid)+": "), []byte(strings.ReplaceAll(msg, "\n", " ")))
	failures, asked := g.failures.Add(1), g.asked.Load()
	if failures > maxFailures(asked) {
		return fmt.Errorf("the program failed %d times in %d games (the last: %v); %w", failures, asked, cause, errTooManyFailures)
	}
	return nil
}

// fatal returns the error that ends a batch at once, rather than count
// as a failure of the game: cancellation, or a closed game.
func fatal(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, ErrClosed) {
		return ErrClosed
	}
	return nil
}

// describeFailure words a process failure; call after p.kill.
func describeFailure(err error, p *proc) error {
	var f *failure
	if errors.As(err, &f) && f.exited {
		return fmt.Errorf("%v; it %s", f.err, p.exitText())
	}
	return err
}
