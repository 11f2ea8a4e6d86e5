package proctest

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestTreeTicks: the CPU of a busy child counts, of a sleeping one not,
// and a child's counts on once it has exited and been reaped.
func TestTreeTicks(t *testing.T) {
	if _, ok := treeTicks(); !ok {
		t.Skip("no /proc")
	}
	sleeper := exec.Command("sleep", "30")
	if err := sleeper.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }()
	before, _ := treeTicks()
	time.Sleep(time.Second)
	if idle, _ := treeTicks(); idle-before >= idleTicks {
		t.Fatalf("a sleeping child took %d ticks in a second", idle-before)
	}
	// A fixed amount of work, not of wall time: on a loaded machine two
	// seconds of wall time may hold less CPU than the test asks for.
	// Two million steps of sh take over a second of CPU here.
	busy := exec.Command("sh", "-c", "i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done")
	if err := busy.Start(); err != nil {
		t.Skip(err)
	}
	WaitFor(t, "a busy child's CPU", func() bool { n, _ := treeTicks(); return n-before >= 20 })
	if err := busy.Wait(); err != nil {
		t.Fatal(err)
	}
	reaped, _ := treeTicks()
	if reaped-before < 20 {
		t.Fatalf("a busy child, reaped: %d ticks counted, want its own", reaped-before)
	}
	if s := liveProcesses(); !strings.Contains(s, fmt.Sprintf("pid %d: sleep 30", sleeper.Process.Pid)) {
		t.Fatalf("live processes: %s", s)
	}
}
