package external

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestStderrBudget: a program's stderr went to the log without bound (a
// flood made run.log 134 MB in 3 s). Each process writes up to its
// budget, then one line says the rest is dropped and, when it ends, how
// much was; all the processes of a game share a budget of their own,
// whose end is said once and whose count comes when the game closes.
func TestStderrBudget(t *testing.T) {
	tests := []struct {
		name                 string
		procLines, procBytes int
		sinkLines, sinkBytes int
		want                 string
	}{
		{"lines", 5, 1 << 20, 12, 1 << 20, `[pid 1] line 0
[pid 1] line 1
[pid 1] line 2
[pid 1] line 3
[pid 1] line 4
[pid 1] stderr: more than 5 lines or 1 MiB from this process; the rest is dropped (an error still quotes its last lines)
[pid 1] stderr: 3 lines (18 bytes) dropped
[pid 2] line 0
[pid 2] line 1
[pid 2] line 2
[pid 2] line 3
[pid 2] line 4
[pid 2] stderr: more than 5 lines or 1 MiB from this process; the rest is dropped (an error still quotes its last lines)
[pid 2] stderr: 3 lines (18 bytes) dropped
[pid 3] line 0
[pid 3] line 1
[evotune] the program's stderr passed 12 lines or 1 MiB in all; the rest is dropped (an error still quotes a process's last lines)
[evotune] 20 lines (120 bytes) of the program's stderr dropped in all
`},
		{"bytes", 100, 20, 100, 40, `[pid 1] line 0
[pid 1] line 1
[pid 1] line 2
[pid 1] stderr: more than 100 lines or 20 bytes from this process; the rest is dropped (an error still quotes its last lines)
[pid 1] stderr: 5 lines (30 bytes) dropped
[pid 2] line 0
[pid 2] line 1
[pid 2] line 2
[pid 2] stderr: more than 100 lines or 20 bytes from this process; the rest is dropped (an error still quotes its last lines)
[pid 2] stderr: 5 lines (30 bytes) dropped
[evotune] the program's stderr passed 100 lines or 40 bytes in all; the rest is dropped (an error still quotes a process's last lines)
[evotune] 26 lines (156 bytes) of the program's stderr dropped in all
`},
		{"within", 100, 1 << 20, 100, 1 << 20, ""}, // every line
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func(a, b, c, d int) { maxProcLines, maxProcBytes, maxSinkLines, maxSinkBytes = a, b, c, d }(maxProcLines, maxProcBytes, maxSinkLines, maxSinkBytes)
			maxProcLines, maxProcBytes, maxSinkLines, maxSinkBytes = tc.procLines, tc.procBytes, tc.sinkLines, tc.sinkBytes
			var log bytes.Buffer
			sink := newSink(&log)
			var all strings.Builder
			for pid := 1; pid <= 4; pid++ {
				ps := &procSink{sink: sink}
				for i := range 8 {
					ps.Line(pid, fmt.Sprintf("line %d", i))
					fmt.Fprintf(&all, "[pid %d] line %d\n", pid, i)
				}
				ps.End(pid)
			}
			sink.close()
			sink.close() // said once
			want := tc.want
			if want == "" {
				want = all.String()
			}
			if log.String() != want {
				t.Fatalf("log:\n%s\nwant:\n%s", log.String(), want)
			}
		})
	}
}

// TestMaxFailures: a game allows ten process failures whatever it was
// asked, then one more per twenty games asked.
func TestMaxFailures(t *testing.T) {
	for _, tc := range []struct{ games, want int64 }{{0, 10}, {19, 10}, {20, 11}, {2000, 110}} {
		if got := maxFailures(tc.games); got != tc.want {
			t.Errorf("maxFailures(%d) = %d, want %d", tc.games, got, tc.want)
		}
	}
}
