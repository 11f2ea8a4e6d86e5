package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// copyRun copies the finished run under testdata/no-rivals into a fresh
// directory.
func copyRun(t *testing.T) string {
	t.Helper()
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
	return dir
}

// TestInputsAreBounded: every file evotune reads must be a regular file
// under its size limit. Before, /dev/zero as a player file or checkpoint
// died of out-of-memory, and a FIFO as a config hung.
func TestInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.yaml")
	if err := os.WriteFile(huge, []byte("name: x\n#"+strings.Repeat("x", 2<<20)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	zeroRun := copyRun(t)
	ck := filepath.Join(zeroRun, rundir.CheckpointFile)
	if err := os.Remove(ck); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", ck); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"player file /dev/zero", []string{"eval", "battleship", "--player", "tuned:/dev/zero", "--games", "10"}, 2, "/dev/zero: not a regular file (character device)"},
		{"placer file is a FIFO", []string{"eval", "battleship", "--player", "random", "--placer", "tuned:" + fifo, "--games", "10"}, 2, "not a regular file (FIFO)"},
		{"validate a FIFO", []string{"validate", fifo}, 2, "not a regular file (FIFO)"},
		{"run a FIFO", []string{"run", fifo, "--out", filepath.Join(dir, "run")}, 2, "not a regular file (FIFO)"},
		{"validate a directory", []string{"validate", dir}, 2, "not a regular file (directory)"},
		{"config over 1 MiB", []string{"validate", huge}, 2, "too large: more than the limit of 1 MiB"},
		{"checkpoint linked to /dev/zero", []string{"resume", zeroRun}, 1, "not a regular file (character device)"},
		{"export of a checkpoint linked to /dev/zero", []string{"export", zeroRun}, 1, "not a regular file (character device)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			proc(t, nil, tc.args...).expect(t, tc.code, tc.want)
		})
	}
}

// TestSizesAreBounded: sizes in flags and configs have upper limits.
// Before, eval --games 9223372036854775807 panicked in makeslice (exit
// 2, a stack trace), --games 10^9 allocated 8 GB up front, and a config
// with a population of 10^9 validated and then died of out-of-memory.
func TestSizesAreBounded(t *testing.T) {
	huge := filepath.Join("..", "..", "..", "engine", "testdata", "bad", "huge-sizes.yaml")
	deep := filepath.Join("..", "..", "..", "engine", "testdata", "bad", "hadron-depth.yaml")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"eval --games max int64", []string{"eval", "battleship", "--player", "random", "--games", "9223372036854775807"}, "--games 9223372036854775807: more than the limit of 10000000"},
		{"eval --games 10^9", []string{"eval", "battleship", "--player", "random", "--games", "1000000000"}, "more than the limit of 10000000"},
		{"eval --workers 10^9", []string{"eval", "battleship", "--player", "random", "--workers", "1000000000"}, "--workers 1000000000: want 0 (all cores) to 1024"},
		{"run --generations 10^9", []string{"run", "../../../configs/quickstart.yaml", "--generations", "1000000000"}, "--generations 1000000000: more than the limit of 100000"},
		{"perft --depth 10^8", []string{"perft", "hadron", "--depth", "100000000"}, "--depth 100000000: more than the limit of 64"},
		{"eval hadron depth 10^8", []string{"eval", "hadron", "--player", "aenigma", "--vs", "random", "--rule", "depth=100000000", "--games", "2"}, "depth 100000000: must be from 1 to 16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			proc(t, nil, tc.args...).expect(t, 2, tc.want)
		})
	}
	for _, cfg := range []string{huge, deep} {
		for _, cmd := range []string{"validate", "run"} {
			t.Run(cmd+" "+filepath.Base(cfg), func(t *testing.T) {
				args := []string{cmd, cfg}
				if cmd == "run" {
					args = append(args, "--out", filepath.Join(t.TempDir(), "run"))
				}
				r := proc(t, nil, args...)
				if r.code != 2 || !strings.Contains(r.stderr, "more than the limit of") && !strings.Contains(r.stderr, "must be from 1 to 16") {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
			})
		}
	}
}
