package cli

import (
	"strings"
	"testing"
)

// TestKilledRacingRunsResumeExactly: a run that races its generations
// and remeasures its best, SIGKILLed at random moments (in the middle of
// a race, or of the remeasure), resumes to the files of a run never
// killed; with cmaes, whose state is rebuilt from what it was told
// (the dropped individuals' figures included).
func TestKilledRacingRunsResumeExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	const racing = `racing:
  rounds: 4
remeasure:
  top: 2
  games: 400
`
	// Its own remeasure, larger than killConfig's.
	base := strings.Replace(killConfig, "remeasure: {top: 2, games: 40} # on, as by default, but cheap\n", "", 1)
	for _, tc := range []struct{ name, text string }{
		{"generational", base + racing},
		{"cmaes", strings.Replace(base, "  elitism: 2\n", "  model: cmaes\n  step-size: 0.5\n", 1) + racing},
	} {
		t.Run(tc.name, func(t *testing.T) { killAndResume(t, tc.text) })
	}
}
