//go:build !linux

package rundir

// Holder reports whether a live process holds the lock of the run
// directory dir, and that process's id (0 when it cannot be told): it
// probes as export does.
func Holder(dir string) (pid int, held bool) { return probeHolder(dir) }
