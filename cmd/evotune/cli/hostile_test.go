package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/rundir"
)

// escapes is text a hostile program or peer writes to drive the
// terminal: retitle the window, clear the screen, reverse the text.
const escapes = "\x1b]0;pwned\x07\x1b[2J\u202eevil"

// rawbotFlags are the flags that make eval or games play rawbot, with
// extra environment variables env (KEY=VALUE).
func rawbotFlags(env ...string) []string {
	exe, _ := os.Executable()
	flags := []string{"--command", exe, "--env", "EVOTUNE_AS_RAWBOT=1"}
	for _, kv := range env {
		flags = append(flags, "--env", kv)
	}
	return flags
}

// hostileCase is one hostile input given to a whole evotune process: the
// command line (made in a fresh directory), the exit code and what its
// standard error must and must not say.
type hostileCase struct {
	name    string
	args    func(t *testing.T, dir string) []string
	code    ExitCode
	want    []string                       // regular expressions stderr must match
	wantNot []string                       // substrings stderr must not hold
	check   func(t *testing.T, dir string) // what else must hold after
}

// tinyConfig is a run of a few hundred games.
const tinyConfig = `name: tiny
seed: 4
game: battleship
rules: {size: 6, fleet: '3 2'}
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 20
evolution:
  population: 4
  generations: 1
  tournament-size: 2
`

// finishedRun makes a finished run of tinyConfig in dir/run and returns
// its directory.
func finishedRun(t *testing.T, dir string) string {
	t.Helper()
	cfg := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(cfg, []byte(tinyConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	mustRun(t, "run", cfg, "--out", run, "--quiet")
	return run
}

// TestHostileInputs: each defect found by trying to break evotune as a
// hostile user would, as one line of a table: the whole process, its
// exit code and its message.
func TestHostileInputs(t *testing.T) {
	for _, tc := range []hostileCase{
		{
			name: "a program's cost of 1.4e154, finite but its square is not",
			args: func(t *testing.T, dir string) []string {
				return []string{"run", rawbotConfig(t, dir, map[string]string{"RAWBOT_COST": "1.4e154"}, ""), "--out", filepath.Join(dir, "run"), "--quiet"}
			},
			code: ExitFailure,
			// Refused where the program's cost is read, against the game's
			// bounds (fitness.PlaySoloMatches), naming the deal's seed.
			want:    []string{`game seed \d+: steps 1\.4e\+154: not a cost the game gives \(want a cost from 0 to 2\^53\)`},
			wantNot: []string{"not a finite number"},
		},
		{
			name: "a program's summary with escape sequences",
			args: func(t *testing.T, dir string) []string {
				return append([]string{"games"}, rawbotFlags("RAWBOT_SUMMARY="+escapes)...)
			},
			code:    ExitOK,
			want:    []string{regexp.QuoteMeta(`walk: \x1b]0;pwned\x07\x1b[2J\u202eevil`)},
			wantNot: []string{"\x1b", "\u202e"},
		},
		{
			name: "a program's stderr lines with escape sequences",
			args: func(t *testing.T, dir string) []string {
				return append([]string{"eval", "walk", "--player", "tuned", "--games", "3"}, rawbotFlags("RAWBOT_STDERR="+escapes)...)
			},
			code:    ExitOK,
			want:    []string{regexp.QuoteMeta(`\x1b]0;pwned\x07\x1b[2J\u202eevil`)},
			wantNot: []string{"\x1b", "\u202e"},
		},
		{
			// Before, every game restarted the program (479 restarts at
			// about 2 games a second in one run) and the run went on.
			name: "a program that answers every request twice",
			args: func(t *testing.T, dir string) []string {
				return []string{"run", rawbotConfig(t, dir, map[string]string{"RAWBOT_TWICE": "1"}, ""), "--out", filepath.Join(dir, "run"), "--quiet"}
			},
			code: ExitFailure,
			want: []string{`seed \d+: .*the program failed \d+ times in \d+ games \(the last: a second reply to request \d+`},
		},
		{
			name: "a run directory whose nats/ is a symbolic link",
			args: func(t *testing.T, dir string) []string {
				run := finishedRun(t, dir)
				if err := os.Mkdir(filepath.Join(dir, "elsewhere"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(run, rundir.StoreDir)); err != nil {
					t.Fatal(err)
				}
				return []string{"resume", run, "--generations", "2", "--serve=" + freeAddr(t), "--quiet"}
			},
			code: ExitFailure,
			want: []string{`the server's store .*/nats is a symbolic link`},
			check: func(t *testing.T, dir string) {
				if entries, _ := os.ReadDir(filepath.Join(dir, "elsewhere")); len(entries) > 0 {
					t.Errorf("the server wrote its store through the link: %d entries", len(entries))
				}
			},
		},
		{
			name: "a run directory whose nats/ is a file",
			args: func(t *testing.T, dir string) []string {
				run := finishedRun(t, dir)
				if err := os.WriteFile(filepath.Join(run, rundir.StoreDir), nil, 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{"resume", run, "--generations", "2", "--serve=" + freeAddr(t), "--quiet"}
			},
			code:    ExitFailure,
			want:    []string{`the server's store .*/nats is not a directory`},
			wantNot: []string{"port"},
		},
		{
			// Before, the resume ran, pooling its games into negative
			// games (and a negative fitness) that the next resume refused.
			name: "a checkpoint whose games are near 2^63",
			args: func(t *testing.T, dir string) []string {
				run := finishedRun(t, dir)
				ck := filepath.Join(run, rundir.CheckpointFile)
				data, err := os.ReadFile(ck)
				if err != nil {
					t.Fatal(err)
				}
				data = regexp.MustCompile(`"games": \d+,`).ReplaceAll(data, []byte(`"games": 9223372036854775800,`))
				if err := os.WriteFile(ck, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{"resume", run, "--generations", "3", "--quiet"}
			},
			code:    ExitFailure,
			want:    []string{`checkpoint.json: corrupt checkpoint: .*games 9223372036854775800`},
			wantNot: []string{"generations; best"},
		},
		{
			name: "env: a name holding '='",
			args: func(t *testing.T, dir string) []string {
				return []string{"validate", rawbotConfig(t, dir, map[string]string{"A=B": "x"}, "")}
			},
			code: ExitUsage,
			want: []string{`walk\.yaml:\d+: env\.A=B: environment variable "A=B": want a name of letters`},
		},
		{
			name: "env: a list for a value",
			args: func(t *testing.T, dir string) []string {
				cfg := rawbotConfig(t, dir, nil, "")
				text, _ := os.ReadFile(cfg)
				text = []byte(strings.Replace(string(text), "env:\n", "env:\n  PATH: [/usr/bin, /bin]\n", 1))
				if err := os.WriteFile(cfg, text, 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{"validate", cfg}
			},
			code: ExitUsage,
			want: []string{`walk\.yaml:\d+: env\.PATH: want a value, got a list`},
		},
		{
			// Before, the resume took the config's budget (1) and refused
			// the run as past it (exit 2); a stopped run ran on to it.
			name: "a resume of a run started with --generations",
			args: func(t *testing.T, dir string) []string {
				cfg := filepath.Join(dir, "tiny.yaml")
				if err := os.WriteFile(cfg, []byte(tinyConfig), 0o644); err != nil {
					t.Fatal(err)
				}
				run := filepath.Join(dir, "run")
				mustRun(t, "run", cfg, "--out", run, "--quiet", "--generations", "3")
				return []string{"resume", run}
			},
			code: ExitOK,
			want: []string{`run: 3 generations, `},
		},
		{
			// Before, the count was written as the processes ended, once
			// run.log was closed, and lost.
			name: "a program flooding its stderr",
			args: func(t *testing.T, dir string) []string {
				cfg := rawbotConfig(t, dir, map[string]string{"RAWBOT_STDERR": "chatter", "RAWBOT_STDERR_LINES": "20"}, "")
				return []string{"run", cfg, "--out", filepath.Join(dir, "run"), "--quiet", "--workers", "1"}
			},
			code: ExitOK,
			check: func(t *testing.T, dir string) {
				log, _ := os.ReadFile(filepath.Join(dir, "run", rundir.LogFile))
				if !regexp.MustCompile(`\[pid \d+\] stderr: \d+ lines \(.*\) dropped`).Match(log) {
					t.Errorf("run.log does not count the lines dropped:\n%.2000s", log)
				}
			},
		},
		{
			// Before, exit 1, where engine's ErrConfigChanged and the
			// contract say a config error is 2.
			name: "a resume of a run whose config was edited",
			args: func(t *testing.T, dir string) []string {
				run := finishedRun(t, dir)
				path := filepath.Join(run, rundir.ConfigFile)
				text, _ := os.ReadFile(path)
				if err := os.WriteFile(path, []byte(strings.Replace(string(text), "seed: 4", "seed: 5", 1)), 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{"resume", run, "--generations", "2"}
			},
			code: ExitUsage,
			want: []string{`config\.yaml was edited in ways that change results \(seed\)`},
		},
		{
			// Before, only the files the command names were hashed: an
			// edited module the program imports resumed silently.
			name: "a resume after a module the program imports was edited",
			args: func(t *testing.T, dir string) []string {
				lib := filepath.Join(dir, "lib")
				if err := os.MkdirAll(filepath.Join(lib, "sub"), 0o755); err != nil {
					t.Fatal(err)
				}
				mod := filepath.Join(lib, "sub", "rules.py")
				if err := os.WriteFile(mod, []byte("STEP = 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				cfg := rawbotConfig(t, dir, nil, "program-files: [lib/]\n")
				run := filepath.Join(dir, "run")
				mustRun(t, "run", cfg, "--out", run, "--quiet", "--generations", "1")
				if err := os.WriteFile(mod, []byte("STEP = 2\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{"resume", run, "--generations", "2"}
			},
			code: ExitFailure,
			want: []string{`the program changed since the checkpoint: file lib/ was edited`},
		},
		{
			name: "program-files naming nothing",
			args: func(t *testing.T, dir string) []string {
				return []string{"validate", rawbotConfig(t, dir, nil, "program-files: [lib/, missing.py]\n")}
			},
			code: ExitUsage,
			want: []string{`walk\.yaml:\d+: program-files\[0\]: external: .*lib: no such file`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := tc.args(t, dir)
			// Every case ends in about a second; one that hangs (a
			// defect: a coordinator waiting for workers that never come)
			// is killed at the end of the test's patience.
			ctx, cancel := context.WithDeadline(context.Background(), proctest.Patience(t))
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], args...)
			cmd.Env = append(os.Environ(), "EVOTUNE_AS_MAIN=1")
			cmd.Dir = dir
			out, err := outputWatched(t, cmd)
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != int(tc.code) {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !regexp.MustCompile(w).Match(out) {
					t.Errorf("stderr does not say %q", w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(string(out), w) {
					t.Errorf("stderr says %q", w)
				}
			}
			if tc.check != nil {
				tc.check(t, dir)
			}
			if t.Failed() {
				t.Logf("evotune %s:\n%s", strings.Join(args, " "), out)
			}
		})
	}
}

// TestFinishedRunOnAReadOnlyFileSystem: resuming a finished run whose
// directory is on a read-only file system says it is finished, exit 0,
// and nothing else. Before, removing the server's store, which was not
// there, printed "unlinkat RUN/nats: read-only file system". It runs
// evotune in a mount namespace of its own (unshare), where the run
// directory is bind-mounted read-only; it is skipped where that cannot
// be done (not root, no unshare).
func TestFinishedRunOnAReadOnlyFileSystem(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root for a read-only bind mount")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare")
	}
	run := finishedRun(t, t.TempDir())
	script := `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99; touch "$1/x" 2>/dev/null && exit 98; exec "$2" resume "$1"`
	cmd := exec.Command(unshare, "-m", "sh", "-c", script, "sh", run, os.Args[0])
	cmd.Env = append(os.Environ(), "EVOTUNE_AS_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = runWatched(t, cmd)
	if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 99 || ee.ExitCode() == 98) {
		t.Skipf("no read-only bind mount here: %s", stderr.String())
	}
	if err != nil || stderr.Len() > 0 || !strings.Contains(stdout.String(), "1 generation") {
		t.Fatalf("resume of a finished run on a read-only file system: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
}
