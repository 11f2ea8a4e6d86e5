package external

import (
	"fmt"
	"strings"

	"github.com/evotune/evotune/internal/english"
)

// SetupError says the program could not be started or described: a
// missing command, a failed handshake, an invalid announced schema. It is
// the user's to fix before a run can start (the CLI exits 2).
type SetupError struct {
	Argv []string // the command
	Msg  string   // what is wrong, one line
	// StderrTail holds the program's last stderr lines, if it ran;
	// TailShown says they were shown as the program wrote them
	// (Command.StderrShown), so Error leaves them out.
	StderrTail []string
	TailShown  bool
	Err        error // the underlying error, if any
}

// Error is one line (an invalid schema's several problems folded onto
// it), then the program's last stderr lines, as lines.
func (e *SetupError) Error() string {
	s := e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return "external: " + quoteArgv(e.Argv) + ": " + english.OneLine(s) + tailText(e.StderrTail, e.TailShown)
}

func (e *SetupError) Unwrap() error { return e.Err }

// GameError says one game still failed after its retries: the program
// crashed, hung or wrote garbage every time it played it, or answered it
// with an error. Games return it wrapped in a *fitness.GameError, whose
// message names the seed.
type GameError struct {
	Seed       uint64
	Request    string   // the request line as sent, without its newline
	Attempts   int      // how many times the game was tried
	StderrTail []string // the program's last stderr lines
	TailShown  bool     // as SetupError's
	Err        error    // what went wrong the last time
}

func (e *GameError) Error() string {
	return fmt.Sprintf("external: failed after %d attempt%s: %s\n  request: %s%s",
		e.Attempts, plural(e.Attempts), english.OneLine(fmt.Sprint(e.Err)), e.Request, tailText(e.StderrTail, e.TailShown))
}

func (e *GameError) Unwrap() error { return e.Err }

// GameSeed implements fitness.Seeded.
func (e *GameError) GameSeed() uint64 { return e.Seed }

// NondeterminismError says a game replayed on an audit process gave
// another result: the program is not a pure function of (players, seed).
// Games return it wrapped in a *fitness.GameError, whose message names
// the seed.
type NondeterminismError struct {
	Seed          uint64
	Request       string
	First, Second string // the two results ("win", "loss", or a cost)
}

func (e *NondeterminismError) Error() string {
	return fmt.Sprintf("external: not deterministic in seed: the game gave %s, then %s on replay\n  request: %s",
		e.First, e.Second, e.Request)
}

// GameSeed implements fitness.Seeded.
func (e *NondeterminismError) GameSeed() uint64 { return e.Seed }

func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") {
			a = fmt.Sprintf("%q", a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// tailText is a program's last stderr lines as the indented lines that
// end an error, "" when there are none or they were shown already. They
// stay lines: folded onto one, a program's message reads as another.
func tailText(lines []string, shown bool) string {
	if len(lines) == 0 || shown {
		return ""
	}
	return "\n  last stderr lines:\n    " + strings.Join(lines, "\n    ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
