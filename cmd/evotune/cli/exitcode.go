package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/rundir"
)

// ExitCode is what the process returns. exitCodes is the one table of
// them: the help text, String and the tests all read it.
type ExitCode int

// The exit codes.
const (
	ExitOK           ExitCode = 0
	ExitFailure      ExitCode = 1   // a runtime failure: I/O, a corrupt checkpoint
	ExitUsage        ExitCode = 2   // bad flags, arguments or config
	ExitH0           ExitCode = 3   // sprt accepted H0
	ExitInconclusive ExitCode = 4   // sprt reached --max-games without a verdict
	ExitInterrupted  ExitCode = 130 // stopped by Ctrl-C or SIGTERM
)

// exitCodes says what each exit code means, in the order help lists them.
var exitCodes = []struct {
	code    ExitCode
	name    string
	meaning string
}{
	{ExitOK, "ok", "success (sprt: H1 accepted)"},
	{ExitFailure, "failure", "runtime failure (I/O, a corrupt checkpoint, a game that cannot be played)"},
	{ExitUsage, "usage", "bad usage or config (flags, arguments, a config, a player file, an outside program that fails its handshake)"},
	{ExitH0, "h0", "sprt: H0 accepted"},
	{ExitInconclusive, "inconclusive", "sprt: --max-games reached without a verdict"},
	{ExitInterrupted, "interrupted", "interrupted by Ctrl-C or SIGTERM"},
}

func (c ExitCode) String() string {
	for _, e := range exitCodes {
		if e.code == c {
			return e.name
		}
	}
	return fmt.Sprintf("exit(%d)", int(c))
}

// exitCodesHelp is the exit-code paragraph of the help text.
func exitCodesHelp() string {
	var b strings.Builder
	b.WriteString("Exit codes:\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "  %-3d %s\n", int(e.code), e.meaning)
	}
	return b.String()
}

// usageError marks an error as the user's input being wrong (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// asUsage marks err, if any, as a usage error.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// errUsageShown is a usage error whose explanation (the help text) is
// already on stderr: exit 2 and nothing more to print.
var errUsageShown = errors.New("usage shown")

// exitStatus ends a command that worked with an exit code other than 0
// (sprt's verdicts): the command has said everything already.
type exitStatus ExitCode

func (s exitStatus) Error() string { return ExitCode(s).String() }

// exitCodeOf maps the error a command returned to the exit code.
func exitCodeOf(err error) ExitCode {
	var ue usageError
	var ce config.Errors
	var setup *external.SetupError
	var status exitStatus
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &status):
		return ExitCode(status)
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	// A run directory whose config.yaml was edited in a way that changes
	// results is a config error (exit 2), as the contract has config
	// errors: restoring the config is the user's to do. A corrupt
	// checkpoint or a changed program is a runtime failure (exit 1). A
	// path that is no run directory at all is the command line's mistake
	// (exit 2).
	case errors.Is(err, errUsageShown), errors.As(err, &ce), errors.As(err, &ue), errors.Is(err, engine.ErrRunExists),
		errors.Is(err, rundir.ErrNotEvotuneDir), errors.Is(err, engine.ErrNotRunDir), errors.As(err, &setup), errors.Is(err, engine.ErrBudget), errors.Is(err, engine.ErrModelBudget),
		errors.Is(err, runs.ErrNoRivals), errors.Is(err, engine.ErrConfigChanged):
		return ExitUsage
	}
	return ExitFailure
}
