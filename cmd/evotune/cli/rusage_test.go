package cli

import (
	"os"
	"syscall"
)

// sysUsage returns a finished process's peak resident set in KiB (Linux
// reports ru_maxrss in KiB).
func sysUsage(ps *os.ProcessState) (int64, bool) {
	if ps == nil {
		return 0, false
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return ru.Maxrss, true
}
