// Package cputime reads the CPU time of the calling OS thread, for
// benchmarks that time several players apart on a loaded machine: unlike
// wall time, a thread's CPU time does not count the time it waits for a
// core. The caller locks its goroutine to its thread
// (runtime.LockOSThread) for the span it measures. It also reads the
// whole process's CPU time (user and system, every thread: the garbage
// collector's too), which validate's estimate of a run's cost times.
package cputime

import "time"

// Thread returns the CPU time the calling thread has used, or the wall
// clock since an arbitrary origin where the system cannot tell
// (Supported reports which).
func Thread() time.Duration { return thread() }

// Supported reports whether Thread measures thread CPU time.
func Supported() bool { return supported }

// Process returns the CPU time, user and system, that the process has
// used, or the wall clock since an arbitrary origin where the system
// cannot tell (ProcessSupported reports which).
func Process() time.Duration { return process() }

// ProcessSupported reports whether Process measures CPU time.
func ProcessSupported() bool { return processSupported }
