package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// TestOutputFlagsRefuseWhatTheyWouldDestroy: --svg, the profile flags and
// export -o write by rename once the work is done, which replaced a
// device (/dev/full became a regular file), a FIFO, a symbolic link, a
// run's checkpoint or its lock file (a second resume then ran beside the
// first). Each is refused before any work, in one line, exit 2, and left
// as it was; an absent file, an empty one and one of the flag's own kind
// are written.
func TestOutputFlagsRefuseWhatTheyWouldDestroy(t *testing.T) {
	dir := t.TempDir()
	runDir := copyRun(t)
	write := func(path string, data []byte) string {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(filepath.Join(runDir, rundir.LockFile), []byte("4242\n"))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	device := filepath.Join(dir, "full")
	haveDevice := syscall.Mknod(device, syscall.S_IFCHR|0o666, 1<<8|7) == nil // /dev/full's numbers; needs root
	foreign := write(filepath.Join(dir, "foreign"), []byte("mine\n"))
	link := filepath.Join(dir, "link")
	if err := os.Symlink(foreign, link); err != nil {
		t.Fatal(err)
	}
	export, err := os.ReadFile(filepath.Join("testdata", "no-rivals", rundir.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	code, jsonExport, errs := run(t, "export", "testdata/no-rivals", "--format", "json")
	if code != ExitOK {
		t.Fatalf("export --format json: exit %d: %s", code, errs)
	}
	ownKind := map[string][]byte{
		"--svg":        []byte("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n"),
		"--cpuprofile": {0x1f, 0x8b, 8, 0},
		"--memprofile": {0x1f, 0x8b, 8, 0},
		"-o":           export,
	}
	commands := map[string][]string{
		"--svg":        {"eval", "battleship", "--player", "learner", "--series", "20", "--games", "200", "--workers", "1"},
		"--cpuprofile": {"eval", "battleship", "--player", "random", "--games", "10", "--workers", "1"},
		"--memprofile": {"eval", "battleship", "--player", "random", "--games", "10", "--workers", "1"},
		"-o":           {"export", "testdata/no-rivals"},
	}
	type target struct {
		name string
		path func(flag string) string // "" skips the case
		want string                   // "" when the path is written
	}
	targets := []target{
		{"directory", func(string) string { return dir }, "is a directory"},
		{"symbolic link", func(string) string { return link }, "is a symbolic link"},
		{"FIFO", func(string) string { return fifo }, "is a FIFO, not a regular file"},
		{"device", func(string) string {
			if !haveDevice {
				return ""
			}
			return device
		}, "is a character device, not a regular file"},
		{"a run's checkpoint", func(string) string { return filepath.Join(runDir, rundir.CheckpointFile) }, "is a file of the run directory"},
		{"a run's lock file", func(string) string { return filepath.Join(runDir, rundir.LockFile) }, "is a file of the run directory"},
		{"a run's best.yaml", func(string) string { return filepath.Join(runDir, rundir.BestFile) }, "is a file of the run directory"},
		{"a run's report.svg", func(string) string { return filepath.Join(runDir, rundir.ReportFile) }, "is a file of the run directory"},
		{"a run's journal, absent", func(string) string { return filepath.Join(runDir, rundir.JournalFile) }, "is a file of the run directory"},
		{"a run's rival file, absent", func(string) string { return filepath.Join(runDir, "rivals-best.yaml") }, "is a file of the run directory"},
		{"a file of another kind", func(string) string { return foreign }, "exists and is not"},
		{"absent", func(flag string) string { return filepath.Join(t.TempDir(), "out") }, ""},
		{"empty", func(flag string) string { return write(filepath.Join(t.TempDir(), "out"), nil) }, ""},
		{"of its own kind", func(flag string) string { return write(filepath.Join(t.TempDir(), "out"), ownKind[flag]) }, ""},
		{"a JSON export", func(flag string) string {
			if flag != "-o" {
				return ""
			}
			return write(filepath.Join(t.TempDir(), "out"), []byte(jsonExport))
		}, ""},
	}
	for _, flag := range []string{"--svg", "--cpuprofile", "--memprofile", "-o"} {
		for _, tc := range targets {
			t.Run(flag+"/"+tc.name, func(t *testing.T) {
				path := tc.path(flag)
				if path == "" {
					t.Skip("not here")
				}
				before, _ := os.Lstat(path)
				var data []byte
				if before != nil && before.Mode().IsRegular() {
					data, _ = os.ReadFile(path)
				}
				code, out, errs := run(t, append(commands[flag], flag, path)...)
				if tc.want == "" {
					if code != ExitOK {
						t.Fatalf("exit %d: %s", code, errs)
					}
					if got, _ := os.ReadFile(path); len(got) == 0 || bytes.Equal(got, data) {
						t.Fatalf("%s was not written: %.40q", path, got)
					}
					return
				}
				if code != ExitUsage || !strings.Contains(errs, flag+" "+path+": "+tc.want) || strings.Count(errs, "\n") != 1 {
					t.Fatalf("exit %d, stderr %q; want exit 2 and one line with %q", code, errs, tc.want)
				}
				if flag != "-o" && out != "" {
					t.Fatalf("work was done: %s", out)
				}
				after, _ := os.Lstat(path)
				if (before == nil) != (after == nil) || before != nil && (after.Mode() != before.Mode() || after.Size() != before.Size()) {
					t.Fatalf("%s was changed: %v -> %v", path, before, after)
				}
				if data != nil {
					if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
						t.Fatalf("%s was rewritten", path)
					}
				}
			})
		}
	}
}

// TestOutputFlagsNamingOneFile: two output flags naming one file, however
// spelled (relative and absolute, through a link to its directory), left
// only the last one written (x.prof held the heap profile alone).
func TestOutputFlagsNamingOneFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Symlink(dir, filepath.Join(dir, "here")); err != nil {
		t.Fatal(err)
	}
	eval := []string{"eval", "battleship", "--player", "learner", "--series", "2", "--games", "4", "--workers", "1"}
	tests := []struct {
		name  string
		flags []string
	}{
		{"one path", []string{"--cpuprofile", "x.prof", "--memprofile", "x.prof"}},
		{"with a dot", []string{"--cpuprofile", "x.prof", "--memprofile", "./x.prof"}},
		{"relative and absolute", []string{"--cpuprofile", "x.prof", "--memprofile", filepath.Join(dir, "x.prof")}},
		{"through a linked directory", []string{"--cpuprofile", "x.prof", "--memprofile", "here/x.prof"}},
		{"svg and a profile", []string{"--svg", "here/x.prof", "--cpuprofile", "x.prof"}},
		{"svg and the heap profile", []string{"--svg", "x.svg", "--memprofile", filepath.Join(dir, "here", "x.svg")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, append(eval, tc.flags...)...)
			if code != ExitUsage || !strings.Contains(errs, "are both one file") || strings.Count(errs, "\n") != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and one line saying the flags name one file", code, out, errs)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Fatalf("files were written: %v", entries)
			}
		})
	}
	code, _, errs := run(t, append(eval, "--cpuprofile", "x.prof", "--memprofile", "here/y.prof")...)
	if code != ExitOK {
		t.Fatalf("two files: exit %d: %s", code, errs)
	}
}

// TestExportToStdoutDash: -o - is standard output, as is common, not a
// file named "-".
func TestExportToStdoutDash(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("testdata", "no-rivals"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, out, errs := run(t, "export", src, "-o", "-")
	if code != ExitOK || !strings.HasPrefix(out, exportComment) {
		t.Fatalf("exit %d, stdout %.60q, stderr %s", code, out, errs)
	}
	if _, err := os.Lstat("-"); err == nil {
		t.Fatal(`a file named "-" was written`)
	}
}

// TestExportSaysWhatItExports: --top beyond the hall of fame exports what
// there is and says so on stderr; --json is --format json, and a --format
// that contradicts it is refused.
func TestExportSaysWhatItExports(t *testing.T) {
	dir := filepath.Join("testdata", "no-rivals") // a hall of fame of 2
	count := func(doc string) int {
		var f struct{ Players []json.RawMessage }
		if err := json.Unmarshal([]byte(doc), &f); err != nil {
			t.Fatalf("%v: %s", err, doc)
		}
		return len(f.Players)
	}
	code, out, errs := run(t, "export", dir, "--top", "50", "--json")
	if code != ExitOK || count(out) != 2 || errs != "evotune export: --top 50, but the hall of fame holds 2 parameter sets: exporting 2\n" {
		t.Fatalf("--top 50: exit %d, %d players, stderr %q", code, count(out), errs)
	}
	code, out, errs = run(t, "export", dir, "--top", "2", "--json")
	if code != ExitOK || count(out) != 2 || errs != "" {
		t.Fatalf("--top 2: exit %d, %d players, stderr %q", code, count(out), errs)
	}
	_, old, _ := run(t, "export", dir, "--top", "2", "--format", "json")
	if old != out {
		t.Fatalf("--format json differs from --json:\n%s\n%s", old, out)
	}
	code, _, errs = run(t, "export", dir, "--json", "--format", "yaml")
	if code != ExitUsage || errs != "evotune export: --json and --format yaml ask for two formats: give --json alone\n" {
		t.Fatalf("--json --format yaml: exit %d, stderr %q", code, errs)
	}
}
