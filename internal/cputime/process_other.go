//go:build !unix

package cputime

import "time"

const processSupported = false

func process() time.Duration { return fallback() }
