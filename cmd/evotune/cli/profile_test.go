package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/rundir"
)

// checkProfile demands a pprof profile at path: gzip whose content is a
// well-formed protocol buffer (every top-level field's key, wire type and
// length consistent up to the last byte) with the fields of a
// perftools.profiles.Profile that every profile has, sample_type (1) and
// string_table (6), and naming each of want in its strings.
func checkProfile(t *testing.T, path string, want ...string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: not gzip: %v", path, err)
	}
	pb, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	fields, err := topLevelFields(pb)
	if err != nil || !fields[1] || !fields[6] {
		t.Fatalf("%s: %d bytes, not a pprof profile (fields %v, %v)", path, len(pb), fields, err)
	}
	for _, w := range want {
		if !bytes.Contains(pb, []byte(w)) {
			t.Errorf("%s: no %q in the profile", path, w)
		}
	}
	if stray, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(stray) > 0 {
		t.Errorf("temporary files left: %v", stray)
	}
}

// topLevelFields walks a protocol buffer's top-level fields and returns
// the field numbers seen.
func topLevelFields(pb []byte) (map[uint64]bool, error) {
	seen := map[uint64]bool{}
	for len(pb) > 0 {
		key, n := binary.Uvarint(pb)
		if n <= 0 {
			return seen, errors.New("bad key")
		}
		pb = pb[n:]
		switch key & 7 {
		case 0:
			if _, n = binary.Uvarint(pb); n <= 0 {
				return seen, errors.New("bad varint")
			}
		case 1:
			n = 8
		case 2:
			l, m := binary.Uvarint(pb)
			if m <= 0 || l > uint64(len(pb)-m) {
				return seen, errors.New("bad length")
			}
			n = m + int(l)
		case 5:
			n = 4
		default:
			return seen, fmt.Errorf("wire type %d", key&7)
		}
		if n > len(pb) {
			return seen, errors.New("truncated")
		}
		pb, seen[key>>3] = pb[n:], true
	}
	return seen, nil
}

// TestProfileFlags runs run, resume and eval with --cpuprofile and
// --memprofile: each writes a CPU profile (samples of cpu time) and a
// heap profile (allocations and live memory).
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(killConfig, "generations: 6", "generations: 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "run")
	tests := []struct {
		name string
		args []string
	}{
		{"run", []string{"run", cfg, "--out", runDir, "--quiet", "--workers", "1"}},
		{"resume", []string{"resume", runDir, "--generations", "3", "--quiet", "--workers", "1"}},
		{"eval", []string{"eval", "battleship", "--player", "tuned", "--games", "200", "--workers", "1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cpu, mem := filepath.Join(dir, tc.name+".cpu.prof"), filepath.Join(dir, tc.name+".mem.prof")
			code, _, errs := run(t, append(tc.args, "--cpuprofile", cpu, "--memprofile", mem)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			checkProfile(t, cpu, "samples", "cpu", "nanoseconds")
			checkProfile(t, mem, "alloc_space", "inuse_space")
		})
	}
}

// TestProfileUnwritable: a profile path that cannot be written is a usage
// error reported at once, in one line naming the flag, before any work.
func TestProfileUnwritable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "x.prof")
	for _, flagName := range []string{"--cpuprofile", "--memprofile"} {
		for _, args := range [][]string{
			{"eval", "battleship", "--player", "random", "--games", "10"},
			{"run", filepath.Join("..", "..", "..", "configs", "quickstart.yaml"), "--out", filepath.Join(t.TempDir(), "run"), "--quiet"},
		} {
			t.Run(args[0]+flagName, func(t *testing.T) {
				code, out, errs := run(t, append(args, flagName, missing)...)
				if code != ExitUsage {
					t.Fatalf("exit %d, want %d: %s", code, ExitUsage, errs)
				}
				if want := "evotune " + args[0] + ": " + flagName + " " + missing + ": cannot create a file in "; !strings.HasPrefix(errs, want) ||
					strings.Count(errs, "\n") != 1 || out != "" {
					t.Fatalf("stderr %q, stdout %q; want one line starting %q", errs, out, want)
				}
			})
		}
	}
}

// TestProfileBadPath: a profile path that the final rename would fail on
// (a directory) or silently replace (a pipe, a device) is refused before
// any work, in one line, exit 2; so are a symbolic link (the rename would
// replace the link, not write its target), an existing file that is not a
// profile, and both profiles at one path.
func TestProfileBadPath(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	device := filepath.Join(dir, "full")
	haveDevice := syscall.Mknod(device, syscall.S_IFCHR|0o666, 1<<8|7) == nil // /dev/full's numbers; needs root
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "no", "such"), dangling); err != nil {
		t.Fatal(err)
	}
	eval := []string{"eval", "battleship", "--player", "random", "--games", "10"}
	checkpoint := filepath.Join(dir, rundir.CheckpointFile)
	if err := os.WriteFile(checkpoint, []byte(`{"generation": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, flag, path, want string
		extra                  []string
	}{
		{"cpu directory", "--cpuprofile", dir, "is a directory", nil},
		{"mem directory", "--memprofile", dir, "is a directory", nil},
		{"cpu fifo", "--cpuprofile", fifo, "is a FIFO, not a regular file", nil},
		{"mem fifo", "--memprofile", fifo, "is a FIFO, not a regular file", nil},
		{"cpu device", "--cpuprofile", device, "is a character device, not a regular file", nil},
		{"a checkpoint", "--cpuprofile", checkpoint, "is a file of the run directory", nil},
		{"a checkpoint, mem", "--memprofile", checkpoint, "is a file of the run directory", nil},
		{"another file", "--cpuprofile", notes, "exists and is not a pprof profile", nil},
		{"another file, mem", "--memprofile", notes, "exists and is not a pprof profile", nil},
		{"dangling symlink", "--cpuprofile", dangling, "is a symbolic link", nil},
		{"same file", "--cpuprofile", filepath.Join(dir, "p"), "are both one file", []string{"--memprofile", filepath.Join(dir, ".", "p")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == device && !haveDevice {
				t.Skip("mknod not permitted")
			}
			before, _ := os.Lstat(tc.path)
			code, out, errs := run(t, append(append(eval, tc.flag, tc.path), tc.extra...)...)
			if code != ExitUsage || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 || out != "" {
				t.Fatalf("exit %d, stderr %q, stdout %q; want exit %d and one line with %q", code, errs, out, ExitUsage, tc.want)
			}
			if after, _ := os.Lstat(tc.path); before != nil && (after == nil || after.Mode() != before.Mode() || after.Size() != before.Size()) {
				t.Errorf("%s was replaced", tc.path)
			}
		})
	}
	t.Run("an earlier profile is replaced", func(t *testing.T) {
		prof := filepath.Join(dir, "again.prof")
		for range 2 {
			if code, _, errs := run(t, append(eval, "--cpuprofile", prof)...); code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
		}
		checkProfile(t, prof, "samples", "cpu")
	})
	t.Run("symlink", func(t *testing.T) {
		target, link := filepath.Join(dir, "target.prof"), filepath.Join(dir, "link.prof")
		if err := os.WriteFile(target, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := run(t, append(eval, "--cpuprofile", link)...); code != ExitUsage || !strings.Contains(errs, "is a symbolic link") {
			t.Fatalf("exit %d: %s; want %d, a symbolic link", code, errs, ExitUsage)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the link was replaced: %v, %v", fi.Mode(), err)
		}
	})
}

// TestProfileWriteFailure: a profile whose writes fail (a full disk) is
// reported and never renamed into place, the CPU profile included, whose
// writer drops its own write errors.
func TestProfileWriteFailure(t *testing.T) {
	tests := []struct {
		name  string
		write func(w io.Writer)
	}{
		{"cpu", func(w io.Writer) {
			if err := pprof.StartCPUProfile(w); err != nil {
				t.Fatal(err)
			}
			pprof.StopCPUProfile() // writes the profile's header and end
		}},
		{"mem", func(w io.Writer) { _ = pprof.Lookup("allocs").WriteTo(w, 0) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name+".prof")
			pf, err := createProfile(tc.name+"profile", path)
			if err != nil {
				t.Fatal(err)
			}
			// Reopened read-only, every write fails while Sync and Close
			// succeed, as on a full disk.
			pf.f.Close()
			if pf.f, err = os.Open(pf.f.Name()); err != nil {
				t.Fatal(err)
			}
			tc.write(pf)
			if err := pf.commit(); err == nil {
				t.Error("commit succeeded after failed writes")
			}
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s is in place after failed writes (%v)", path, err)
			}
			if stray, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(stray) > 0 {
				t.Errorf("temporary files left: %v", stray)
			}
		})
	}
}

// TestProfileRefusedWork: a command refused as bad input after the
// profiles were opened (eval checks its rules inside the profiled work,
// run its run directory) leaves no profile, and an earlier profile at the
// path stays as it was.
func TestProfileRefusedWork(t *testing.T) {
	dir := t.TempDir()
	earlier := filepath.Join(dir, "earlier.prof")
	if code, _, errs := run(t, "eval", "battleship", "--player", "random", "--games", "10", "--cpuprofile", earlier); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile(earlier)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join("..", "..", "..", "configs", "quickstart.yaml")
	exists := filepath.Join(dir, "run")
	if err := os.MkdirAll(exists, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exists, rundir.CheckpointFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"eval, k longer than the board", []string{"eval", "mnk", "--rule", "k=9", "--player", "classic"}},
		{"eval, gravity=maybe", []string{"eval", "mnk", "--rule", "gravity=maybe", "--player", "classic"}},
		{"eval, opening past the board", []string{"eval", "mnk", "--rule", "opening=9", "--player", "classic"}},
		{"run, directory exists", []string{"run", cfg, "--out", exists, "--quiet"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fresh := filepath.Join(t.TempDir(), "fresh.prof")
			code, _, errs := run(t, append(tc.args, "--cpuprofile", earlier, "--memprofile", fresh)...)
			if code != ExitUsage || strings.Count(errs, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want %d and one line", code, errs, ExitUsage)
			}
			if got, err := os.ReadFile(earlier); err != nil || !bytes.Equal(got, want) {
				t.Errorf("the earlier profile was replaced (%v)", err)
			}
			if _, err := os.Lstat(fresh); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a profile of refused work was written (%v)", err)
			}
			if stray, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(stray) > 0 {
				t.Errorf("temporary files left: %v", stray)
			}
		})
	}
}

// TestEvalSignalProfile stops a profiled eval with Ctrl-C and with the
// SIGTERM batch schedulers send: either way it exits 130, says so in one
// line, and leaves a complete profile and no temporary file.
func TestEvalSignalProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			prof := filepath.Join(dir, "cpu.prof")
			var errb bytes.Buffer
			cmd := evotune("eval", "mnk", "--rule", "m=7", "--rule", "n=6", "--rule", "k=4", "--rule", "gravity=true",
				"--player", "classic", "--vs", "random", "--games", "1000000", "--workers", "1", "--cpuprofile", prof)
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Signal once the profile is open, so the games are under way.
			defer cmd.Process.Kill()
			proctest.WaitFor(t, "profile opened", func() bool {
				tmp, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
				return len(tmp) > 0
			})
			time.Sleep(100 * time.Millisecond)
			_ = cmd.Process.Signal(sig)
			err := waitOrKill(t, cmd)
			var exitErr *exec.ExitError
			if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitInterrupted) ||
				errb.String() != "evotune eval: interrupted\n" {
				t.Fatalf("exit %v, stderr %q; want %d and one line", err, errb.String(), ExitInterrupted)
			}
			checkProfile(t, prof, "samples", "cpu")
		})
	}
}
