package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/rundir"
	"github.com/spf13/cobra"
)

// TestExitCodeTable: the table has one row per code, help lists each with
// its meaning, and every kind of error maps to its code.
func TestExitCodeTable(t *testing.T) {
	seen := map[ExitCode]bool{}
	names := map[string]bool{}
	_, help, _ := run(t, "help")
	for _, e := range exitCodes {
		if seen[e.code] || names[e.name] {
			t.Errorf("exit code %d (%s) twice in the table", e.code, e.name)
		}
		seen[e.code], names[e.name] = true, true
		if e.code.String() != e.name {
			t.Errorf("ExitCode(%d).String() = %q, want %q", e.code, e.code.String(), e.name)
		}
		if !strings.Contains(help, fmt.Sprintf("%-3d %s\n", int(e.code), e.meaning)) {
			t.Errorf("help does not list exit code %d: %s", e.code, e.meaning)
		}
	}
	for _, c := range []ExitCode{ExitOK, ExitFailure, ExitUsage, ExitInterrupted} {
		if !seen[c] {
			t.Errorf("exit code %d is missing from the table", c)
		}
	}
	tests := []struct {
		name string
		err  error
		want ExitCode
	}{
		{"success", nil, ExitOK},
		{"runtime failure", errors.New("disk full"), ExitFailure},
		{"corrupt checkpoint", fmt.Errorf("resume: %w", errors.New("corrupt checkpoint")), ExitFailure},
		{"usage", usagef("--games must be at least 1"), ExitUsage},
		{"usage, wrapped", fmt.Errorf("eval: %w", usagef("bad")), ExitUsage},
		{"help already shown", errUsageShown, ExitUsage},
		{"config errors", config.Errors{{File: "c.yaml", Line: 1, Key: "game", Msg: "unknown"}}, ExitUsage},
		{"run exists", fmt.Errorf("run: %w", engine.ErrRunExists), ExitUsage},
		{"not an evotune directory", fmt.Errorf("run: %w", rundir.ErrNotEvotuneDir), ExitUsage},
		{"budget", fmt.Errorf("resume: %w", engine.ErrBudget), ExitUsage},
		{"no rivals", fmt.Errorf("export: %w", runs.ErrNoRivals), ExitUsage},
		{"outside program setup", fmt.Errorf("eval: %w", &external.SetupError{}), ExitUsage},
		{"interrupted", fmt.Errorf("eval: %w", context.Canceled), ExitInterrupted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCodeOf(tc.err); got != tc.want {
				t.Fatalf("exitCodeOf(%v) = %d (%v), want %d (%v)", tc.err, got, got, tc.want, tc.want)
			}
		})
	}
}

// ourCommands are evotune's own subcommands, not cobra's help and completion.
func ourCommands(t *testing.T) []*cobra.Command {
	t.Helper()
	var cmds []*cobra.Command
	for _, c := range newRootCmd(&env{}).Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) < 7 {
		t.Fatalf("%d commands, want at least run, resume, export, validate, eval, games, perft", len(cmds))
	}
	return cmds
}

// TestEveryCommandDocumented: every command has a summary, a description
// and examples, and 'evotune help NAME' and 'NAME --help' print them.
func TestEveryCommandDocumented(t *testing.T) {
	for _, c := range ourCommands(t) {
		t.Run(c.Name(), func(t *testing.T) {
			if c.Short == "" || c.Long == "" || c.Example == "" {
				t.Fatalf("short %q, long %q, example %q: want all three", c.Short, c.Long, c.Example)
			}
			for _, args := range [][]string{{"help", c.Name()}, {c.Name(), "--help"}, {c.Name(), "-h"}, {c.Name(), "-help"}} {
				code, out, errs := run(t, args...)
				if code != ExitOK || !strings.Contains(out, c.Example) || errs != "" {
					t.Fatalf("%v: exit %d, stderr %q, stdout without the examples:\n%s", args, code, errs, out)
				}
			}
		})
	}
}

// TestRuleFlagEverywhere: every command that takes a GAME takes its rule
// options one way, --rule KEY=VALUE.
func TestRuleFlagEverywhere(t *testing.T) {
	for _, c := range ourCommands(t) {
		takesGame := strings.Contains(c.Use, "GAME")
		if has := c.Flags().Lookup("rule") != nil; has != takesGame {
			t.Errorf("%s: takes a GAME %v, has --rule %v", c.Name(), takesGame, has)
		}
	}
	code, out, errs := run(t, "perft", "mnk", "--rule", "m=4", "--rule", "n=4", "--rule", "k=4", "--depth", "2")
	if code != ExitOK || out != "perft(1) = 16\nperft(2) = 240\n" || errs != "" {
		t.Fatalf("perft --rule: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestPerftOldRuleFlags: perft's old --OPTION VALUE form still counts the
// same, and says once, on stderr, how to write it now; a refused option
// names the new form in its one line.
func TestPerftOldRuleFlags(t *testing.T) {
	_, want, _ := run(t, "perft", "mnk", "--rule", "m=7", "--rule", "n=6", "--rule", "k=4", "--rule", "gravity=true", "--depth", "4", "--json")
	code, out, errs := run(t, "perft", "mnk", "--m", "7", "--n=6", "--k", "4", "--gravity", "true", "--depth", "4", "--json")
	note := "evotune perft: deprecated: --m 7 is now --rule m=7, --n 6 is now --rule n=6, --k 4 is now --rule k=4, --gravity true is now --rule gravity=true\n"
	if code != ExitOK || out != want || errs != note {
		t.Fatalf("exit %d, stdout %q (want %q), stderr %q (want %q)", code, out, want, errs, note)
	}
	code, _, errs = run(t, "perft", "hadron", "--colour", "red", "--depth", "2")
	if code != ExitUsage || !strings.Contains(errs, "--colour red is now --rule colour=red") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming --rule colour=red", code, errs)
	}
}

// TestRewriteArgs: the spellings Go's flag package accepted still parse.
func TestRewriteArgs(t *testing.T) {
	root := newRootCmd(&env{})
	find := func(name string) *cobra.Command {
		c, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name      string
		cmd       string
		args      []string
		want      []string
		wantNotes int
	}{
		{"go single-dash long flag", "eval", []string{"eval", "-games", "10", "-json"}, []string{"eval", "--games", "10", "--json"}, 0},
		{"go single-dash with value", "eval", []string{"eval", "-games=10"}, []string{"eval", "--games=10"}, 0},
		{"go double-dash shorthand", "export", []string{"export", "run", "--o", "x.yaml"}, []string{"export", "run", "-o", "x.yaml"}, 0},
		{"a value that looks like a flag", "eval", []string{"eval", "--series", "-1", "--player", "-json"}, []string{"eval", "--series", "-1", "--player", "-json"}, 0},
		{"unknown flag untouched", "eval", []string{"eval", "--frob", "1"}, []string{"eval", "--frob", "1"}, 0},
		{"after --", "eval", []string{"eval", "--", "-games"}, []string{"eval", "--", "-games"}, 0},
		{"perft old rule option", "perft", []string{"perft", "hadron", "--size", "7", "--depth", "2"}, []string{"perft", "hadron", "--rule", "size=7", "--depth", "2"}, 1},
		{"perft old rule option with =", "perft", []string{"perft", "hadron", "--size=7"}, []string{"perft", "hadron", "--rule", "size=7"}, 1},
		{"perft old rule option, single dash", "perft", []string{"perft", "mnk", "-m", "7", "-gravity=true"}, []string{"perft", "mnk", "--rule", "m=7", "--rule", "gravity=true"}, 2},
		{"perft old rule option without value", "perft", []string{"perft", "hadron", "--size"}, []string{"perft", "hadron", "--size"}, 0},
		{"help", "eval", []string{"eval", "-help"}, []string{"eval", "--help"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, notes := rewriteArgs(find(tc.cmd), tc.args)
			if !slices.Equal(got, tc.want) || len(notes) != tc.wantNotes {
				t.Fatalf("got %q with notes %q, want %q with %d notes", got, notes, tc.want, tc.wantNotes)
			}
		})
	}
}

// TestFlagErrorsAreOneLine: a flag that does not parse is exit 2 and one
// line naming the flag, the value and the help command.
func TestFlagErrorsAreOneLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"not a number", []string{"eval", "battleship", "--games", "many"}, `evotune eval: invalid value "many" for --games: want a whole number; run 'evotune eval --help' for usage`},
		{"negative seed", []string{"eval", "battleship", "--seed", "-1"}, `invalid value "-1" for --seed: want a whole number of at least 0`},
		{"not a bool", []string{"eval", "battleship", "--json=maybe"}, `invalid value "maybe" for --json: want true or false`},
		{"rule without =", []string{"games", "mnk", "--rule", "gravity"}, `invalid value "gravity" for --rule: want KEY=VALUE, got "gravity"`},
		{"unknown flag", []string{"export", "run", "--frob"}, "evotune export: unknown flag: --frob; run 'evotune export --help' for usage"},
		{"missing value", []string{"run", "c.yaml", "--out"}, "evotune run: flag needs an argument: --out"},
		{"unknown command with flags", []string{"frobnicate", "--x"}, `evotune: unknown command "frobnicate"`},
		{"worker URL", []string{"worker", "not a url"}, `evotune worker: natsqueue: not a url: not a server URL`},
		{"run --nats URL", []string{"run", "c.yaml", "--nats", "http://h:4222"}, `evotune run: natsqueue: http://h:4222: scheme "http", want nats, tls, ws or wss`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit 2 and one line containing %q", code, out, errs, tc.want)
			}
		})
	}
}

// TestCompletionRefusesUnknownShells: cobra's completion command prints
// its help and exits 0 for a shell it has no script for, which a
// `evotune completion tcsh > file` would take for a script.
func TestCompletionRefusesUnknownShells(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown shell", []string{"completion", "tcsh"}, `evotune completion: unknown shell "tcsh"; want bash, fish, powershell, zsh`},
		{"no shell", []string{"completion"}, "evotune completion: name a shell: bash, fish, powershell, zsh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != ExitUsage || out != "" || strings.TrimSpace(errs) != tc.want {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2, nothing on stdout, %q", code, out, errs, tc.want)
			}
		})
	}
}

// TestCompletion: the scripts of every shell, and what the scripts ask
// evotune for: commands, games, players by role, rule options and files.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			code, out, errs := run(t, "completion", shell)
			if code != ExitOK || !strings.Contains(out, "evotune") || len(out) < 1000 {
				t.Fatalf("exit %d, stderr %q, script of %d bytes", code, errs, len(out))
			}
		})
	}
	tests := []struct {
		name      string
		args      []string
		want      []string // completions, descriptions cut off
		notWant   []string
		directive cobra.ShellCompDirective
	}{
		{"commands", []string{""}, []string{"run", "resume", "export", "validate", "eval", "games", "perft", "completion"}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"games", []string{"eval", ""}, []string{"battleship", "hadron", "mnk"}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"perft games", []string{"perft", ""}, []string{"hadron", "mnk"}, []string{"battleship"}, cobra.ShellCompDirectiveNoFileComp},
		{"shooters", []string{"eval", "battleship", "--player", ""}, []string{"random", "over9000", "tuned"}, []string{"blockhalf"}, cobra.ShellCompDirectiveNoFileComp},
		{"placers", []string{"eval", "battleship", "--placer", ""}, []string{"random", "blockhalf"}, []string{"over9000"}, cobra.ShellCompDirectiveNoFileComp},
		{"rules", []string{"perft", "mnk", "--rule", ""}, []string{"m=", "n=", "k=", "gravity="}, nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{"rules of games", []string{"games", "hadron", "--rule", ""}, []string{"size="}, nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{"config files", []string{"run", ""}, []string{"yaml", "yml"}, nil, cobra.ShellCompDirectiveFilterFileExt},
		{"run directories", []string{"resume", "testdata/"}, []string{"testdata/no-rivals", "testdata/before-optin-knobs/"}, []string{"testdata/coinbot", "testdata/coinbot/"}, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{"run directories to export", []string{"export", "testdata/n"}, []string{"testdata/no-rivals"}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"formats", []string{"export", "runs/x", "--format", ""}, []string{"yaml", "json"}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"params files", []string{"eval", "battleship", "--player", "tuned:testdata/no-rivals/"}, []string{"tuned:testdata/no-rivals/best.yaml", "tuned:testdata/no-rivals/config.yaml", "tuned:testdata/no-rivals/checkpoint.json"}, []string{"tuned:testdata/no-rivals/report.svg", "tuned:testdata/no-rivals/generations.csv"}, cobra.ShellCompDirectiveNoFileComp},
		{"params files by prefix", []string{"eval", "battleship", "--player", "tuned:testdata/no-rivals/b"}, []string{"tuned:testdata/no-rivals/best.yaml"}, []string{"tuned:testdata/no-rivals/config.yaml"}, cobra.ShellCompDirectiveNoFileComp},
		{"params directories", []string{"eval", "battleship", "--player", "tuned:testdata/"}, []string{"tuned:testdata/no-rivals/", "tuned:testdata/before-optin-knobs/"}, nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{"placer files", []string{"eval", "battleship", "--placer", "tuned:testdata/no-rivals/b"}, []string{"tuned:testdata/no-rivals/best.yaml"}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"no files for an untunable player", []string{"eval", "battleship", "--player", "over9000:testdata/"}, nil, []string{"over9000:testdata/no-rivals/"}, cobra.ShellCompDirectiveNoFileComp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != ExitOK || len(lines) == 0 {
				t.Fatalf("exit %d: %s%s", code, out, errs)
			}
			var got []string
			for _, l := range lines[:len(lines)-1] {
				name, _, _ := strings.Cut(l, "\t")
				got = append(got, name)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("no %q among %q", w, got)
				}
			}
			for _, w := range tc.notWant {
				if slices.Contains(got, w) {
					t.Errorf("%q among %q", w, got)
				}
			}
			if want := fmt.Sprintf(":%d", tc.directive); lines[len(lines)-1] != want {
				t.Errorf("directive %s, want %s", lines[len(lines)-1], want)
			}
		})
	}
}

// TestCompleteRunDirs: resume and export complete run directories (those
// with a checkpoint) and the directories on the way to one, never other
// directories or files.
func TestCompleteRunDirs(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, f := range []string{"runs/quick/checkpoint.json", "runs/hadron/checkpoint.json", "runs/notes.txt", "deep/a/b/checkpoint.json",
		"deeper/a/b/c/checkpoint.json", "empty/.keep", ".hidden/run/checkpoint.json", "here/checkpoint.json"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll("runs/stopped-before-a-checkpoint", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("runs", "linked"); err != nil {
		t.Fatal(err)
	}
	nospace := cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	tests := []struct {
		toComplete string
		want       []string
		directive  cobra.ShellCompDirective
	}{
		{"", []string{"deep/", "here", "linked/", "runs/"}, nospace},
		{"r", []string{"runs/"}, nospace},
		{"runs/", []string{"runs/hadron", "runs/quick"}, cobra.ShellCompDirectiveNoFileComp},
		{"runs/q", []string{"runs/quick"}, cobra.ShellCompDirectiveNoFileComp},
		{"deep/", []string{"deep/a/"}, nospace},
		{".", []string{".hidden/"}, nospace},
		{"nowhere/", nil, cobra.ShellCompDirectiveNoFileComp},
	}
	for _, tc := range tests {
		t.Run(tc.toComplete, func(t *testing.T) {
			got, directive := completeRunDir(nil, nil, tc.toComplete)
			if !slices.Equal(got, tc.want) || directive != tc.directive {
				t.Fatalf("%q, directive %d; want %q, %d", got, directive, tc.want, tc.directive)
			}
		})
	}
	for _, command := range []string{"resume", "export"} {
		c, _, err := newRootCmd(&env{}).Find([]string{command})
		if err != nil || c.ValidArgsFunction == nil {
			t.Fatalf("%s: %v", command, err)
		}
		if got, _ := c.ValidArgsFunction(c, nil, "runs/"); !slices.Equal(got, []string{"runs/hadron", "runs/quick"}) {
			t.Fatalf("%s completes %q", command, got)
		}
	}
}

// stall is a game whose games and perft never end: each writes the file
// its rule option mark names, then waits, a game for its context to end
// and perft forever, so a test can signal a command known to be at work.
type stall struct{ mark string }

type stallPlayer struct{}

func (stallPlayer) Name() string { return "p" }

func (stall) Name() string          { return "stall" }
func (stall) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (stall) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{{Name: "p", Role: fitness.Mover}}
}
func (stall) NewPlayer(fitness.Role, string, genome.Values) (fitness.Player, error) {
	return stallPlayer{}, nil
}
func (g stall) Play(ctx context.Context, _, _ fitness.Player, _ uint64) (fitness.Outcome, error) {
	_ = os.WriteFile(g.mark, nil, 0o644)
	<-ctx.Done()
	return 0, ctx.Err()
}
func (g stall) Perft(int) []uint64 {
	_ = os.WriteFile(g.mark, nil, 0o644)
	select {}
}

func init() {
	catalog.Register(fitness.GameInfo{Name: "stall", Summary: "never ends (tests)",
		Options: []fitness.Option{{Name: "mark", Summary: "file written once at work"}},
		New: func(opts map[string]string) (fitness.Game, error) {
			return stall{mark: opts["mark"]}, nil
		}})
}

// TestEveryLongCommandStopsOnSignals: eval and perft stop at once on
// Ctrl-C and on SIGTERM, with exit 130 and one line (run and resume, which
// stop after a checkpoint, are TestInterruptStopsAfterCheckpoint and
// TestProgramSignals), and so does an eval of a real game whose games take
// minutes (Hadron at depth 8): its searches must see the signal.
func TestEveryLongCommandStopsOnSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	// Each command names the file whose appearance says it is at work:
	// MARK is a stall game's mark, DIR a directory of the test's own.
	marked := func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, "mark"))
		return err == nil
	}
	profiling := func(dir string) bool {
		tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")) // the profile being written
		return len(tmp) > 0
	}
	for _, tc := range []struct {
		name    string
		args    []string
		atWork  func(dir string) bool
		settles time.Duration // after atWork, until the games are surely under way
	}{
		{"eval", []string{"eval", "stall", "--player", "p", "--vs", "p", "--games", "2", "--workers", "1", "--rule", "mark=DIR/mark"}, marked, 0},
		{"perft", []string{"perft", "stall", "--depth", "3", "--rule", "mark=DIR/mark"}, marked, 0},
		{"eval hadron depth 8", []string{"eval", "hadron", "--player", "aenigma", "--vs", "aenigma", "--games", "2000",
			"--rule", "depth=8", "--cpuprofile", "DIR/cpu.prof"}, profiling, 500 * time.Millisecond},
	} {
		for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
			t.Run(tc.name+" "+sig.String(), func(t *testing.T) {
				dir := t.TempDir()
				args := slices.Clone(tc.args)
				for i := range args {
					args[i] = strings.ReplaceAll(args[i], "DIR", dir)
				}
				var errb strings.Builder
				cmd := evotune(args...)
				cmd.Stderr = &errb
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				defer cmd.Process.Kill()
				proctest.WaitFor(t, "work under way", func() bool { return tc.atWork(dir) })
				time.Sleep(tc.settles)
				_ = cmd.Process.Signal(sig)
				err := waitOrKill(t, cmd)
				var exitErr *exec.ExitError
				if want := "evotune " + args[0] + ": interrupted\n"; !errors.As(err, &exitErr) ||
					exitErr.ExitCode() != int(ExitInterrupted) || errb.String() != want {
					t.Fatalf("exit %v, stderr %q; want %d and %q", err, errb.String(), ExitInterrupted, want)
				}
			})
		}
	}
}

// waitOrKill waits for cmd, signalled to stop, to exit. Stopping takes
// milliseconds; a process that stalls or spends a minute of CPU
// instead (see stallWatch) ignored the signal, and is killed so that the
// test fails, saying so, instead of hanging.
func waitOrKill(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return proctest.WaitDone(t, cmd, done, "evotune "+strings.Join(cmd.Args[1:], " ")+", signalled to stop,", true)
}

// TestHelpOfUnknownCommand: help for a command that does not exist is a
// usage error, as the command itself would be.
func TestHelpOfUnknownCommand(t *testing.T) {
	code, out, errs := run(t, "help", "frobnicate")
	if code != ExitUsage || out != "" || errs != "evotune help: unknown command \"frobnicate\"; run 'evotune help'\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestCountsOfOne: counts of one were printed as "1 workers", "1 seeds",
// "1 games".
func TestCountsOfOne(t *testing.T) {
	cfg := writeConfig(t, strings.Replace(killConfig, "generations: 6", "generations: 1", 1))
	dir := filepath.Join(t.TempDir(), "run")
	tests := []struct {
		name string
		args []string
		out  func() string // where to look, after the command: stdout when nil
		want string
	}{
		{"eval", []string{"eval", "battleship", "--player", "random", "--games", "1"}, nil, "battleship: 1 game per player and pairing"},
		{"eval series", []string{"eval", "battleship", "--player", "learner", "--games", "2", "--series", "1"}, nil, "2 series of 1 game per player"},
		{"validate", []string{"validate", cfg}, nil, "1 seed\n"},
		{"run", []string{"run", cfg, "--out", dir, "--workers", "1", "--quiet"}, nil, ": 1 generation, "},
		{"run.log", []string{"resume", dir, "--workers", "1", "--quiet"}, func() string {
			data, _ := os.ReadFile(filepath.Join(dir, rundir.LogFile))
			return string(data)
		}, "1 generation, 1 worker\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if tc.out != nil {
				out = tc.out()
			}
			if !strings.Contains(out, tc.want) {
				t.Fatalf("%q does not say %q", out, tc.want)
			}
		})
	}
}
