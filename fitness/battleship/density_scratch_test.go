package battleship

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

func densCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestDensScratchSpeed(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g := mustGeometry(t, Classic())
	b, _ := newBob(g)
	o, _ := newOver9000(g)
	tu, _ := newTunedShooter(g, tunedSchema(g.Rules).Defaults())
	for _, s := range []*densityShooter{b, o, tu} {
		n := 3000
		shots := 0
		st := densCPU()
		w := time.Now()
		for seed := range uint64(n) {
			shots += g.Solo(s, randomPlacer{}, seed)
		}
		el := densCPU() - st
		t.Logf("%s: cpu %.0f games/s, %.0f ns/shot; wall %.0f games/s", s.name, float64(n)/el.Seconds(), float64(el.Nanoseconds())/float64(shots), float64(n)/time.Since(w).Seconds())
	}
}
