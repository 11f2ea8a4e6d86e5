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
	// Coordinators and workers started by the tests keep the user's
	// token in a directory of the test binary's, not the user's own.
	config, err := os.MkdirTemp("", "evotune-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", config)
	os.Unsetenv("EVOTUNE_NATS_TOKEN")
	code := m.Run()
	removeBuilds()
	os.RemoveAll(config)
	os.Exit(code)
}
