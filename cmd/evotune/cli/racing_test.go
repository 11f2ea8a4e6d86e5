package cli

import "testing"

// TestKilledRacingRunsResumeExactly: a run that races its generations
// and remeasures its best, SIGKILLed at random moments (in the middle of
// a race, or of the remeasure), resumes to the files of a run never
// killed.
func TestKilledRacingRunsResumeExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	killAndResume(t, killConfig+`racing:
  rounds: 4
remeasure:
  top: 2
  games: 400
`)
}
