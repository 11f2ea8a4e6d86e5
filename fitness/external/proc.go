package external

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode"

	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/internal/fileio"
)

// tailLines is how many of a program's last stderr lines an error quotes.
const tailLines = 10

// maxTailLine bounds one quoted stderr line.
const maxTailLine = 300

// proc is one running child process. Its writer goroutine writes the
// lines sent on in, flushing when no more are waiting; its reader
// goroutine delivers stdout lines on lines and closes it at EOF or on a
// protocol error (readErr says which); its stderr goroutine forwards
// stderr lines and keeps the last few.
type proc struct {
	cmd   *exec.Cmd
	pid   int
	stdin *os.File

	in    chan []byte
	lines chan []byte
	quit  chan struct{} // closed by kill: the writer stops

	readErr error // valid once lines is closed

	stdout, stderr *os.File // parent ends, closed by kill
	stderrDone     chan struct{}

	tailMu sync.Mutex
	tail   []string

	killOnce sync.Once
	waitErr  error // the exit status, valid after kill

	nextID uint64 // request ids, unique within the process
	served int    // games answered
}

// The bounds of what a program's stderr may write to the log (run.log):
// a program that floods its stderr (134 MB in 3 s, before) must not fill
// the disk. Each process may write maxProcLines lines or maxProcBytes
// bytes, whichever comes first, and all the processes of one game (a
// run's, restarts included) maxSinkLines or maxSinkBytes. Past a bound
// the lines are dropped and counted: one line says so when it is
// reached, and one more gives the count when the process ends (for a
// process) or the game is closed (for the game). The last tailLines
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
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := &exec.Cmd{
		Path:        prog,
		Args:        c.Argv,
		Dir:         c.Dir,
		Env:         append(os.Environ(), c.Env...),
		Stdin:       inR,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: sysProcAttr(),
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", prog, err)
	}
	p := &proc{
		cmd: cmd, pid: cmd.Process.Pid, stdin: inW,
		in:     make(chan []byte, wire.MaxInFlight),
		lines:  make(chan []byte, wire.MaxInFlight),
		quit:   make(chan struct{}),
		stdout: outR, stderr: errR,
		stderrDone: make(chan struct{}),
	}
	go p.write()
	go p.read()
	go p.forward(sink)
	return p, nil
}

func (p *proc) write() {
	w := bufio.NewWriterSize(p.stdin, 64<<10)
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
	r := bufio.NewReaderSize(p.stdout, 64<<10)
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

// forward copies stderr to the sink line by line, within the process's
// budget and the game's, and keeps the tail.
func (p *proc) forward(sink *syncWriter) {
	defer close(p.stderrDone)
	r := bufio.NewReaderSize(p.stderr, 16<<10)
	prefix := []byte("[pid " + strconv.Itoa(p.pid) + "] ")
	var lines, size, droppedLines, droppedBytes int
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			line = printable(bytes.TrimSuffix(line, []byte("\n")))
			p.keep(line)
			switch {
			case droppedLines == 0 && lines < maxProcLines && size+len(line) <= maxProcBytes:
				if sink.stderrLine(prefix, line) {
					lines++
					size += len(line)
				}
			case droppedLines == 0:
				sink.dropped(prefix, 1, len(line), fmt.Sprintf("stderr: more than %d lines or %s from this process; the rest is dropped (an error still quotes its last lines)",
					maxProcLines, fileio.Size(int64(maxProcBytes))))
				droppedLines, droppedBytes = 1, len(line)
			default:
				sink.dropped(prefix, 1, len(line), "")
				droppedLines++
				droppedBytes += len(line)
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			break
		}
	}
	if droppedLines > 0 {
		sink.dropped(prefix, 0, 0, fmt.Sprintf("stderr: %d lines (%s) dropped", droppedLines, fileio.Size(int64(droppedBytes))))
	}
}

// printable escapes the control characters of a line of a program's
// stderr (a terminal's escape sequences, a carriage return), so that it
// reaches a log, a terminal or an error as the text it is. A tab stays
// (a Go stack trace indents with them).
func printable(line []byte) []byte {
	if bytes.IndexFunc(line, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) < 0 {
		return line
	}
	q := strconv.QuoteToGraphic(string(line))
	return []byte(q[1 : len(q)-1])
}

func (p *proc) keep(line []byte) {
	s := string(line)
	if len(s) > maxTailLine {
		s = s[:maxTailLine] + "..."
	}
	p.tailMu.Lock()
	defer p.tailMu.Unlock()
	if len(p.tail) == tailLines {
		copy(p.tail, p.tail[1:])
		p.tail = p.tail[:tailLines-1]
	}
	p.tail = append(p.tail, s)
}

// stderrTail returns the last stderr lines seen.
func (p *proc) stderrTail() []string {
	p.tailMu.Lock()
	defer p.tailMu.Unlock()
	return append([]string(nil), p.tail...)
}

// kill kills the process group, reaps the process and closes the pipes.
// It waits briefly for the last stderr lines, so that errors can quote
// them. Safe to call more than once and from several goroutines.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		// Kill the group before reaping the leader: while the leader is
		// unreaped its pid cannot be reused, so -pid names our group.
		killGroup(p)
		close(p.quit)
		p.stdin.Close()
		p.waitErr = p.cmd.Wait()
		// SIGKILL is delivered asynchronously: the program's children may
		// still be dying, and one may have forked as the signal went out.
		// Signal the group until it is empty (ESRCH), for a bounded time,
		// since orphaned zombies that no init reaps count as members.
		for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); {
			if !killGroup(p) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		select {
		case <-p.stderrDone:
		case <-time.After(200 * time.Millisecond):
			// A grandchild that left the group holds the pipe open.
		}
		p.stdout.Close()
		p.stderr.Close()
	})
}

// exitText describes how the process ended, for errors; call after kill.
func (p *proc) exitText() string {
	if p.waitErr == nil {
		return "exited with status 0"
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
		}
		return "exited with status " + strconv.Itoa(ee.ExitCode())
	}
	return p.waitErr.Error()
}
