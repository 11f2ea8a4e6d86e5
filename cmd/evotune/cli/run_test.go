package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

const killConfig = `name: kill
seed: 3
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 40
evolution:
  population: 10
  generations: 6
  tournament-size: 2
  elitism: 2
remeasure: {top: 2, games: 40} # on, as by default, but cheap
`

// evotune starts this test binary as the evotune command.
func evotune(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "EVOTUNE_AS_MAIN=1")
	return cmd
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := evotune(args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := runWatched(t, cmd); err != nil {
		t.Fatalf("evotune %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// TestKilledRunsResumeExactly SIGKILLs real `evotune run` processes at
// random moments, resumes each, and demands byte-identical results to a
// run that was never interrupted.
func TestKilledRunsResumeExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	killAndResume(t, killConfig)
}

// killAndResume SIGKILLs runs of the config text at random moments and
// demands that each, resumed, ends as the run never killed.
func killAndResume(t *testing.T, text string) {
	cfg := filepath.Join(t.TempDir(), "kill.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	straight := filepath.Join(t.TempDir(), "run")
	began := time.Now()
	mustRun(t, "run", cfg, "--out", straight, "--quiet", "--workers", "2")
	took := time.Since(began)
	want := rundirtest.Read(t, straight, false)

	rng := rand.New(rand.NewPCG(2026, 11))
	for k := range 4 {
		dir := filepath.Join(t.TempDir(), "run")
		at := time.Duration(rng.Int64N(int64(took)))
		cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "2")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(at)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := waitOrKill(t, cmd)
		killed := err != nil
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, rundir.CheckpointFile)); err != nil {
			// Killed before the first checkpoint: nothing to resume, so
			// the same command starts it again.
			mustRun(t, "run", cfg, "--out", dir, "--quiet", "--workers", "1")
		} else {
			mustRun(t, "resume", dir, "--quiet", "--workers", "1")
		}
		got := rundirtest.Read(t, dir, false)
		rundirtest.Same(t, want, got, "kill "+strconv.Itoa(k)+" at "+at.String()+" (killed: "+strconv.FormatBool(killed)+"): the uninterrupted run vs resumed")
	}
}

// TestNotARunDirectoryIsUsage: a RUN_DIR argument that names no run is
// the command line's mistake (exit 2, one line), like a missing config;
// a run directory that is there but damaged stays a runtime failure.
func TestNotARunDirectoryIsUsage(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(empty, "missing"), "not a run directory: no such file or directory"},
		{"empty", empty, "not a run directory: no checkpoint.json"},
		{"a file", file, "not a run directory: not a directory"},
	} {
		for _, cmd := range []string{"resume", "export"} {
			t.Run(tc.name+"/"+cmd, func(t *testing.T) {
				code, out, errs := run(t, cmd, tc.dir)
				if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
					t.Fatalf("exit %d, stdout %q, stderr %q: want exit 2 and one line containing %q", code, out, errs, tc.want)
				}
			})
		}
	}
	damaged := t.TempDir()
	if err := os.WriteFile(filepath.Join(damaged, rundir.CheckpointFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "resume", damaged); code != ExitFailure || !strings.Contains(errs, "corrupt checkpoint") {
		t.Fatalf("a damaged run: exit %d, %s; want exit 1 naming the corrupt checkpoint", code, errs)
	}
}

func TestRunExportEval(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "kill.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(killConfig, "generations: 6", "generations: 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errs := run(t, "run", cfg, "--out", dir, "--quiet")
	if code != ExitOK || !strings.Contains(out, "recommended (hall of fame #") {
		t.Fatalf("run: exit %d: %s%s", code, out, errs)
	}
	best := filepath.Join(t.TempDir(), "best.yaml")
	if code, _, errs := run(t, "export", dir, "--top", "3", "-o", best); code != ExitOK {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	code, out, errs = run(t, "eval", "battleship", "--player", "tuned:"+best, "--games", "20")
	if code != ExitOK || !strings.Contains(out, "tuned:"+best) {
		t.Fatalf("eval of the export: exit %d: %s%s", code, out, errs)
	}
	// A second run into the same directory is refused: it holds results.
	if code, _, errs := run(t, "run", cfg, "--out", dir, "--quiet"); code != ExitUsage || !strings.Contains(errs, "already holds a run") {
		t.Fatalf("rerun: exit %d: %s", code, errs)
	}
}

// TestInterruptStopsAfterCheckpoint sends one SIGINT to a real run: it
// must finish the generation in flight, checkpoint it, say how to resume
// and exit 130; the resumed run must equal one never interrupted.
func TestInterruptStopsAfterCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg := filepath.Join(t.TempDir(), "kill.yaml")
	if err := os.WriteFile(cfg, []byte(killConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	straight := filepath.Join(t.TempDir(), "run")
	mustRun(t, "run", cfg, "--out", straight, "--quiet")
	want := rundirtest.Read(t, straight, false)

	dir := filepath.Join(t.TempDir(), "run")
	var errb bytes.Buffer
	cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "1")
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the first checkpoint exists, so the run is mid-way.
	proctest.WaitFor(t, "checkpoint", exists(filepath.Join(dir, rundir.CheckpointFile)))
	_ = cmd.Process.Signal(os.Interrupt)
	err := waitOrKill(t, cmd)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted) {
		t.Fatalf("exit %v, want %d; stderr:\n%s", err, ExitInterrupted, errb.String())
	}
	if !strings.Contains(errb.String(), "evotune resume "+dir) {
		t.Fatalf("stderr does not say how to resume:\n%s", errb.String())
	}
	mustRun(t, "resume", dir, "--quiet")
	got := rundirtest.Read(t, dir, false)
	rundirtest.Same(t, want, got, "after interrupt and resume")
}

// TestInterruptAdviceKeepsTheBudget: the advice after Ctrl-C dropped
// --generations, so "stopped after generation 2 of 4; continue with:
// evotune resume DIR" ran on to the config's 6. The advice names the
// budget when it is not the config's, and following it ends where the
// budget said.
func TestInterruptAdviceKeepsTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg := filepath.Join(t.TempDir(), "kill.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(killConfig, "generations: 6", "generations: 12", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	interrupt := func(args ...string) string {
		t.Helper()
		var errb bytes.Buffer
		cmd := evotune(args...)
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		generation := func() int {
			var ck struct{ Generation int }
			data, _ := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
			_ = json.Unmarshal(data, &ck)
			return ck.Generation
		}
		gen := generation()
		proctest.WaitFor(t, "a new checkpoint", func() bool { return generation() > gen })
		_ = cmd.Process.Signal(os.Interrupt)
		var exitErr *exec.ExitError
		if err := waitOrKill(t, cmd); !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted) {
			t.Fatalf("exit %v, want %d; stderr:\n%s", err, ExitInterrupted, errb.String())
		}
		_, advice, ok := strings.Cut(errb.String(), "continue with: ")
		if !ok {
			t.Fatalf("no advice:\n%s", errb.String())
		}
		advice, _, _ = strings.Cut(advice, "\n")
		return advice
	}
	if got, want := interrupt("run", cfg, "--out", dir, "--quiet", "--workers", "1", "--generations", "5"), "evotune resume "+dir+" --generations 5"; got != want {
		t.Fatalf("after run --generations 5: %q, want %q", got, want)
	}
	advice := interrupt("resume", dir, "--quiet", "--workers", "1", "--generations", "9")
	if want := "evotune resume " + dir + " --generations 9"; advice != want {
		t.Fatalf("after resume --generations 9: %q, want %q", advice, want)
	}
	args := append(strings.Fields(strings.TrimPrefix(advice, "evotune ")), "--quiet")
	if out := mustRun(t, args...); !strings.Contains(out, ": 9 generations, ") {
		t.Fatalf("the advice's resume: %s", out)
	}
}

// deepConfig is a run whose every game takes minutes: Hadron at depth 8.
const deepConfig = `name: deep
seed: 1
game: hadron
rules:
  depth: 8
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [aenigma]
    games: 2
evolution:
  population: 4
  generations: 2
  tournament-size: 2
`

// TestSecondSignalAbortsDeepGames: the second Ctrl-C aborts a generation
// whose games take minutes, at once: their searches see it. The first
// asks to stop after the generation, which is minutes away.
func TestSecondSignalAbortsDeepGames(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	cfg := filepath.Join(t.TempDir(), "deep.yaml")
	if err := os.WriteFile(cfg, []byte(deepConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	errb := &proctest.Buffer{}
	cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "2")
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The journal is written as the generation's games start.
	proctest.WaitFor(t, "generation under way", exists(filepath.Join(dir, rundir.JournalFile)))
	time.Sleep(500 * time.Millisecond) // into the searches
	// The second signal goes once the first is acknowledged: two sent
	// 50 ms apart to a process the busy machine had not run meanwhile
	// merged into one (a signal pending is not queued twice), and the
	// run only stopped after its minutes-long generation.
	_ = cmd.Process.Signal(os.Interrupt)
	proctest.WaitFor(t, "acknowledgement of the first Ctrl-C", func() bool { return strings.Contains(errb.String(), "Ctrl-C again to abort") })
	_ = cmd.Process.Signal(os.Interrupt)
	err := waitOrKill(t, cmd)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted) ||
		!strings.Contains(errb.String(), "Ctrl-C again to abort") || !strings.Contains(errb.String(), "aborted before the first checkpoint") {
		t.Fatalf("exit %v, want %d; stderr:\n%s", err, ExitInterrupted, errb.String())
	}
	if log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile)); err != nil || !bytes.Contains(log, []byte("generation 1 abandoned")) {
		t.Fatalf("run.log does not say the generation was abandoned: %v\n%s", err, log)
	}
}

// TestBrokenRunDirectoriesExitClearly: a corrupt checkpoint is a clear
// error, exit 1, and a config edited since the checkpoint one too, exit
// 2 (a config error); no file changes.
func TestBrokenRunDirectoriesExitClearly(t *testing.T) {
	copyRun := func(t *testing.T) string {
		dir := t.TempDir()
		for _, f := range rundir.Results(false) {
			data, err := os.ReadFile(filepath.Join("testdata", "no-rivals", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// A log, so that a failed resume appending to it shows.
		if err := os.WriteFile(filepath.Join(dir, rundir.LogFile), []byte("2026-01-01T00:00:00Z start no-rivals\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	tests := []struct {
		name   string
		damage func(dir string)
		code   ExitCode
		want   string
	}{
		{"truncated checkpoint", func(dir string) {
			p := filepath.Join(dir, rundir.CheckpointFile)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)/3], 0o644)
		}, ExitFailure, "corrupt checkpoint"},
		{"checkpoint of another config", func(dir string) {
			p := filepath.Join(dir, rundir.ConfigFile)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(data, []byte("population: 3"), []byte("population: 4"), 1), 0o644)
		}, ExitUsage, "evolution.population"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t)
			tc.damage(dir)
			before := allFiles(t, dir)
			code, _, errs := run(t, "resume", dir, "--generations", "2")
			if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Fatalf("exit %d, stderr %q; want exit %d and one line about %q", code, errs, tc.code, tc.want)
			}
			sameFiles(t, before, allFiles(t, dir))
		})
	}
}

// allFiles reads every file of a directory, run.log included.
func allFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

// sameFiles fails unless both directories' files are the same, byte for byte.
func sameFiles(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for f, data := range before {
		if got, ok := after[f]; !ok || !bytes.Equal(got, data) {
			t.Errorf("%s changed or vanished", f)
		}
	}
	for f := range after {
		if _, ok := before[f]; !ok {
			t.Errorf("%s appeared", f)
		}
	}
}

// TestStoredConfigErrorExitsOne: when the config stored in a checkpoint
// no longer loads (a player file it names is gone), resume and export
// fail with exit 1 and one line naming the file, and change nothing.
func TestStoredConfigErrorExitsOne(t *testing.T) {
	cfgDir := t.TempDir()
	champ := filepath.Join(cfgDir, "champ.yaml")
	if err := os.WriteFile(champ, []byte("jitter: 0.02\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(killConfig, "  baselines:\n    games: 40\n",
		"  objective: score\n  baselines:\n    games: 4\n    opponents: [\"tuned:champ.yaml\"]\n", 1)
	text = strings.Replace(text, "population: 10", "population: 4", 1)
	cfg := filepath.Join(cfgDir, "champ-run.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := run(t, "run", cfg, "--out", dir, "--quiet", "--generations", "1"); code != ExitOK {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	if err := os.Remove(champ); err != nil {
		t.Fatal(err)
	}
	before := allFiles(t, dir)
	for _, args := range [][]string{{"resume", dir, "--generations", "2"}, {"export", dir}} {
		code, out, errs := run(t, args...)
		if code != ExitFailure || out != "" || !strings.Contains(errs, "no longer loads") || !strings.Contains(errs, "champ.yaml") ||
			strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Fatalf("%s: exit %d, stderr %q; want exit 1 and one line about the stored config and champ.yaml", args[0], code, errs)
		}
	}
	sameFiles(t, before, allFiles(t, dir))
}
