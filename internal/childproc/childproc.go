// Package childproc runs a child process that evotune talks to over
// pipes: an outside player (fitness/external) or a UCI engine
// (fitness/chess/uci). The child starts in a process group of its own
// (on Linux it is also killed if evotune dies first); its stdout is read
// in lines of a bounded length; the last lines of its stderr are kept,
// escaped, for errors to quote; and Kill kills the whole group and reaps
// the child, so that no process it started outlives its owner.
package childproc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/evotune/evotune/internal/printable"
)

// TailLines is how many of a child's last stderr lines Tail keeps, and
// MaxTailLine the bytes kept of one of them.
const (
	TailLines   = 10
	MaxTailLine = 300
)

// Cmd says how to start a child.
type Cmd struct {
	Path string   // the program to run, resolved (LookPath)
	Args []string // its argv, Args[0] as the user wrote it
	Dir  string   // its working directory; "" is evotune's
	Env  []string // KEY=VALUE pairs added to evotune's environment
	// Stderr, if set, receives the lines the child writes to its
	// stderr. Tail keeps the last lines whether or not it is set.
	Stderr StderrSink
}

// StderrSink receives a child's stderr lines, from the one goroutine
// that reads them: Line for each line, escaped (printable.Line) and
// without its newline (a line longer than 16 KiB comes in pieces), then
// End once when its stderr ends: before Kill returns, unless a process
// that left the child's group holds the pipe open, then just after.
type StderrSink interface {
	Line(pid int, line string)
	End(pid int)
}

// Proc is a running child. Its methods are safe for concurrent use.
type Proc struct {
	cmd *exec.Cmd
	pid int

	stdin, stdout, stderr *os.File // the parent's ends
	stderrDone            chan struct{}

	tailMu sync.Mutex
	tail   []string

	killOnce sync.Once
	waitErr  error // the exit status, valid after Kill
}

// Start starts the child with its stdin, stdout and stderr on pipes, in a
// process group of its own.
func Start(c Cmd) (*Proc, error) {
	var files []*os.File
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("childproc: %w", err)
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("childproc: %w", err)
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("childproc: %w", err)
	}
	cmd := &exec.Cmd{
		Path:        c.Path,
		Args:        c.Args,
		Dir:         c.Dir,
		Env:         append(os.Environ(), c.Env...),
		Stdin:       inR,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: sysProcAttr(),
	}
	if len(cmd.Args) == 0 {
		cmd.Args = []string{c.Path}
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("childproc: start %s: %w", c.Path, err)
	}
	p := &Proc{
		cmd: cmd, pid: cmd.Process.Pid,
		stdin: inW, stdout: outR, stderr: errR,
		stderrDone: make(chan struct{}),
	}
	go p.forward(c.Stderr)
	return p, nil
}

// Pid is the child's process id, which is also its process group's.
func (p *Proc) Pid() int { return p.pid }

// Stdin is the child's standard input. Write to it from one goroutine at
// a time; SetWriteDeadline bounds a write to a child that stopped
// reading.
func (p *Proc) Stdin() *os.File { return p.stdin }

// Stdout is the child's standard output. Read it from one goroutine at
// a time, in lines (ReadLine); SetReadDeadline bounds a wait. Kill closes
// it, which ends a read in progress.
func (p *Proc) Stdout() *os.File { return p.stdout }

// ErrLineTooLong is a stdout line longer than its bound; ErrPartialLine
// is stdout closed in the middle of a line; ErrClosed is stdout closed.
var (
	ErrLineTooLong = errors.New("a line too long")
	ErrPartialLine = errors.New("output closed in the middle of a line")
	ErrClosed      = errors.New("output closed")
)

// ReadLine reads one line from r, without its "\n" (nor a "\r" before
// it), refusing one longer than limit bytes (a "\r" counts) with
// ErrLineTooLong. The
// line is the caller's. At the end of r it returns ErrClosed, or
// ErrPartialLine if a line was begun.
func ReadLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > limit+1 || (err != nil && len(line)+len(frag) > limit) {
			return nil, fmt.Errorf("%w (over %d bytes)", ErrLineTooLong, limit)
		}
		switch err {
		case nil:
			line = append(line, frag[:len(frag)-1]...)
			return bytes.TrimSuffix(line, []byte{'\r'}), nil
		case bufio.ErrBufferFull:
			line = append(line, frag...)
		case io.EOF:
			if len(line)+len(frag) > 0 {
				return nil, ErrPartialLine
			}
			return nil, ErrClosed
		default:
			return nil, err
		}
	}
}

// forward reads stderr line by line, keeps the tail and hands each line
// to to, if set.
func (p *Proc) forward(to StderrSink) {
	defer close(p.stderrDone)
	if to != nil {
		defer to.End(p.pid)
	}
	r := bufio.NewReaderSize(p.stderr, 16<<10)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			s := printable.Line(string(bytes.TrimSuffix(line, []byte("\n")))) // a "\r" is kept, escaped
			p.keep(s)
			if to != nil {
				to.Line(p.pid, s)
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
	}
}

func (p *Proc) keep(s string) {
	if len(s) > MaxTailLine {
		s = s[:MaxTailLine] + "..."
	}
	p.tailMu.Lock()
	defer p.tailMu.Unlock()
	if len(p.tail) == TailLines {
		copy(p.tail, p.tail[1:])
		p.tail = p.tail[:TailLines-1]
	}
	p.tail = append(p.tail, s)
}

// Tail returns the last stderr lines seen, escaped.
func (p *Proc) Tail() []string {
	p.tailMu.Lock()
	defer p.tailMu.Unlock()
	return append([]string(nil), p.tail...)
}

// Kill kills the child's process group, reaps the child and closes the
// pipes. It waits briefly for the last stderr lines, so that errors can
// quote them. Safe to call more than once and from several goroutines;
// every call returns once the child is reaped.
func (p *Proc) Kill() {
	p.killOnce.Do(func() {
		// Kill the group before reaping the leader: while the leader is
		// unreaped its pid cannot be reused, so -pid names our group.
		killGroup(p.pid, p.cmd.Process)
		p.stdin.Close()
		p.waitErr = p.cmd.Wait()
		// SIGKILL is delivered asynchronously: the child's children may
		// still be dying, and one may have forked as the signal went out.
		// Signal the group until it is empty, for a bounded time, since
		// orphaned zombies that no init reaps count as members.
		for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); {
			if !killGroup(p.pid, nil) {
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

// ExitText says how the child ended ("exited with status 3", "was killed
// by signal 11 (segmentation fault)"), for errors; call it after Kill.
func (p *Proc) ExitText() string {
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

// LookPath resolves a program as a user wrote it: a name without a slash
// is looked up in PATH; a relative path with one is taken against dir
// (when dir is not ""). The file must be an executable regular file.
func LookPath(name, dir string) (string, error) {
	if name == "" {
		return "", errors.New("no program to run (empty command)")
	}
	if !strings.Contains(name, "/") {
		path, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("program %q not found in PATH", name)
		}
		return path, nil
	}
	if !filepath.IsAbs(name) && dir != "" {
		name = filepath.Join(dir, name)
	}
	st, err := os.Stat(name)
	if err != nil {
		return "", fmt.Errorf("program %s: %w", name, err)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return "", fmt.Errorf("program %s is not an executable file", name)
	}
	return name, nil
}
