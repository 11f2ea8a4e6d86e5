package cli

import (
	"os"
	"testing"
)

// TestMain lets tests run this test binary as the evotune command itself
// (EVOTUNE_AS_MAIN=1), so process-level tests need no separate build.
func TestMain(m *testing.M) {
	if os.Getenv("EVOTUNE_AS_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	removeBuilds()
	os.Exit(code)
}
