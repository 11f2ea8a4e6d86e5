//go:build unix

package cputime

import (
	"syscall"
	"time"
)

const processSupported = true

func process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return fallback()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
