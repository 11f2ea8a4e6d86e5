package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCountsWorkNotSleep: busy work advances the thread's clock,
// sleeping barely does.
func TestThreadCountsWorkNotSleep(t *testing.T) {
	if !Supported() {
		t.Skip("no thread CPU clock here")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := Thread()
	time.Sleep(50 * time.Millisecond)
	slept := Thread() - start
	start = Thread()
	x := 1.0
	for i := 0; Thread()-start < 20*time.Millisecond; i++ {
		x = x*1.0000001 + 1e-9
	}
	worked := Thread() - start
	if slept > 10*time.Millisecond || worked < 20*time.Millisecond || x == 0 {
		t.Fatalf("slept 50ms: clock +%v; worked: clock +%v", slept, worked)
	}
}

// TestProcessCountsWorkNotSleep: busy work advances the process's clock,
// sleeping barely does.
func TestProcessCountsWorkNotSleep(t *testing.T) {
	if !ProcessSupported() {
		t.Skip("no process CPU clock here")
	}
	start := Process()
	time.Sleep(50 * time.Millisecond)
	slept := Process() - start
	start = Process()
	x := 1.0
	for i := 0; Process()-start < 20*time.Millisecond; i++ {
		x = x*1.0000001 + 1e-9
	}
	worked := Process() - start
	if slept > 10*time.Millisecond || worked < 20*time.Millisecond || x == 0 {
		t.Fatalf("slept 50ms: clock +%v; worked: clock +%v", slept, worked)
	}
}
