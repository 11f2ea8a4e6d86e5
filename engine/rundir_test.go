package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// TestRefusedCommandsLeaveNoLockFile: a start or resume that is refused
// before writing anything leaves the directory as it found it, lock file
// included; one that ran keeps its lock file, which marks the directory
// as evotune's.
func TestRefusedCommandsLeaveNoLockFile(t *testing.T) {
	dir := t.TempDir()
	startText(t, smallConfig, Options{Dir: dir, Generations: 1})
	lock := filepath.Join(dir, rundir.LockFile)
	if _, err := os.Lstat(lock); err != nil {
		t.Fatalf("a run left no lock file: %v", err)
	}
	if err := os.Remove(lock); err != nil { // as a run of an older evotune
		t.Fatal(err)
	}
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), smallConfig), Options{Dir: dir}); !errors.Is(err, ErrRunExists) {
		t.Fatalf("start over a run: %v", err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 1 << 30}); !errors.Is(err, ErrBudget) {
		t.Fatalf("resume with a budget above the limit: %v", err)
	}
	write(t, dir, rundir.CheckpointFile, []byte("{}"))
	if _, err := Resume(context.Background(), Options{Dir: dir}); err == nil {
		t.Fatal("resume of a corrupt checkpoint succeeded")
	}
	if _, err := os.Lstat(lock); err == nil {
		t.Fatal("a refused command left a lock file")
	}
}

// TestFirstGenerationInUse: while a run plays its first generation there
// is no checkpoint, and resume and export said the directory was no run
// yet and to start it again; they name the live holder instead (rundir.ErrLocked,
// the CLI's exit 1), without writing the lock file, and say what they said
// once it is gone.
func TestFirstGenerationInUse(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, rundir.ConfigFile, []byte(smallConfig))
	lock, err := rundir.LockRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	held, _ := os.ReadFile(filepath.Join(dir, rundir.LockFile))
	pid := "(pid " + strconv.Itoa(os.Getpid()) + ")"
	tests := []struct {
		name string
		call func() error
	}{
		{"resume", func() error { _, err := Resume(context.Background(), Options{Dir: dir}); return err }},
		{"export", func() error { _, _, err := export(dir, 1, false, false); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if !errors.Is(err, rundir.ErrLocked) || errors.Is(err, ErrNotRunDir) || !strings.Contains(err.Error(), pid) || !strings.Contains(err.Error(), "first generation") {
				t.Fatalf("%v, want rundir.ErrLocked naming %s", err, pid)
			}
			if now, _ := os.ReadFile(filepath.Join(dir, rundir.LockFile)); string(now) != string(held) {
				t.Fatalf("the lock file changed: %q -> %q", held, now)
			}
		})
	}
	lock.Close()
	for _, tc := range tests {
		t.Run(tc.name+" after", func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, ErrNotRunDir) || !strings.Contains(err.Error(), "start it again") {
				t.Fatalf("%v, want ErrNotRunDir", err)
			}
		})
	}
}
