// Package sprtfile is the state file of a sequential test that evotune
// sprt --output writes after every batch and the dashboard reads: where
// the test stands (its LLR against its bounds, the estimate with its
// interval), rewritten whole each time, so a reader sees one batch's
// state or the next, never a mix.
package sprtfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// Format is the version of the file this code writes and reads.
const Format = 1

// Suffix ends the name of a state file the dashboard lists.
const Suffix = ".sprt.json"

// MaxSize bounds the file a reader reads: a test's batches, a line each
// in JSON, at 100,000 batches of one game.
const MaxSize = 16 << 20

// States of a test.
const (
	InProgress = "in progress" // the process that writes it is playing
	Finished   = "finished"    // a verdict, or the cap reached
	Stopped    = "stopped"     // interrupted or failed before either
)

// State is where a test stands after a batch.
type State struct {
	SPRT  int    `json:"sprt"`  // Format
	State string `json:"state"` // InProgress, Finished or Stopped
	PID   int    `json:"pid"`   // the process writing it
	Test
	// MaxGames is the cap; Games counts the games played (a solo test's
	// deals, each played by A and by B).
	MaxGames int     `json:"max_games"`
	Games    int     `json:"games"`
	LLR      float64 `json:"llr"`
	// Verdict is "H1 accepted", "H0 accepted", "no verdict" (the cap) or
	// empty while the test goes on.
	Verdict string `json:"verdict,omitempty"`
	// Estimate is the tested quantity's estimate with its 95% interval,
	// in Unit; nil before the first batch or while it is not finite (a
	// clean sweep's Elo).
	Estimate *stats.Estimate `json:"estimate,omitempty"`
	Batches  []Batch         `json:"batches"`
}

// Test is what a test is: its game and players, its hypotheses and error
// rates, its bounds and its seed. `evotune sprt --json` reports it too.
type Test struct {
	Game string `json:"game"`
	A    string `json:"a"`
	B    string `json:"b"`
	Kind string `json:"test"` // "pentanomial" or "paired difference"
	// H0 and H1 are the hypotheses on the quantity Unit names (logistic
	// Elo, normalized Elo, or the solo measure).
	H0     float64    `json:"h0"`
	H1     float64    `json:"h1"`
	Unit   string     `json:"unit"`
	Alpha  float64    `json:"alpha"`
	Beta   float64    `json:"beta"`
	Bounds [2]float64 `json:"bounds"`
	Seed   uint64     `json:"seed"`
}

// Batch is where the test stood after a batch.
type Batch struct {
	Games int     `json:"games"`
	LLR   float64 `json:"llr"`
}

// Write writes s to path atomically.
func Write(path string, s *State) error {
	if e := s.Estimate; e != nil && !(finite(e.Value) && finite(e.CI95[0]) && finite(e.CI95[1])) {
		c := *s
		c.Estimate = nil
		s = &c
	}
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return fmt.Errorf("sprt state: %w", err)
	}
	return rundir.WriteFile(path, append(data, '\n'))
}

func finite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// near reports whether a bound read is the one computed here, to the
// last bits (another platform's logarithm may round otherwise).
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// ErrNotState is a file that is not a test's state.
var ErrNotState = errors.New("not an evotune sprt state file")

// Read reads the state file at path, following no link and reading at
// most MaxSize bytes, strictly: a file that is not one is ErrNotState.
func Read(path string) (*State, error) {
	data, err := fileio.ReadFileNoFollow(path, MaxSize)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

// Decode decodes a state file's bytes, strictly.
func Decode(data []byte) (*State, error) {
	var s State
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotState, err)
	}
	if s.SPRT != Format {
		return nil, fmt.Errorf("%w: format %d, this evotune reads %d", ErrNotState, s.SPRT, Format)
	}
	switch {
	case s.State != InProgress && s.State != Finished && s.State != Stopped:
		return nil, fmt.Errorf("%w: state %q", ErrNotState, s.State)
	case !(s.Bounds[0] < 0 && s.Bounds[1] > 0):
		return nil, fmt.Errorf("%w: bounds %v", ErrNotState, s.Bounds)
	case s.Games < 0 || s.MaxGames < s.Games:
		return nil, fmt.Errorf("%w: %d games of %d", ErrNotState, s.Games, s.MaxGames)
	}
	for i, b := range s.Batches {
		if b.Games < 1 || b.Games > s.Games || i > 0 && b.Games <= s.Batches[i-1].Games || !finite(b.LLR) {
			return nil, fmt.Errorf("%w: batch %d", ErrNotState, i+1)
		}
	}
	// Where the test stands is its last batch, and what it decided
	// follows from there: the dashboard shows these, so a file that
	// claims a verdict its LLR does not reach is not one evotune wrote.
	last := Batch{}
	if n := len(s.Batches); n > 0 {
		last = s.Batches[n-1]
	}
	lo, hi := stats.WaldBounds(s.Alpha, s.Beta)
	switch {
	case !(s.Alpha > 0 && s.Alpha < 0.5 && s.Beta > 0 && s.Beta < 0.5) || !near(s.Bounds[0], lo) || !near(s.Bounds[1], hi):
		return nil, fmt.Errorf("%w: bounds %v for alpha %v, beta %v", ErrNotState, s.Bounds, s.Alpha, s.Beta)
	case s.Games != last.Games || s.LLR != last.LLR:
		return nil, fmt.Errorf("%w: %d games, LLR %v, but the last batch is %+v", ErrNotState, s.Games, s.LLR, last)
	case s.Estimate != nil && !(finite(s.Estimate.Value) && s.Estimate.Contains(s.Estimate.Value) && finite(s.Estimate.CI95[0]) && finite(s.Estimate.CI95[1])):
		return nil, fmt.Errorf("%w: estimate %v [%v, %v]", ErrNotState, s.Estimate.Value, s.Estimate.CI95[0], s.Estimate.CI95[1])
	}
	if want := verdictOf(&s); s.Verdict != want {
		return nil, fmt.Errorf("%w: verdict %q, where %s test at LLR %v in [%v, %v] after %d of %d games says %q",
			ErrNotState, s.Verdict, s.State, s.LLR, lo, hi, s.Games, s.MaxGames, want)
	}
	return &s, nil
}

// verdictOf is the verdict a state file of s's state and LLR holds: none
// until the test is finished; then the bound its LLR crossed, or "no
// verdict" at the cap.
func verdictOf(s *State) string {
	if s.State != Finished {
		return ""
	}
	switch stats.Decide(s.LLR, s.Bounds[0], s.Bounds[1]) {
	case stats.AcceptH1:
		return stats.AcceptH1.String()
	case stats.AcceptH0:
		return stats.AcceptH0.String()
	}
	if s.Games == s.MaxGames {
		return "no verdict"
	}
	return "(none: a finished test that neither decided nor reached its cap)"
}

// Writer is the process of another test in progress in the state file
// at path, which it is still writing: 0 when there is none (no file, not
// a state file, a test that ended or whose process is gone, or self's
// own). Two tests writing one file would overwrite each other, each
// batch, and the first to end would lose its end to the other.
func Writer(path string, self int) int {
	s, err := Read(path)
	if err != nil || s.State != InProgress || s.PID == self || !Alive(s.PID) {
		return 0
	}
	return s.PID
}

// IsName reports whether name is that of a state file the dashboard
// lists.
func IsName(name string) bool { return strings.HasSuffix(name, Suffix) && len(name) > len(Suffix) }
