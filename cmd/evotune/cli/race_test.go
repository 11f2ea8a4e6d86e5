//go:build race

package cli

// raceDetector: the tests run under -race, and so does this test binary
// when it plays an outside program (EVOTUNE_AS_RAWBOT).
const raceDetector = true
