package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

func exists(path string) func() bool {
	return func() bool { _, err := os.Stat(path); return err == nil }
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConcurrentRunsOnOneDirectory: a second run (of another config) into
// a directory a running evotune holds gets one line and exit 1, and the
// first run's files stay its own. Before, both exited 0, leaving one's
// config.yaml beside the other's checkpoint.
func TestConcurrentRunsOnOneDirectory(t *testing.T) {
	first := writeConfig(t, strings.Replace(killConfig, "generations: 6", "generations: 200", 1))
	second := writeConfig(t, strings.Replace(killConfig, "seed: 3", "seed: 4", 1))
	dir := filepath.Join(t.TempDir(), "run")
	a := exec.Command(evotuneBinary(t), "run", first, "--out", dir, "--quiet", "--workers", "1")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer a.Process.Kill()
	// run.log is opened under the lock.
	proctest.WaitFor(t, "run.log", exists(filepath.Join(dir, rundir.LogFile)))

	r := proc(t, nil, "run", second, "--out", dir, "--quiet")
	r.expect(t, 1, dir+" is in use by another evotune process (pid "+strconv.Itoa(a.Process.Pid)+")")
	proctest.WaitFor(t, "checkpoint", exists(filepath.Join(dir, rundir.CheckpointFile)))
	proc(t, nil, "resume", dir, "--quiet").expect(t, 1, "in use by another evotune process")

	// kill -9 leaves no stale lock: the run resumes at once.
	_ = a.Process.Signal(syscall.SIGKILL)
	_ = a.Wait()
	var ck struct{ Generation int }
	data, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
	if err != nil || json.Unmarshal(data, &ck) != nil {
		t.Fatalf("checkpoint: %v", err)
	}
	if r := proc(t, nil, "resume", dir, "--quiet", "--generations", strconv.Itoa(ck.Generation+1)); r.code != 0 {
		t.Fatalf("resume after kill -9: exit %d: %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, rundir.ConfigFile))
	want, _ := os.ReadFile(first)
	if !bytes.Equal(got, want) {
		t.Fatal("config.yaml is not the first run's")
	}
}

// TestFirstGenerationInUse: while a run plays its first generation,
// resume and export said the directory was no run yet and to start it
// again (exit 2); they say another evotune holds it, naming its pid
// (exit 1), and export, which takes no lock, leaves the lock file alone.
func TestFirstGenerationInUse(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a long generation")
	}
	cfg := writeConfig(t, strings.Replace(killConfig, "games: 40", "games: 1000000", 1))
	dir := filepath.Join(t.TempDir(), "run")
	a := exec.Command(evotuneBinary(t), "run", cfg, "--out", dir, "--quiet", "--workers", "1")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = a.Process.Kill(); _ = a.Wait() }()
	proctest.WaitFor(t, "run.log", exists(filepath.Join(dir, rundir.LogFile))) // opened under the lock
	lock, _ := os.ReadFile(filepath.Join(dir, rundir.LockFile))
	want := dir + " is in use by another evotune process (pid " + strconv.Itoa(a.Process.Pid) + "), whose run has not finished its first generation"
	for _, cmd := range []string{"resume", "export"} {
		t.Run(cmd, func(t *testing.T) {
			proc(t, nil, cmd, dir).expect(t, 1, want)
		})
	}
	if now, _ := os.ReadFile(filepath.Join(dir, rundir.LockFile)); !bytes.Equal(now, lock) {
		t.Fatalf("the lock file changed: %q -> %q", lock, now)
	}
	if exists(filepath.Join(dir, rundir.CheckpointFile))() {
		t.Fatal("the first generation finished during the test; make it longer")
	}
}

// TestRunRefusesForeignDirectory: run --out takes over only an empty
// directory or an evotune one; before, a user's own config.yaml and
// best.yaml were silently replaced.
func TestRunRefusesForeignDirectory(t *testing.T) {
	cfg := writeConfig(t, strings.Replace(killConfig, "generations: 6", "generations: 1", 1))
	dir := t.TempDir()
	mine := map[string]string{"config.yaml": "my config\n", "best.yaml": "my best\n"}
	for f, body := range mine {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proc(t, nil, "run", cfg, "--out", dir, "--quiet").expect(t, 2, dir+" is not empty and holds no evotune run (found best.yaml, config.yaml)")
	for f, body := range mine {
		if got, _ := os.ReadFile(filepath.Join(dir, f)); string(got) != body {
			t.Fatalf("%s was replaced", f)
		}
	}
	// An empty directory, and one a killed run left before its first
	// checkpoint, are evotune's to take.
	empty := t.TempDir()
	if r := proc(t, nil, "run", cfg, "--out", empty, "--quiet"); r.code != 0 {
		t.Fatalf("run into an empty directory: exit %d: %s", r.code, r.stderr)
	}
	if err := os.Remove(filepath.Join(empty, rundir.CheckpointFile)); err != nil {
		t.Fatal(err)
	}
	if r := proc(t, nil, "run", cfg, "--out", empty, "--quiet"); r.code != 0 {
		t.Fatalf("run into a run directory without a checkpoint: exit %d: %s", r.code, r.stderr)
	}
}

// TestRunLogIsNotFollowed: a symbolic link planted as run.log is refused;
// before, evotune appended to (or created) whatever file it named.
func TestRunLogIsNotFollowed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target func(t *testing.T) string
	}{
		{"link to a file of the user's", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(p, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"dangling link", func(t *testing.T) string { return filepath.Join(t.TempDir(), "created") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t)
			target := tc.target(t)
			before, _ := os.ReadFile(target)
			if err := os.Symlink(target, filepath.Join(dir, rundir.LogFile)); err != nil {
				t.Fatal(err)
			}
			proc(t, nil, "resume", dir, "--generations", "3", "--quiet").expect(t, 1, "run.log is a symbolic link")
			after, _ := os.ReadFile(target)
			if !bytes.Equal(before, after) {
				t.Fatalf("the link's target changed: %q -> %q", before, after)
			}
		})
	}
}

// TestStaleTempFilesAreRemoved: the temporary files of a process killed
// mid-write are removed by the next run or resume, which holds the lock;
// files that merely look alike are not.
func TestStaleTempFilesAreRemoved(t *testing.T) {
	dir := copyRun(t)
	stale := []string{".checkpoint.json.tmp-123456", ".best.yaml.tmp-42", ".rivals-report.svg.tmp-7"}
	kept := []string{".notes.txt.tmp-1", ".checkpoint.json.tmp-x", "checkpoint.json.tmp-1"}
	for _, f := range append(append([]string{}, stale...), kept...) {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := proc(t, nil, "resume", dir, "--generations", "2", "--quiet"); r.code != 0 {
		t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
	}
	for _, f := range stale {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was left", f)
		}
	}
	for _, f := range kept {
		if _, err := os.Lstat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s was removed", f)
		}
	}
}

// TestResumeFinishedRunInReadOnlyDirectory: resuming a finished run that
// cannot be written reports its result and writes nothing; before, it
// failed on run.log. Continuing an unfinished one there is a clear error.
func TestResumeFinishedRunInReadOnlyDirectory(t *testing.T) {
	// Root writes anywhere: run evotune as nobody instead.
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	src := copyRun(t)
	dir, err := os.MkdirTemp("", "evotune-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	entries, _ := os.ReadDir(src)
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(src, e.Name()))
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	before := rundirtest.Read(t, dir, false)
	runAs := func(args ...string) (int, string, string) {
		cmd := exec.Command(evotuneBinary(t), args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := runWatched(t, cmd)
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String(), errb.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, out.String(), errb.String()
	}
	code, out, errs := runAs("resume", dir, "--quiet")
	if code != 0 || !strings.Contains(out, "best fitness") {
		t.Fatalf("resume of a finished run: exit %d: %s%s", code, out, errs)
	}
	code, _, errs = runAs("resume", dir, "--generations", "5", "--quiet")
	if code != 1 || !strings.Contains(errs, dir+" cannot be written") {
		t.Fatalf("resume of an unfinished run: exit %d: %s", code, errs)
	}
	after := rundirtest.Read(t, dir, false)
	for f := range before {
		if !bytes.Equal(before[f], after[f]) {
			t.Errorf("%s changed", f)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, rundir.LogFile)); err == nil {
		t.Error("run.log was written")
	}
}

// TestDefaultRunDirectoryNameIsSafe: the run name taken from the config's
// file name skipped the rule a name: in the config follows: "..yaml" made
// runs/ itself the run directory, "...yaml" runs/.. and " .yaml" "runs/ ".
// Such a name is refused (exit 2, telling to pass -o) and nothing is
// made; with --out, or a name: in the config, the same file runs.
func TestDefaultRunDirectoryNameIsSafe(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	anonymous := strings.Replace(strings.Replace(killConfig, "name: kill\n", "", 1), "generations: 6", "generations: 1", 1)
	named := "name: kill\n" + anonymous
	tests := []struct {
		name, file, text string
		out              bool   // pass --out
		want             string // "" when the run runs, in wantDir
		wantDir          string
	}{
		{"dot", "..yaml", anonymous, false, "pass -o DIR", ""},
		{"dot dot", "...yaml", anonymous, false, "pass -o DIR", ""},
		{"a space", " .yaml", anonymous, false, "pass -o DIR", ""},
		{"a tab", "\t.yaml", anonymous, false, "pass -o DIR", ""},
		{"hidden", ".hidden.yaml", anonymous, false, "pass -o DIR", ""},
		{"empty", ".yaml", anonymous, false, "pass -o DIR", ""},
		{"dot, with --out", "..yaml", anonymous, true, "", "out"},
		{"dot, named in the config", "..yaml", named, false, "", filepath.Join("runs", "kill")},
		{"a plain name", "plain.v2.yaml", anonymous, false, "", filepath.Join("runs", "plain.v2")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Cleanup(func() { os.RemoveAll("runs"); os.RemoveAll("out") })
			cfg := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(cfg, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"run", cfg, "--quiet", "--workers", "1"}
			if tc.out {
				args = append(args, "--out", "out")
			}
			code, _, errs := run(t, args...)
			if tc.want != "" {
				if code != ExitUsage || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
					t.Fatalf("exit %d, stderr %q; want exit 2 and one line with %q", code, errs, tc.want)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 0 {
					t.Fatalf("made %v", entries)
				}
				return
			}
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if _, err := os.Stat(filepath.Join(tc.wantDir, rundir.CheckpointFile)); err != nil {
				t.Fatalf("no run in %s: %v", tc.wantDir, err)
			}
		})
	}
}

// TestRunOutputFlag: run names its directory with -o/--output, as every
// command that writes names its output; --out, the older spelling, still
// works; and giving both is refused before anything is written.
func TestRunOutputFlag(t *testing.T) {
	cfg := writeConfig(t, strings.Replace(killConfig, "generations: 6", "generations: 1", 1))
	var want []byte
	for _, flag := range []string{"-o", "--output", "--out", "-out"} {
		t.Run(flag, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			code, out, errs := run(t, "run", cfg, flag, dir, "--workers", "1", "--quiet")
			if code != ExitOK || !strings.HasPrefix(out, dir+": 1 generation") {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
			ck, err := os.ReadFile(filepath.Join(dir, "checkpoint.json"))
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = ck
			} else if !bytes.Equal(ck, want) {
				t.Fatal("another checkpoint than -o's")
			}
		})
	}
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errs := run(t, "run", cfg, "--out", dir, "-o", dir)
	if code != ExitUsage || errs != "evotune run: --out is the older spelling of -o/--output: give one\n" {
		t.Fatalf("both: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Lstat(dir); err == nil {
		t.Fatal("refused, yet the run directory was made")
	}
}
