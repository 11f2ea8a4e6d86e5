package proctest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A test that waits for something a defect may keep from ever coming (a
// checkpoint, a line, a process's exit) fails once it is clear it will
// not come, saying what it waited for, rather than at the test binary's
// deadline, minutes later. "Clear" is measured in what the processes the
// test started did, not in wall time, so a busy machine cannot fail a
// test: every process they started has been idle for IdleLimit (a hang:
// waiting for a result, a job, a signal that is not coming; a running
// process gets the CPU however loaded the machine), or, for an event
// that takes seconds of work, they have spent CPULimit of CPU without
// it (a loop that never ends). Patience stays the last resort.
const (
	IdleLimit = 30 * time.Second
	CPULimit  = time.Minute
	// idleTicks is the CPU below which a process tree counts as idle for
	// IdleLimit: a process that only waits takes none (a worker waiting
	// for its coordinator, 0 ticks in 30 s), one that plays takes
	// seconds of it.
	idleTicks = 10
)

// clockTicks is the kernel's unit of a process's CPU time in /proc.
const clockTicks = 100

// stallWatch follows the CPU time of the processes this test binary
// started, as a wait goes on.
type stallWatch struct {
	ok       bool      // the system tells processes' CPU time
	first    int64     // ticks when the wait began
	mark     int64     // ticks at markTime
	markTime time.Time // the last time the tree was seen to work
	sampled  time.Time
}

func newStallWatch() *stallWatch {
	ticks, ok := treeTicks()
	now := time.Now()
	return &stallWatch{ok: ok, first: ticks, mark: ticks, markTime: now, sampled: now}
}

// why says why the wait should end, "" to go on. A wait for an event
// (budget true) ends on a CPU budget spent too; a wait for a process
// that works until it is done only on idleness.
func (s *stallWatch) why(budget bool) string {
	now := time.Now()
	if !s.ok || now.Sub(s.sampled) < 500*time.Millisecond {
		return ""
	}
	s.sampled = now
	ticks, _ := treeTicks()
	if ticks-s.mark >= idleTicks {
		s.mark, s.markTime = ticks, now
	}
	switch {
	case now.Sub(s.markTime) >= IdleLimit:
		return fmt.Sprintf("nothing this test started has run for %v (%s)", IdleLimit, liveProcesses())
	case budget && time.Duration(ticks-s.first)*time.Second/clockTicks >= CPULimit:
		return fmt.Sprintf("the processes this test started spent %v of CPU without it (%s)", CPULimit, liveProcesses())
	}
	return ""
}

// procStat is what /proc/PID/stat says of a process: its parent and its
// CPU time and that of its children it reaped, in ticks.
type procStat struct {
	ppid       int
	self, kids int64
}

func readStat(pid string) (procStat, bool) {
	data, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return procStat{}, false
	}
	// The command may hold spaces and parentheses: fields follow its
	// last ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 15 {
		return procStat{}, false
	}
	num := func(k int) int64 { n, _ := strconv.ParseInt(f[k], 10, 64); return n }
	// After the command: state, ppid, ..., utime, stime, cutime, cstime
	// (fields 3, 4, ..., 14 to 17 of proc(5), from 0 here).
	return procStat{ppid: int(num(1)), self: num(11) + num(12), kids: num(13) + num(14)}, true
}

// processes reads /proc: every process's stat, by pid.
func processes() (map[int]procStat, bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	stats := map[int]procStat{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(e.Name()); ok {
			stats[pid] = st
		}
	}
	return stats, true
}

// treeTicks is the CPU time of every process this test binary started
// and theirs, live or reaped, in ticks: the live ones' own and their
// reaped children's, and this binary's reaped children's (its own time,
// spent waiting and polling, is left out). ok is false where /proc does
// not tell.
func treeTicks() (ticks int64, ok bool) {
	stats, ok := processes()
	if !ok {
		return 0, false
	}
	self := os.Getpid()
	me, ok := stats[self]
	if !ok {
		return 0, false
	}
	ticks = me.kids
	for pid, st := range stats {
		if pid != self && descends(stats, pid, self) {
			ticks += st.self + st.kids
		}
	}
	return ticks, true
}

// descends reports whether pid is a descendant of root.
func descends(stats map[int]procStat, pid, root int) bool {
	for range 64 {
		st, ok := stats[pid]
		if !ok || st.ppid <= 1 {
			return false
		}
		if st.ppid == root {
			return true
		}
		pid = st.ppid
	}
	return false
}

// liveProcesses names the processes this test binary started that are
// still alive, for a message.
func liveProcesses() string {
	stats, ok := processes()
	if !ok {
		return "no process list"
	}
	self := os.Getpid()
	var live []string
	for pid := range stats {
		if pid == self || !descends(stats, pid, self) {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		args := strings.Fields(strings.ReplaceAll(string(cmd), "\x00", " "))
		if len(args) > 0 {
			args[0] = filepath.Base(args[0])
		}
		line := strings.Join(args, " ")
		if len(line) > 120 {
			line = line[:120] + "..."
		}
		live = append(live, fmt.Sprintf("pid %d: %s", pid, line))
	}
	if len(live) == 0 {
		return "no process of the test's alive"
	}
	return "alive: " + strings.Join(live, "; ")
}

// WaitExit waits for cmd, started, to exit and returns Wait's error. A
// process that stalls (every process of the test idle for IdleLimit) is
// killed and fails t, naming what, the process.
func WaitExit(t testing.TB, cmd *exec.Cmd, what string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return WaitDone(t, cmd, done, what, false)
}

// WaitDone is WaitExit on a process another goroutine waits for, done
// its Wait's error; budget says the exit should come after seconds of
// work (as after a signal), so a CPU budget spent without it fails too.
func WaitDone(t testing.TB, cmd *exec.Cmd, done <-chan error, what string, budget bool) error {
	t.Helper()
	s := newStallWatch()
	deadline := Patience(t)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
		}
		why := s.why(budget)
		if why == "" && time.Now().After(deadline) {
			why = "the test's time ran out"
		}
		if why != "" {
			_ = cmd.Process.Kill()
			<-done
			t.Fatalf("%s did not end: %s; killed", what, why)
			return nil
		}
	}
}

// selfTicks is this process's own CPU time, in ticks.
func selfTicks() (int64, bool) {
	st, ok := readStat(strconv.Itoa(os.Getpid()))
	return st.self, ok
}

// AwaitInProcess waits for work run in this process to end, done its
// result: work that leaves this process idle for IdleLimit (a command
// waiting for what will not come) fails t, naming what. The work's
// goroutine is left behind.
func AwaitInProcess[T any](t testing.TB, done <-chan T, what string) T {
	t.Helper()
	mark, ok := selfTicks()
	markTime := time.Now()
	deadline := Patience(t)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case v := <-done:
			return v
		case <-tick.C:
		}
		now := time.Now()
		if n, _ := selfTicks(); ok && n-mark >= idleTicks {
			mark, markTime = n, now
		}
		switch {
		case ok && now.Sub(markTime) >= IdleLimit:
			t.Fatalf("%s did not end: this process has been idle for %v (%s)", what, IdleLimit, liveProcesses())
		case now.After(deadline):
			t.Fatalf("%s did not end before the test's time ran out", what)
		}
	}
}
