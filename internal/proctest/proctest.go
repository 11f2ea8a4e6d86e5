// Package proctest holds the helpers of the tests that wait on and run
// processes: how long a test waits for what a correct program does in
// seconds (Patience, WaitFor, WaitExit, AwaitInProcess), processes
// started in the background and killed at the test's end (Start), and
// the evotune command built once per test binary (Evotune). No verdict
// that rests on them depends on how busy the machine is: a wait for
// what never comes fails, with its name, once what the test's processes
// did shows it will not come (their CPU time, read in /proc: idle for
// IdleLimit, or CPULimit spent without it), in a minute or less rather
// than at the test binary's deadline; Patience stays the last resort.
package proctest

import (
	"bytes"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/printable"
)

// Patience is until when a test waits for what a correct program does in
// seconds (a checkpoint, a line on stderr, an exit after a signal): as
// long as the test binary may run (-timeout), less a few seconds to say
// what it was waiting for; an hour without a deadline. Under a load of
// 20 on 2 cores a fixed 30 s was not enough for a refusal that takes a
// second when idle. (A minute less was too much: a package's tests take
// minutes, and the last of them found their patience spent before they
// began.)
func Patience(t testing.TB) time.Time {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			return deadline.Add(-5 * time.Second)
		}
	}
	return time.Now().Add(time.Hour)
}

// WaitLimit is far beyond any one wait of the tests (seconds when the
// machine is idle): WaitFor gives up after it even before Patience.
const WaitLimit = 5 * time.Minute

// WaitFor waits until ok, polling, and fails the test naming what it
// waited for once it is clear it will not come: every process the test
// started has been idle for IdleLimit, or they have spent CPULimit of
// CPU without it (see stallWatch); so a wait for what a defect keeps
// from coming fails in a minute or less, and a busy machine fails none.
// Patience (or WaitLimit) stays the last resort.
func WaitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	s := newStallWatch()
	deadline := Patience(t)
	if limit := time.Now().Add(WaitLimit); limit.Before(deadline) {
		deadline = limit
	}
	for !ok() {
		why := s.why(true)
		if why == "" && time.Now().After(deadline) {
			why = "the test's time ran out"
		}
		if why != "" {
			t.Fatalf("no %s: %s", what, why)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Proc is a process started in the background (Start).
type Proc struct {
	Cmd  *exec.Cmd
	done chan struct{}
	err  error // once done
}

// Start starts cmd in the background, its stderr the Buffer returned,
// and kills it at the test's end, logging what it said, as what, if the
// test failed.
func Start(t testing.TB, cmd *exec.Cmd, what string) (*Proc, *Buffer) {
	t.Helper()
	said := &Buffer{}
	cmd.Stderr = said
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Proc{Cmd: cmd, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s:\n%s", what, printable.Escape(said.String()))
		}
	})
	return p, said
}

// Exited reports whether the process has exited.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Wait waits for the process to exit and returns what exec.Cmd.Wait
// returned.
func (p *Proc) Wait() error {
	<-p.done
	return p.err
}

// WaitWatched waits for the process to exit and returns what
// exec.Cmd.Wait returned, killing it and failing t, named what, should
// it stall or spend CPULimit of CPU first (WaitDone): for an exit that
// comes in moments (after a signal, a refusal).
func (p *Proc) WaitWatched(t testing.TB, what string) error {
	t.Helper()
	ch := make(chan error, 1)
	go func() { <-p.done; ch <- p.err }()
	return WaitDone(t, p.Cmd, ch, what, true)
}

// Code waits for the process to exit and returns its exit code.
func (p *Proc) Code() int { <-p.done; return p.Cmd.ProcessState.ExitCode() }

// Buffer is a bytes.Buffer that a process's output goroutine writes while
// the test reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
