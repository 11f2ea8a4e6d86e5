package cli

import (
	"strings"
	"testing"
)

// TestKilledFieldTunersResumeExactly: runs of spsa (on a solo measure,
// theta+ and theta- on the same deals; and head to head) and of bayes,
// SIGKILLed at random moments, resume to the files of a run never
// killed: their checkpoints hold theta, the pairs told and the gains, or
// every point the Gaussian process was fitted to.
func TestKilledFieldTunersResumeExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	model := func(lines string) string {
		return strings.Replace(killConfig, "  tournament-size: 2\n  elitism: 2\n", lines, 1)
	}
	const duel = `name: kill
seed: 5
game: mnk
rules: {depth: 1}
player: tuned
fitness:
  objective: score
  population: {games: 4, opponents: 1}
evolution:
  model: spsa
  population: 10
  generations: 6
remeasure: {top: 2, games: 40}
`
	for _, tc := range []struct{ name, text string }{
		{"spsa shots", model("  model: spsa\n")},
		{"spsa score", duel},
		{"bayes shots", model("  model: bayes\n")},
	} {
		t.Run(tc.name, func(t *testing.T) { killAndResume(t, tc.text) })
	}
}
