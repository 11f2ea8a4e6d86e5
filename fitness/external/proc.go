package external

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/internal/childproc"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/printable"
)

// proc is one running child process (internal/childproc runs it). Its
// writer goroutine writes the lines sent on in, flushing when no more
// are waiting; its reader goroutine delivers stdout lines on lines and
// closes it at EOF or on a protocol error (readErr says which); its
// stderr lines go to the game's sink within budgets (procSink), and the
// last few are kept.
type proc struct {
	cp  *childproc.Proc
	pid int

	in    chan []byte
	lines chan []byte
	quit  chan struct{} // closed by kill: the writer stops

	readErr error // valid once lines is closed

	killOnce sync.Once

	nextID uint64 // request ids, unique within the process
	// The calls of the last batch played, ids from lastBase: a second
	// reply to one of them is charged to it.
	last     []*call
	lastBase uint64
	served   int // games answered
}

// The bounds of what a program's stderr may write to the log (run.log):
// a program that floods its stderr (134 MB in 3 s, before) must not fill
// the disk. Each process may write maxProcLines lines or maxProcBytes
// bytes, whichever comes first, and all the processes of one game (a
// run's, restarts included) maxSinkLines or maxSinkBytes. Past a bound
// the lines are dropped and counted: one line says so when it is
// reached, and one more gives the count when the process ends (for a
// process) or the game is closed (for the game). The last childproc.TailLines
// lines, which errors quote, are kept whatever was dropped. Variables
// for tests.
var (
	maxProcLines = 1000
	maxProcBytes = 256 << 10
	maxSinkLines = 20000
	maxSinkBytes = 4 << 20
)

// syncWriter serialises whole lines from several processes into one
// sink, within the game's stderr budget.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
	// What the processes' stderr wrote, and what was dropped.
	lines, bytes               int
	droppedLines, droppedBytes int
	full                       bool // the game's budget is spent
	closed                     bool
}

// newSink returns the sink of w; nil (lines dropped) for a nil w.
func newSink(w io.Writer) *syncWriter {
	if w == nil {
		return nil
	}
	return &syncWriter{w: w}
}

// writeLine writes one of evotune's own lines, outside the budget.
func (s *syncWriter) writeLine(prefix, line []byte) {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.write(prefix, line)
}

func (s *syncWriter) write(prefix, line []byte) {
	line = []byte(printable.Line(string(line))) // the program's text
	buf := make([]byte, 0, len(prefix)+len(line)+1)
	buf = append(append(append(buf, prefix...), line...), '\n')
	s.w.Write(buf) // a broken log must not stop the games
}

// stderrLine writes a line of a process's stderr within the game's
// budget; past it, the line is dropped and counted, and false returned.
func (s *syncWriter) stderrLine(prefix, line []byte) bool {
	if s == nil || s.w == nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.full && (s.lines >= maxSinkLines || s.bytes+len(line) > maxSinkBytes) {
		s.full = true
		s.write([]byte("[evotune] "), fmt.Appendf(nil, "the program's stderr passed %d lines or %s in all; the rest is dropped (an error still quotes a process's last lines)",
			maxSinkLines, fileio.Size(int64(maxSinkBytes))))
	}
	if s.full {
		s.droppedLines++
		s.droppedBytes += len(line)
		return false
	}
	s.lines++
	s.bytes += len(line)
	s.write(prefix, line)
	return true
}

// dropped counts lines a process dropped past its own budget, and writes
// the process's note unless the game's budget is spent, which silences
// the notes too.
func (s *syncWriter) dropped(prefix []byte, lines, bytes int, note string) {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.droppedLines += lines
	s.droppedBytes += bytes
	if !s.full && note != "" {
		s.write(prefix, []byte(note))
	}
}

// close writes the count of what the game's budget dropped.
func (s *syncWriter) close() {
	if s == nil || s.w == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.full && !s.closed {
		s.closed = true
		s.write([]byte("[evotune] "), fmt.Appendf(nil, "%d lines (%s) of the program's stderr dropped in all", s.droppedLines, fileio.Size(int64(s.droppedBytes))))
	}
}

// start starts the program with its stdio on pipes in a process group of
// its own, so that kill reaches its children too.
func start(c Command, sink *syncWriter) (*proc, error) {
	prog, err := c.program()
	if err != nil {
		return nil, err
	}
	cp, err := childproc.Start(childproc.Cmd{Path: prog, Args: c.Argv, Dir: c.Dir, Env: c.Env, Stderr: &procSink{sink: sink}})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", prog, errors.Unwrap(err))
	}
	p := &proc{
		cp: cp, pid: cp.Pid(),
		in:    make(chan []byte, wire.MaxInFlight),
		lines: make(chan []byte, wire.MaxInFlight),
		quit:  make(chan struct{}),
	}
	go p.write()
	go p.read()
	return p, nil
}

func (p *proc) write() {
	w := bufio.NewWriterSize(p.cp.Stdin(), 64<<10)
	var failed bool
	for {
		select {
		case <-p.quit:
			return
		case line := <-p.in:
			if failed {
				continue // the reader will see the process die
			}
			_, err := w.Write(line)
			if err == nil && len(p.in) == 0 {
				err = w.Flush()
			}
			failed = err != nil
		}
	}
}

func (p *proc) read() {
	defer close(p.lines)
	r := bufio.NewReaderSize(p.cp.Stdout(), 64<<10)
	limit := wire.MaxHelloLine
	for {
		line, err := readLine(r, limit)
		if err != nil {
			if err == io.EOF {
				err = errors.New("program closed its stdout")
			}
			p.readErr = err
			return
		}
		select {
		case p.lines <- line:
		case <-p.quit:
			p.readErr = errors.New("killed")
			return
		}
		limit = wire.MaxReplyLine
	}
}

// readLine reads one of the program's lines (wire.ReadLine), its errors
// worded for evotune's messages.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	line, err := wire.ReadLine(r, limit)
	switch {
	case errors.Is(err, wire.ErrLineTooLong):
		return nil, fmt.Errorf("%w (over %d bytes)", wire.ErrLineTooLong, limit)
	case errors.Is(err, wire.ErrPartialLine):
		return nil, errors.New("program closed its stdout in the middle of a line")
	}
	return line, err
}

// procSink takes one process's stderr lines to the game's sink, within
// the process's budget and the game's.
type procSink struct {
	sink                       *syncWriter
	lines, size                int
	droppedLines, droppedBytes int
}

// Line takes one line, escaped (childproc did).
func (s *procSink) Line(pid int, line string) {
	prefix := []byte("[pid " + strconv.Itoa(pid) + "] ")
	switch {
	case s.droppedLines == 0 && s.lines < maxProcLines && s.size+len(line) <= maxProcBytes:
		if s.sink.stderrLine(prefix, []byte(line)) {
			s.lines++
			s.size += len(line)
		}
	case s.droppedLines == 0:
		s.sink.dropped(prefix, 1, len(line), fmt.Sprintf("stderr: more than %d lines or %s from this process; the rest is dropped (an error still quotes its last lines)",
			maxProcLines, fileio.Size(int64(maxProcBytes))))
		s.droppedLines, s.droppedBytes = 1, len(line)
	default:
		s.sink.dropped(prefix, 1, len(line), "")
		s.droppedLines++
		s.droppedBytes += len(line)
	}
}

// End says what the process's budget dropped.
func (s *procSink) End(pid int) {
	if s.droppedLines > 0 {
		s.sink.dropped([]byte("[pid "+strconv.Itoa(pid)+"] "), 0, 0, fmt.Sprintf("stderr: %d lines (%s) dropped", s.droppedLines, fileio.Size(int64(s.droppedBytes))))
	}
}

// stderrTail returns the last stderr lines seen.
func (p *proc) stderrTail() []string { return p.cp.Tail() }

// kill stops the writer and reader goroutines, kills the process group,
// reaps the process and closes the pipes (childproc.Proc.Kill, which
// waits briefly for the last stderr lines, so that errors can quote
// them). Safe to call more than once and from several goroutines.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		close(p.quit)
		p.cp.Kill()
	})
}

// exitText describes how the process ended, for errors; call after kill.
func (p *proc) exitText() string { return p.cp.ExitText() }
