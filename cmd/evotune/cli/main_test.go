package cli

import (
	"os"
	"testing"
)

// TestMain lets tests run this test binary as the evotune command itself
// (EVOTUNE_AS_MAIN=1), so process-level tests need no separate build.
func TestMain(m *testing.M) {
	// An outside program started by evotune inherits EVOTUNE_AS_MAIN.
	if os.Getenv("EVOTUNE_AS_RAWBOT") == "1" {
		rawbot()
		os.Exit(0)
	}
	if addr := os.Getenv("EVOTUNE_AS_SQUATTER"); addr != "" {
		squat(addr, os.Getenv("EVOTUNE_SQUATTER_OUT"))
		os.Exit(0)
	}
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
