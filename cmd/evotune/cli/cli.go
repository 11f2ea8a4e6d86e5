package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/fileio"
)

// ExitCode is what the process returns; DESIGN.md fixes the meanings.
type ExitCode int

// The exit codes.
const (
	ExitOK          ExitCode = 0
	ExitFailure     ExitCode = 1   // a runtime failure: I/O, a corrupt checkpoint
	ExitUsage       ExitCode = 2   // bad flags, arguments or config
	ExitInterrupted ExitCode = 130 // stopped by Ctrl-C
)

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

// command is one subcommand.
type command struct {
	name    string
	args    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env is what commands may touch of the outside world, injected so tests
// can run commands in-process.
type env struct {
	stdout, stderr io.Writer
	// stderrTTY says whether stderr is a terminal (progress bars) .
	stderrTTY bool
}

func commands() []command {
	return []command{
		{"run", "CONFIG [--out DIR] [--workers N] [--quiet] [--cpuprofile FILE]", "start a tuning run from a config", runRun},
		{"resume", "RUN_DIR [--generations N] [--cpuprofile FILE]", "continue a stopped run exactly where it stopped", runResume},
		{"export", "RUN_DIR [--top K] [--format yaml|json] [-o FILE]", "write a run's best parameter sets", runExport},
		{"validate", "CONFIG", "check a config and report every problem at once", runValidate},
		{"eval", "GAME --player SPEC [--vs SPEC ...] [flags]", "play games and report figures with 95% intervals", runEval},
		{"games", "[GAME] [--rule K=V ...] [--command PROGRAM]", "list games, their rule options, players and tunable parameters", runGames},
		{"perft", "GAME --depth D [--OPTION VALUE ...]", "count move sequences (hadron, mnk)", runPerft},
		{"worker", "URL [--workers N] [--token T]", "play batches of games for a coordinator (run --serve) on this machine", runWorker},
	}
}

const helpText = `evotune evolves the parameters of game-playing strategies.

Usage:
  evotune COMMAND [arguments]

Commands:
%s
A player SPEC is a registered name (over9000, aenigma, classic; see
'evotune games GAME') or a tunable player with parameters from a file,
such as an export: tuned:best.yaml.

Exit codes: 0 success, 1 runtime failure, 2 bad usage or config,
130 interrupted. Results go to stdout, progress and errors to stderr.

Run 'evotune COMMAND --help' for a command's flags.
`

func printHelp(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, helpText, b.String())
}

// Run runs the command line of the process (os.Args) and exits with its
// exit code: a whole main.
func Run() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// Main runs evotune with args (without the program name) and returns the
// exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	// Commands install their own interrupt handling: eval stops at once,
	// run and resume stop after a checkpoint.
	ctx := context.Background()
	out := &checkedWriter{w: stdout}
	e := &env{stdout: out, stderr: stderr, stderrTTY: isTerminal(stderr)}
	code := dispatch(ctx, e, args)
	if out.err != nil && code == ExitOK {
		// Results that did not reach stdout are a failure, whatever the
		// command made of the write error.
		fmt.Fprintf(stderr, "evotune: write standard output: %v\n", fileio.Cause(out.err))
		code = ExitFailure
	}
	return int(code)
}

func dispatch(ctx context.Context, e *env, args []string) ExitCode {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			return dispatch(ctx, e, []string{args[1], "--help"})
		}
		if len(args) == 0 {
			printHelp(e.stderr)
			return ExitUsage
		}
		printHelp(e.stdout)
		return ExitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, e, args[1:])
		return report(e, c.name, err)
	}
	fmt.Fprintf(e.stderr, "evotune: unknown command %q; run 'evotune help'\n", args[0])
	return ExitUsage
}

// report prints err, if any, as one line and maps it to an exit code.
func report(e *env, cmd string, err error) ExitCode {
	var ue usageError
	var ce engine.ConfigErrors
	var setup *external.SetupError
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.Is(err, errFlagParse):
		return ExitUsage // the flag package already printed the problem
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "evotune %s: interrupted\n", cmd)
		return ExitInterrupted
	case errors.As(err, &ce):
		fmt.Fprintf(e.stderr, "evotune %s: %d problems:\n%s\n", cmd, len(ce), ce.Error())
		return ExitUsage
	// A run directory whose checkpoint belongs to another config is a
	// runtime failure (exit 1), like a corrupt one: the directory, not the
	// command line, is wrong.
	case errors.As(err, &ue), errors.Is(err, engine.ErrRunExists), errors.Is(err, engine.ErrNotEvotuneDir), errors.As(err, &setup),
		errors.Is(err, engine.ErrBudget), errors.Is(err, engine.ErrNoRivals):
		fmt.Fprintf(e.stderr, "evotune %s: %s\n", cmd, oneLine(err))
		return ExitUsage
	default:
		fmt.Fprintf(e.stderr, "evotune %s: %s\n", cmd, oneLine(err))
		return ExitFailure
	}
}

// oneLine folds a joined error onto one line.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

var errFlagParse = errors.New("flag parse error")

// helpFor holds each flag set's full help text printer.
var helpFor = map[*flag.FlagSet]func(){}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// newFlagSet returns a flag set that reports errors to e.stderr and
// prints usage with the command's arguments.
func newFlagSet(e *env, name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("evotune "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	// A flag error gets one line and a pointer to --help; --help itself
	// gets the whole text, on stdout.
	fs.Usage = func() { fmt.Fprintf(e.stderr, "run 'evotune %s --help' for usage\n", name) }
	helpFor[fs] = func() {
		fmt.Fprintf(e.stdout, "Usage: evotune %s %s\n\n%s.\n", name, args, summary)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(e.stdout, "\nFlags:")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			fs.SetOutput(e.stderr)
		}
	}
	return fs
}

// parseArgs parses flags that may come before, between or after
// positional arguments, and returns the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" || a == "--h" {
			helpFor[fs]()
			return nil, flag.ErrHelp
		}
		if a == "--" {
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errFlagParse
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// optionsFlag collects repeatable KEY=VALUE rule options.
type optionsFlag map[string]string

func (o optionsFlag) String() string { return "" }
func (o optionsFlag) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	o[k] = val
	return nil
}
