package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/internal/childproc"
)

// MaxLine bounds a line an engine writes: a longer one is garbage
// (fitness.FaultGarbage). A principal variation of 500 moves is 3 KB.
const MaxLine = 64 << 10

// conn is one engine process and evotune's side of its UCI session. It
// is used by one seat at a time.
type conn struct {
	name string // the player's name, "uci:dev", for faults
	p    *childproc.Proc
	r    *bufio.Reader     // its stdout
	buf  []byte            // the next write
	cur  map[string]string // each option's value in the process, by its name
	// dead is the fault that killed the process (or ErrClosed); a dead
	// conn is never used again.
	dead error
	// closed is set by Engine.Close, which kills the process under the
	// seat using it: what fails then is the engine's closing, not a
	// fault.
	closed atomic.Bool
	// waited adds up the wall time spent waiting for the engine's
	// answers (readyok, bestmove), in ns: its engine's, or nil.
	waited *atomic.Int64
}

// startError is a process that could not be started at all (its
// program is missing): the engine's failure, not a stall or a crash.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// dial starts the engine's process and runs the handshake: `uci`, then
// `id` and `option` lines until `uciok` within the start-up timeout.
// Lines that are not UCI are skipped (Toga II prints a banner first);
// an option line that does not parse is kept in info.Unparsed. Its
// error is a *startError, or a *fitness.FaultError for a process that
// started but failed the handshake.
func dial(ctx context.Context, d *Definition, name string, stderr childproc.StderrSink) (*conn, EngineInfo, error) {
	path, err := childproc.LookPath(d.Command[0], d.Dir)
	if err != nil {
		return nil, EngineInfo{}, &startError{err}
	}
	p, err := childproc.Start(childproc.Cmd{Path: path, Args: slices.Clone(d.Command), Dir: d.Dir, Env: d.Env, Stderr: stderr})
	if err != nil {
		return nil, EngineInfo{}, &startError{err}
	}
	c := &conn{name: name, p: p, r: bufio.NewReaderSize(p.Stdout(), 64<<10), cur: map[string]string{}}
	var info EngineInfo
	c.add("uci")
	if err := c.flush(d.timeouts().Start, "uciok"); err != nil {
		return nil, info, err
	}
	err = c.await(ctx, d.timeouts().Start, "uciok", func(k lineKind, line string) (bool, error) {
		switch k {
		case lineUCIOK:
			return true, nil
		case lineID:
			f := fields(line)
			if len(f) >= 3 && f[1] == "name" && info.Name == "" {
				info.Name = strings.Join(f[2:], " ")
			}
			if len(f) >= 3 && f[1] == "author" && info.Author == "" {
				info.Author = strings.Join(f[2:], " ")
			}
		case lineOption:
			o, err := ParseOption(line)
			switch {
			case err != nil:
				info.Unparsed = append(info.Unparsed, err.Error())
			case info.lookup(o.Name) != nil:
				info.Unparsed = append(info.Unparsed, "option "+o.Name+" declared twice: the first kept")
			default:
				info.Options = append(info.Options, o)
			}
		}
		return false, nil
	})
	if err != nil {
		return nil, info, err
	}
	for _, o := range info.Options {
		c.cur[o.Name] = o.Default
	}
	return c, info, nil
}

// add queues a command line for the next flush.
func (c *conn) add(parts ...string) {
	for i, s := range parts {
		if i > 0 {
			c.buf = append(c.buf, ' ')
		}
		c.buf = append(c.buf, s...)
	}
	c.buf = append(c.buf, '\n')
}

// flush writes the queued lines in one write, which must finish within
// timeout: an engine that stops reading its input stalls; one whose
// input is closed crashed before what it was to answer.
func (c *conn) flush(timeout time.Duration, what string) error {
	if c.dead != nil {
		return c.dead
	}
	in := c.p.Stdin()
	in.SetWriteDeadline(time.Now().Add(timeout))
	_, err := in.Write(c.buf)
	c.buf = c.buf[:0]
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return c.fail(fitness.FaultStall, fmt.Sprintf("it read none of its input for %v", timeout))
	case errors.Is(err, syscall.EPIPE):
		// Said as ended says it: which of the two sees the exit first
		// is a matter of timing.
		c.p.Kill()
		return c.fail(fitness.FaultCrash, fmt.Sprintf("it %s before %s", c.p.ExitText(), what))
	}
	return c.fail(fitness.FaultCrash, "writing to it: "+err.Error())
}

// setOption queues setoption for option o at value v (checked), unless
// the process holds it already.
func (c *conn) setOption(o *Option, v string, force bool) {
	if !force && c.cur[o.Name] == v {
		return
	}
	if o.Type == Button {
		c.add("setoption name", o.Name)
		return
	}
	sent := v
	if o.Type == String && v == "" {
		sent = "<empty>"
	}
	c.add("setoption name", o.Name, "value", sent)
	c.cur[o.Name] = v
}

// ready sends what is queued and `isready`, and waits for `readyok`.
func (c *conn) ready(ctx context.Context, timeout time.Duration) error {
	c.add("isready")
	if err := c.flush(timeout, "readyok"); err != nil {
		return err
	}
	return c.await(ctx, timeout, "readyok", func(k lineKind, _ string) (bool, error) {
		return k == lineReadyOK, nil
	})
}

// await reads lines, handing each to fn with its kind, until fn says it
// is done, within timeout of wall time. An engine that says nothing
// more stalls; one that ends its output crashed; one that writes a line
// over MaxLine writes garbage. Every such fault kills the process. A
// cancelled ctx kills it too and returns ctx.Err().
//
// The lines are read on the caller's goroutine, with a deadline, not
// handed over from a reader's: a move at 1,000 nodes is a millisecond,
// and every goroutine woken per line costs evotune CPU that two workers
// would take from the engines.
func (c *conn) await(ctx context.Context, timeout time.Duration, what string, fn func(lineKind, string) (bool, error)) error {
	if c.dead != nil {
		return c.dead
	}
	if c.waited != nil {
		begin := time.Now()
		defer func() { c.waited.Add(int64(time.Since(begin))) }()
	}
	out := c.p.Stdout()
	out.SetReadDeadline(time.Now().Add(timeout))
	// A cancelled ctx ends the wait at once: the read's deadline passes.
	stop := context.AfterFunc(ctx, func() { out.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	for {
		b, err := childproc.ReadLine(c.r, MaxLine)
		if err != nil {
			if ctx.Err() != nil {
				c.kill()
				return ctx.Err()
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return c.fail(fitness.FaultStall, fmt.Sprintf("no %s within %v", what, timeout))
			}
			return c.ended(err, what)
		}
		line := string(b)
		done, err := fn(kindOf(line), line)
		if err != nil || done {
			return err
		}
	}
}

// ended is the fault of an engine whose output ended while evotune
// waited for what.
func (c *conn) ended(err error, what string) error {
	if errors.Is(err, childproc.ErrLineTooLong) {
		return c.fail(fitness.FaultGarbage, fmt.Sprintf("%v while evotune waited for %s", err, what))
	}
	c.p.Kill()
	detail := fmt.Sprintf("it %s before %s", c.p.ExitText(), what)
	switch {
	case errors.Is(err, childproc.ErrPartialLine):
		detail = fmt.Sprintf("it %s in the middle of a line, before %s", c.p.ExitText(), what)
	case !errors.Is(err, childproc.ErrClosed):
		detail = fmt.Sprintf("reading its output: %v; it %s before %s", err, c.p.ExitText(), what)
	}
	return c.fail(fitness.FaultCrash, detail)
}

// fail kills the process and records the fault, quoting the last line
// of its stderr.
func (c *conn) fail(kind fitness.Fault, detail string) error {
	if c.dead != nil {
		return c.dead
	}
	c.p.Kill()
	if c.closed.Load() {
		c.dead = ErrClosed
		return c.dead
	}
	if tail := c.p.Tail(); len(tail) > 0 {
		detail += "; its stderr ended: " + strconv.Quote(tail[len(tail)-1])
	}
	c.dead = &fitness.FaultError{Kind: kind, Player: c.name, Detail: detail}
	return c.dead
}

// kill kills the process, which is not to be used again.
func (c *conn) kill() {
	c.p.Kill()
	if c.dead == nil {
		c.dead = &fitness.FaultError{Kind: fitness.FaultCrash, Player: c.name, Detail: "killed by evotune"}
	}
}

// timing is a move's time: under movetime or a clock, its budget in ms
// (the clock's time left, which may be below zero) and the margin past
// it within which a move is on time.
type timing struct {
	timed          bool
	budget, margin int64
}

// late reports whether a move that took elapsed ms is past its time by
// more than the margin.
func (t timing) late(elapsed int64) bool { return t.timed && elapsed > t.budget+t.margin }

// search is one move: position, go, then info lines until bestmove.
// The reply's Elapsed is from the write of `go` to the read of
// `bestmove`. wait bounds the wait for bestmove at a node or depth
// limit; a timed move waits its budget and margin and a second more,
// and one past its budget by more than its margin is a time loss.
func (c *conn) search(ctx context.Context, position, goCmd string, l Limit, wait time.Duration, t timing) (chess.Reply, error) {
	if t.timed {
		// A second more, so that a late answer is told from none.
		wait = time.Duration(max(t.budget+t.margin, 0))*time.Millisecond + time.Second
	}
	c.buf = append(c.buf, position...)
	c.buf = append(c.buf, '\n')
	c.buf = append(c.buf, goCmd...)
	c.buf = append(c.buf, '\n')
	begin := time.Now()
	if err := c.flush(wait, "bestmove"); err != nil {
		return chess.Reply{}, err
	}
	var r chess.Reply
	var exact, bound *Info // the last scores said, exact and bounds
	var ex, bd Info
	err := c.await(ctx, wait, "bestmove", func(k lineKind, line string) (bool, error) {
		switch k {
		case lineInfo:
			in, err := ParseInfo(line)
			if err != nil || in.String {
				return false, nil
			}
			if in.HasNodes && in.Nodes > r.Nodes {
				r.Nodes = in.Nodes
				if ignores(l, in.Nodes) {
					c.kill()
					return false, &LimitError{Engine: c.name, Limit: l, Nodes: in.Nodes}
				}
			}
			if in.HasScore && in.MultiPV <= 1 {
				if in.Bound == Exact {
					ex, exact = in, &ex
				} else {
					bd, bound = in, &bd
				}
			}
			if in.HasDepth {
				r.Depth = in.Depth
			}
		case lineBestMove:
			mv, err := ParseBestMove(line)
			if err != nil {
				return false, c.fail(fitness.FaultGarbage, fmt.Sprintf("%q in answer to %s", line, goCmd))
			}
			r.Move = mv
			return true, nil
		}
		return false, nil
	})
	elapsed := time.Since(begin)
	r.Elapsed = elapsed.Milliseconds()
	if err != nil {
		var fe *fitness.FaultError
		if t.timed && errors.As(err, &fe) && fe.Kind == fitness.FaultStall {
			// No answer within the move's time and its margin: on a
			// clock that is a loss on time, as fastchess scores it.
			fe.Kind = fitness.FaultTime
			fe.Detail = fmt.Sprintf("no bestmove within its %d ms and the margin of %d ms", t.budget, t.margin)
		}
		return r, err
	}
	if s := exact; s != nil || bound != nil {
		if s == nil {
			s = bound
		}
		r.Score, r.Mate, r.HasScore = s.Score, s.Mate, true
		if s.HasDepth {
			r.Depth = s.Depth
		}
	}
	if t.late(r.Elapsed) {
		return r, &fitness.FaultError{Kind: fitness.FaultTime, Player: c.name,
			Detail: fmt.Sprintf("its move took %d ms of its %d ms, past the margin of %d ms", r.Elapsed, t.budget, t.margin)}
	}
	return r, nil
}

// ignores reports whether an engine that reported nodes searched
// ignores limit l: told `go nodes n` it searched past 4n + 4096 (engines
// check the limit every so many nodes, so a small overrun is normal).
func ignores(l Limit, nodes int64) bool { return l.Nodes > 0 && nodes > 4*l.Nodes+4096 }

// LimitError says an engine does not honour its limit: told `go nodes
// N` it searched far more (Toga II ignores go nodes). It is the run's
// failure (the config's to fix), not a lost game.
type LimitError struct {
	Engine string
	Limit  Limit
	Nodes  int64 // the count it reported
	None   bool  // it reported no node count at all
}

func (e *LimitError) Error() string {
	if e.None {
		return fmt.Sprintf("uci: %s reports no node count, so evotune cannot tell that it honours go nodes %d: give it a depth or movetime limit instead", e.Engine, e.Limit.Nodes)
	}
	return fmt.Sprintf("uci: %s ignores go nodes %d: it reported %d nodes searched; give it a depth or movetime limit instead", e.Engine, e.Limit.Nodes, e.Nodes)
}

// positionCmd writes the position command: startpos when the game
// began at the standard start.
func positionCmd(b []byte, pos chess.Position) []byte {
	b = b[:0]
	if pos.StartFEN == "" || pos.StartFEN == StartFEN {
		b = append(b, "position startpos"...)
	} else {
		b = append(b, "position fen "...)
		b = append(b, pos.StartFEN...)
	}
	if len(pos.Moves) > 0 {
		b = append(b, " moves"...)
		for _, m := range pos.Moves {
			b = append(b, ' ')
			b = append(b, m...)
		}
	}
	return b
}

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// goCmd writes the go command of limit l; under a clock, the clocks
// are ck's (a time below zero, after an overrun within the margin, is
// sent as 0).
func goCmd(l Limit, ck *chess.Clock) string {
	switch {
	case l.Nodes > 0:
		return "go nodes " + strconv.FormatInt(l.Nodes, 10)
	case l.Depth > 0:
		return "go depth " + strconv.Itoa(l.Depth)
	case l.MoveTime > 0:
		return "go movetime " + strconv.FormatInt(l.MoveTime, 10)
	}
	s := fmt.Sprintf("go wtime %d btime %d", max(ck.Time[chess.White], 0), max(ck.Time[chess.Black], 0))
	if ck.Inc[chess.White] > 0 || ck.Inc[chess.Black] > 0 {
		s += fmt.Sprintf(" winc %d binc %d", ck.Inc[chess.White], ck.Inc[chess.Black])
	}
	if ck.MovesToGo > 0 {
		s += " movestogo " + strconv.Itoa(ck.MovesToGo)
	}
	return s
}
