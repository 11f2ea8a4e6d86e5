package uci_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// realEngine returns the path of one of Debian's engines (stockfish,
// toga2): $EVOTUNE_STOCKFISH or $EVOTUNE_TOGA2 (.ci/run sets them from
// dpkg -L), else /usr/games/NAME, else NAME in PATH. Without it the
// test skips with one line, unless EVOTUNE_ENGINES=1 (set by .ci/run
// after installing them), where it fails.
func realEngine(t testing.TB, name string) string {
	t.Helper()
	for _, p := range []string{os.Getenv("EVOTUNE_" + strings.ToUpper(name)), "/usr/games/" + name} {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("EVOTUNE_ENGINES") == "1" {
		t.Fatalf("EVOTUNE_ENGINES=1 but %s is not installed (apt-get install %s)", name, name)
	}
	t.Skipf("%s is not installed (apt-get install %s; EVOTUNE_ENGINES=1 makes this a failure)", name, name)
	return ""
}
