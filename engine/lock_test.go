package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestLockRunDirExcludesOthersUntilClosed(t *testing.T) {
	dir := t.TempDir()
	first, err := LockRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks open file descriptions, so a second open in this
	// process contends exactly as another process would.
	_, err = LockRunDir(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "(pid "+strconv.Itoa(os.Getpid())+")") {
		t.Fatalf("second lock: %v, want ErrLocked naming this pid", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := LockRunDir(dir)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again.Close()
}

// TestRefusedCommandsLeaveNoLockFile: a start or resume that is refused
// before writing anything leaves the directory as it found it, lock file
// included; one that ran keeps its lock file, which marks the directory
// as evotune's.
func TestRefusedCommandsLeaveNoLockFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), smallConfig), Options{Dir: dir, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(dir, fileLock)
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
	write(t, dir, fileCheckpoint, []byte("{}"))
	if _, err := Resume(context.Background(), Options{Dir: dir}); err == nil {
		t.Fatal("resume of a corrupt checkpoint succeeded")
	}
	if _, err := os.Lstat(lock); err == nil {
		t.Fatal("a refused command left a lock file")
	}
}

// TestFirstGenerationInUse: while a run plays its first generation there
// is no checkpoint, and resume and export said the directory was no run
// yet and to start it again; they name the live holder instead (ErrLocked,
// the CLI's exit 1), without writing the lock file, and say what they said
// once it is gone.
func TestFirstGenerationInUse(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, fileConfig, []byte(smallConfig))
	lock, err := LockRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	held, _ := os.ReadFile(filepath.Join(dir, fileLock))
	pid := "(pid " + strconv.Itoa(os.Getpid()) + ")"
	tests := []struct {
		name string
		call func() error
	}{
		{"resume", func() error { _, err := Resume(context.Background(), Options{Dir: dir}); return err }},
		{"export", func() error { _, _, err := Export(dir, 1, YAML, false); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if !errors.Is(err, ErrLocked) || errors.Is(err, ErrNotRunDir) || !strings.Contains(err.Error(), pid) || !strings.Contains(err.Error(), "first generation") {
				t.Fatalf("%v, want ErrLocked naming %s", err, pid)
			}
			if now, _ := os.ReadFile(filepath.Join(dir, fileLock)); string(now) != string(held) {
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

// TestLockFollowsAReplacedFile: a lock file removed between the open and
// the lock (a holder releasing an unused directory) locks nothing, so the
// lock is taken again on the file the path names; one that keeps being
// replaced is given up after 11 tries with a message, not a spin.
func TestLockFollowsAReplacedFile(t *testing.T) {
	t.Cleanup(func() { lockTakenHook = nil })
	for _, tc := range []struct {
		name     string
		replaced int // the first tries whose file is removed
		tries    int
		err      string
	}{
		{"never", 0, 1, ""},
		{"once", 1, 2, ""},
		{"ten times", 10, 11, ""},
		{"always", 1 << 30, 11, "the lock file keeps changing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tries := 0
			lockTakenHook = func(path string) {
				if filepath.Dir(path) != dir {
					return // another test's lock
				}
				tries++
				if tries <= tc.replaced {
					if err := os.Remove(path); err != nil {
						t.Fatal(err)
					}
				}
			}
			l, err := LockRunDir(dir)
			lockTakenHook = nil
			if tries != tc.tries {
				t.Errorf("%d tries, want %d", tries, tc.tries)
			}
			if !wantError(t, err, tc.err) {
				return
			}
			defer l.Close()
			// The lock holds the file the path names: a second taker is
			// refused.
			if _, err := LockRunDir(dir); !errors.Is(err, ErrLocked) {
				t.Fatalf("a second lock: %v, want ErrLocked", err)
			}
		})
	}
}
