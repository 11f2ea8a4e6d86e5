package childproc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is the child: with CHILDPROC_HELPER set, TestMain runs
// the mode it names instead of the tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("CHILDPROC_HELPER"); mode != "" {
		helper(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(mode string) {
	switch mode {
	case "echo": // each stdin line back, upper-cased
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println(strings.ToUpper(sc.Text()))
		}
	case "long": // a line of 100 bytes, then one of 10,000
		fmt.Println(strings.Repeat("a", 100))
		fmt.Println(strings.Repeat("b", 10000))
		time.Sleep(time.Minute)
	case "partial":
		fmt.Print("ok\r\nhalf a li")
	case "stderr": // an escape sequence and 12 lines on stderr, then exit 3
		fmt.Fprintln(os.Stderr, "\x1b[31mred")
		for i := range 12 {
			fmt.Fprintf(os.Stderr, "line %d\n", i)
		}
		os.Exit(3)
	case "term": // killed by a signal of its own
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(time.Minute)
	case "deaf": // reads nothing
		time.Sleep(time.Minute)
	case "forker": // a grandchild in its group, and one that leaves it
		self, _ := os.Executable()
		for _, m := range []string{"deaf", "escaper"} {
			c := exec.Command(self)
			c.Env = append(os.Environ(), "CHILDPROC_HELPER="+m)
			if err := c.Start(); err != nil {
				fmt.Println("error", err)
				return
			}
			fmt.Println(c.Process.Pid)
		}
		time.Sleep(time.Minute)
	case "escaper": // a new session: out of the group, holding stderr open
		syscall.Setsid()
		time.Sleep(2 * time.Second)
	}
}

// sink collects stderr lines.
type sink struct {
	lines chan string
	ended chan int
}

func newSink() *sink                      { return &sink{make(chan string, 100), make(chan int, 1)} }
func (s *sink) Line(pid int, line string) { s.lines <- line }
func (s *sink) End(pid int)               { s.ended <- pid }

func start(t *testing.T, mode string, stderr StderrSink) *Proc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(Cmd{Path: self, Args: []string{"helper"}, Env: []string{"CHILDPROC_HELPER=" + mode}, Stderr: stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// lines reads the child's stdout in lines of at most limit bytes.
type lines struct {
	p     *Proc
	r     *bufio.Reader
	limit int
}

func newLines(p *Proc, limit int) *lines { return &lines{p, bufio.NewReader(p.Stdout()), limit} }

// next reads a line, failing the test if none comes within a minute.
func (l *lines) next(t *testing.T) ([]byte, error) {
	t.Helper()
	l.p.Stdout().SetReadDeadline(time.Now().Add(time.Minute))
	line, err := ReadLine(l.r, l.limit)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("no line from the child within a minute")
	}
	return line, err
}

func TestLines(t *testing.T) {
	p := start(t, "echo", nil)
	lines := newLines(p, 1000)
	if _, err := p.Stdin().Write([]byte("uci\nisready\n")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"UCI", "ISREADY"} {
		if got, err := lines.next(t); err != nil || string(got) != want {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
	}
	p.Stdin().Close() // the child ends at the end of its input
	if l, err := lines.next(t); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %q, %v after stdin closed, want ErrClosed", l, err)
	}
	p.Kill()
	if got := p.ExitText(); got != "exited with status 0" {
		t.Errorf("ExitText = %q", got)
	}
}

func TestLineBound(t *testing.T) {
	p := start(t, "long", nil)
	lines := newLines(p, 100) // 100 bytes fit, 10,000 do not
	if got, err := lines.next(t); err != nil || len(got) != 100 {
		t.Fatalf("first line: %d bytes, %v; want 100", len(got), err)
	}
	if l, err := lines.next(t); !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "over 100 bytes") {
		t.Errorf("got %d bytes, %v; want a line too long (over 100 bytes)", len(l), err)
	}
}

func TestReadLine(t *testing.T) {
	tests := []struct {
		name, in string
		limit    int
		want     []string
		err      error
	}{
		{"lines", "a\nbb\r\n", 3, []string{"a", "bb"}, ErrClosed}, // a \r counts
		{"exactly the bound", "abc\n", 3, []string{"abc"}, ErrClosed},
		{"one over", "abcd\n", 3, nil, ErrLineTooLong},
		{"one over without newline", "abcd", 3, nil, ErrLineTooLong},
		{"partial", "a\nb", 3, []string{"a"}, ErrPartialLine},
		{"empty line", "\n", 3, []string{""}, ErrClosed},
		{"over a buffer", strings.Repeat("x", 40) + "\n", 40, []string{strings.Repeat("x", 40)}, ErrClosed},
		{"over a buffer, one over", strings.Repeat("x", 41) + "\n", 40, nil, ErrLineTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
			var got []string
			for {
				line, err := ReadLine(r, tc.limit)
				if err != nil {
					if !errors.Is(err, tc.err) {
						t.Errorf("error %v, want %v", err, tc.err)
					}
					break
				}
				got = append(got, string(line))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("lines %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPartialLine(t *testing.T) {
	p := start(t, "partial", nil)
	lines := newLines(p, 100)
	if got, err := lines.next(t); err != nil || string(got) != "ok" {
		t.Fatalf("got %q, %v; want ok (its \\r dropped)", got, err)
	}
	if l, err := lines.next(t); !errors.Is(err, ErrPartialLine) {
		t.Errorf("got %q, %v; want ErrPartialLine", l, err)
	}
}

func TestStderrTailAndExit(t *testing.T) {
	seen := newSink()
	p := start(t, "stderr", seen)
	if l, err := newLines(p, 100).next(t); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %q, %v from a child that writes no stdout", l, err)
	}
	p.Kill()
	if got := p.ExitText(); got != "exited with status 3" {
		t.Errorf("ExitText = %q", got)
	}
	tail := p.Tail()
	if len(tail) != TailLines || tail[0] != "line 2" || tail[TailLines-1] != "line 11" {
		t.Errorf("tail %q, want lines 2 to 11", tail)
	}
	if first := <-seen.lines; first != `\x1b[31mred` {
		t.Errorf("first stderr line handed on as %q, want it escaped", first)
	}
	select {
	case pid := <-seen.ended:
		if pid != p.Pid() {
			t.Errorf("End(%d), want the child's pid %d", pid, p.Pid())
		}
	default:
		t.Error("Kill returned before the sink heard the end of stderr")
	}
}

func TestExitBySignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals")
	}
	p := start(t, "term", nil)
	newLines(p, 100).next(t)
	p.Kill()
	if got := p.ExitText(); !strings.Contains(got, "killed by signal 15") {
		t.Errorf("ExitText = %q, want killed by signal 15", got)
	}
}

// TestWriteDeadline: a child that reads nothing fills its pipe; a write
// with a deadline returns instead of blocking evotune.
func TestWriteDeadline(t *testing.T) {
	p := start(t, "deaf", nil)
	if err := p.Stdin().SetWriteDeadline(time.Now().Add(100 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := p.Stdin().Write(make([]byte, 4<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("write to a deaf child: %v, want the deadline", err)
	}
}

// alive reports whether pid is a process that has not been reaped
// (a zombie counts as gone).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// TestKillReachesTheGroup: Kill kills the child and what it started in
// its group, and does not hang on a grandchild that left the group and
// holds stderr open.
func TestKillReachesTheGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	p := start(t, "forker", nil)
	lines := newLines(p, 100)
	var pids []int
	for range 2 {
		l, err := lines.next(t)
		var pid int
		if _, err2 := fmt.Sscan(string(l), &pid); err != nil || err2 != nil {
			t.Fatalf("the child said %q, %v", l, err)
		}
		pids = append(pids, pid)
	}
	grandchild, escaper := pids[0], pids[1]
	if !alive(grandchild) {
		t.Fatal("the grandchild is not running before Kill")
	}
	begin := time.Now()
	p.Kill()
	if alive(p.Pid()) {
		t.Error("the child outlived Kill")
	}
	// The grandchild's parent is gone: init reaps it, so wait for that,
	// but it must be dead (killed) at once.
	if err := syscall.Kill(grandchild, 0); err == nil && alive(grandchild) {
		t.Errorf("grandchild %d of the group outlived Kill", grandchild)
	}
	if d := time.Since(begin); d > 30*time.Second {
		t.Errorf("Kill took %v with an escaped grandchild holding stderr", d)
	}
	_ = escaper // it left the group on purpose; it exits by itself
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "engine")
	plain := filepath.Join(dir, "notes.txt")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(plain, []byte("x"), 0o644)
	tests := []struct {
		name, prog, dir, want, err string
	}{
		{"absolute", exe, "", exe, ""},
		{"relative to dir", "./engine", dir, exe, ""},
		{"missing", filepath.Join(dir, "nothing"), "", "", "no such file"},
		{"not executable", plain, "", "", "not an executable file"},
		{"a directory", dir, "", "", "not an executable file"},
		{"not in PATH", "evotune-no-such-engine", "", "", `program "evotune-no-such-engine" not found in PATH`},
		{"empty", "", "", "", "empty command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LookPath(tc.prog, tc.dir)
			switch {
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("LookPath = %q, %v; want %q", got, err, tc.want)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("LookPath error %v, want %q", err, tc.err)
			}
		})
	}
}

// TestKillEndsARead: a read waiting on the child's stdout returns once
// Kill has run, long before its deadline.
func TestKillEndsARead(t *testing.T) {
	p := start(t, "deaf", nil)
	done := make(chan error)
	go func() {
		p.Stdout().SetReadDeadline(time.Now().Add(10 * time.Minute))
		_, err := ReadLine(bufio.NewReader(p.Stdout()), 100)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond) // let it block (the test holds either way)
	p.Kill()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("read ended with %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a read of a killed child's stdout still waits after a minute")
	}
}
