package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestClocksCountWorkNotSleep: busy work advances the thread's and the
// process's clocks, sleeping barely does.
func TestClocksCountWorkNotSleep(t *testing.T) {
	for _, c := range []struct {
		name      string
		supported bool
		clock     func() time.Duration
	}{{"thread", Supported(), Thread}, {"process", ProcessSupported(), Process}} {
		t.Run(c.name, func(t *testing.T) {
			if !c.supported {
				t.Skip("no such CPU clock here")
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start := c.clock()
			time.Sleep(50 * time.Millisecond)
			slept := c.clock() - start
			start = c.clock()
			x := 1.0
			for i := 0; c.clock()-start < 20*time.Millisecond; i++ {
				x = x*1.0000001 + 1e-9
			}
			worked := c.clock() - start
			if slept > 10*time.Millisecond || worked < 20*time.Millisecond || x == 0 {
				t.Fatalf("slept 50ms: clock +%v; worked: clock +%v", slept, worked)
			}
		})
	}
}
