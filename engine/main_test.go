package engine

import (
	"os"
	"testing"
)

// TestMain keeps the default remeasure on in the package's many small
// runs, at 40 games a player instead of 1,000: the tests of the
// remeasure write theirs.
func TestMain(m *testing.M) {
	defaultRemeasureGames = 40
	os.Exit(m.Run())
}
