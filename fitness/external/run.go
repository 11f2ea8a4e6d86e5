package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external/internal/wire"
)

// result is one game's result: an outcome (two-seat) or a cost (solo).
type result struct {
	outcome fitness.Outcome
	cost    float64
}

// call is one game to play: its request without the id, and what came of
// it.
type call struct {
	seed uint64
	body []byte // the request line after the id: `,"seed":...}`

	res     result
	done    bool
	refused string // the program answered with an error
	fails   int    // process failures while the game was in flight
	lastErr error
	tail    []string
}

// line is the request line for id, with its newline.
func (c *call) line(id uint64) []byte {
	b := make([]byte, 0, len(c.body)+40)
	b = append(b, `{"type":"play","id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, c.body...)
	return append(b, '\n')
}

// text is the request as an error quotes it.
func (c *call) text() string {
	l := c.line(0)
	return string(l[:len(l)-1])
}

// failure is a process failure during run: the process must be killed,
// and the games in flight are suspects.
type failure struct {
	err    error
	exited bool // the program closed its stdout: it probably died
}

func (f *failure) Error() string { return f.err.Error() }

// run plays calls on p, pipelined, at most wire.MaxInFlight at a time. It
// returns nil when every call is answered. On a process failure it
// returns a *failure with the calls that were in flight (suspects) and
// those not sent yet; on cancellation, ctx.Err().
func (p *proc) run(ctx context.Context, calls []*call, solo bool, timeout time.Duration) (inFlight, unsent []*call, err error) {
	base := p.nextID
	p.nextID += uint64(len(calls))
	next, answered := 0, 0
	live := make([]bool, len(calls))
	outstanding := 0
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
			in = p.in
		}
		select {
		case in <- pending:
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
			if id < base || k >= uint64(next) || !live[k] {
				return fail(fmt.Errorf("reply to unknown request id %d: %s", id, clip(line)))
			}
			live[k] = false
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
			return 0, r, "", fmt.Errorf("the program gave up: %s", rep.Error)
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
		g.note(p, cause, len(suspects))
		for _, c := range suspects {
			if len(suspects) == 1 {
				c.fails++ // the only game in flight: the failure is its own
			}
			c.lastErr, c.tail = cause, tail
		}
		if failed, err := g.isolate(ctx, src, suspects); failed != nil || err != nil {
			return g.firstError(calls, failed, err)
		}
		pending = unsent
	}
	return g.firstError(calls, nil, nil)
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
				StderrTail: c.tail, TailShown: g.cmd.StderrShown, Err: fmt.Errorf("the program answered: %s", c.refused)}
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
				c.fails++
				c.lastErr, c.tail = describeFailure(err, p), p.stderrTail()
				g.note(p, c.lastErr, 1)
				continue
			}
			src.put(p)
		}
	}
	return nil, nil
}

// note tells the log (Command.Stderr) that a process failed, so that a
// run slowed by restarts and replays says why.
func (g *Game) note(p *proc, cause error, replays int) {
	msg := fmt.Sprintf("process failed: %v; %d game%s to replay", cause, replays, plural(replays))
	g.sink.writeLine([]byte("[evotune] pid "+strconv.Itoa(p.pid)+": "), []byte(strings.ReplaceAll(msg, "\n", " ")))
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
