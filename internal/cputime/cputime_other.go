//go:build !linux

package cputime

import "time"

const supported = false

func thread() time.Duration { return fallback() }
