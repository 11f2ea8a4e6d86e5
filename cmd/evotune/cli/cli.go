package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/internal/buildinfo"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/printable"
	"github.com/spf13/cobra"
)

// env is what commands may touch of the outside world, injected so tests
// can run commands in-process.
type env struct {
	stdout, stderr io.Writer
	// stderrTTY says whether stderr is a terminal (progress bars), and
	// stdoutTTY whether stdout is (sprt redraws its line there).
	stderrTTY, stdoutTTY bool
}

// commands are the constructors of the subcommands. Each command lives in
// a file of its own (cmd_NAME.go): an options struct, a constructor that
// binds its flags, and a run(ctx) method; the file's init adds the
// constructor here, so a new command is one new file.
var commands []func(e *env) *cobra.Command

// addCommand registers a subcommand's constructor; call it from init.
func addCommand(newCmd func(e *env) *cobra.Command) { commands = append(commands, newCmd) }

const rootLong = `evotune evolves the parameters of game-playing strategies.

A player SPEC is a registered name (over9000, aenigma, classic; see
'evotune games GAME') or a tunable player with parameters from a file,
such as an export: tuned:best.yaml. Rule options are --rule KEY=VALUE in
every command (see 'evotune games GAME').

Results go to stdout, progress and errors to stderr. Ctrl-C or SIGTERM
stops run and resume after the generation in flight is checkpointed (a
second one aborts it), and stops every other long command at once.

`

// evotuneBuild is the text of --version, as 'evotune version' prints it:
// the binary is read for its digest only when --version is asked for.
func init() {
	cobra.AddTemplateFunc("evotuneBuild", func() string { return buildinfo.Own().String() })
}

// newRootCmd builds the evotune command and its subcommands over e.
func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "evotune",
		Short: "Evolve the parameters of game-playing strategies",
		Long:  rootLong + exitCodesHelp(),
		Example: `  evotune run configs/quickstart.yaml
  evotune eval battleship --player tuned:best.yaml --vs over9000
  evotune completion bash > /etc/bash_completion.d/evotune`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return nil
		},
		// No command: the help, as 'evotune help' prints it.
		RunE:          func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		Version:       buildinfo.Read().Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Names within two edits of a command are offered in its place.
		SuggestionsMinimumDistance: 2,
	}
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	// --version prints what 'evotune version' prints.
	root.SetVersionTemplate("{{evotuneBuild}}")
	// Declared here, without cobra's -v, so that every help shows it.
	root.Flags().Bool("version", false, "print the version, as 'evotune version' does")
	root.SetFlagErrorFunc(flagError)
	root.SetHelpCommand(newHelpCmd(root))
	for _, newCmd := range commands {
		root.AddCommand(newCmd(e))
	}
	refuseUnknownShells(root)
	return root
}

// refuseUnknownShells makes `completion` without a shell, or with one
// cobra cannot complete for, the usage error it is: cobra's own command
// prints its help and exits 0, which a script would take for a script.
func refuseUnknownShells(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sh := range c.Commands() {
			shells = append(shells, sh.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("name a shell: %s", strings.Join(shells, ", "))
			}
			return usagef("unknown shell %q; want %s", args[0], strings.Join(shells, ", "))
		}
	}
}

// unknownCommand is the usage error of a command name root does not
// have, with the nearest names it has when some are near.
func unknownCommand(root *cobra.Command, name string) error {
	if near := root.SuggestionsFor(name); len(near) > 0 {
		return usagef("unknown command %q; did you mean %s?", name, strings.Join(near, " or "))
	}
	return usagef("unknown command %q; run 'evotune help'", name)
}

// newHelpCmd is cobra's help command, except that help for a command
// that does not exist is the usage error it is (exit 2).
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		Long:  "Help provides help for any command of evotune.",
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			var names []string
			if len(args) == 0 {
				for _, c := range root.Commands() {
					if c.IsAvailableCommand() {
						names = append(names, c.Name()+"\t"+c.Short)
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			cmd, _, err := root.Find(args)
			if err != nil || (cmd == root && len(args) > 0) {
				return unknownCommand(root, strings.Join(args, " "))
			}
			return cmd.Help()
		},
	}
}

// Run runs the command line of the process (os.Args) and exits with its
// exit code: a whole main.
func Run() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// Main runs evotune with args (without the program name) and returns the
// exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	e := &env{stdout: out, stderr: stderr, stdoutTTY: isTerminal(stdout), stderrTTY: isTerminal(stderr)}
	code := dispatch(context.Background(), e, args)
	if out.err != nil && code == ExitOK {
		// Results that did not reach stdout are a failure, whatever the
		// command made of the write error.
		fmt.Fprintf(stderr, "evotune: write standard output: %v\n", fileio.Cause(out.err))
		code = ExitFailure
	}
	return int(code)
}

// dispatch runs the command line args and reports its error, if any.
func dispatch(ctx context.Context, e *env, args []string) ExitCode {
	root := newRootCmd(e)
	if args == nil {
		args = []string{} // cobra reads os.Args when given none
	}
	var notes []string
	if cmd, _, err := root.Find(args); err == nil {
		args, notes = rewriteArgs(cmd, args)
	}
	root.SetArgs(joinServeAddr(args))
	cmd, err := root.ExecuteContextC(ctx)
	return report(e, cmd, err, notes)
}

// report prints err, if any, as one line, with the deprecation notes of
// the command line, and maps it to an exit code.
func report(e *env, cmd *cobra.Command, err error, notes []string) ExitCode {
	name := "evotune"
	if cmd != nil {
		name = cmd.CommandPath()
	}
	note := ""
	if len(notes) > 0 {
		note = "deprecated: " + strings.Join(notes, ", ")
	}
	code := exitCodeOf(err)
	var ce config.Errors
	switch {
	case err == nil:
		if note != "" {
			fmt.Fprintf(e.stderr, "%s: %s\n", name, note)
		}
	case errors.Is(err, errUsageShown), errors.As(err, new(exitStatus)):
	case code == ExitInterrupted:
		fmt.Fprintf(e.stderr, "%s: interrupted\n", name)
	case errors.As(err, &ce) && len(ce) == 1:
		fmt.Fprintf(e.stderr, "%s: %s\n", name, escapeLines(ce.Error()))
	case errors.As(err, &ce):
		fmt.Fprintf(e.stderr, "%s: %d problems:\n%s\n", name, len(ce), escapeLines(ce.Error()))
	default:
		// An error may quote a program or the network (a failure report,
		// a program's answer or stderr): it is escaped (printable), line
		// by line where a program's own lines are kept.
		line := printable.Escape(english.OneLine(err.Error()))
		if programSaid(err) {
			line = escapeLines(err.Error())
		}
		if note != "" {
			line += " (" + note + ")"
		}
		fmt.Fprintf(e.stderr, "%s: %s\n", name, line)
	}
	return code
}

// escapeLines escapes each line of s (printable), keeping the lines.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = printable.Escape(l)
	}
	return strings.Join(lines, "\n")
}

// programSaid reports whether err is an outside program's failure, whose
// message goes on in indented lines of its own (the request, the
// program's last stderr lines) that folded onto one would read as one.
func programSaid(err error) bool {
	_, setup := errors.AsType[*external.SetupError](err)
	_, game := errors.AsType[*external.GameError](err)
	return setup || game
}

// exactlyOne returns the one positional argument of a command, what
// naming it in the error.
func exactlyOne(args []string, what string) (string, error) {
	if len(args) != 1 {
		return "", usagef("want exactly one %s, got %d arguments", what, len(args))
	}
	return args[0], nil
}
