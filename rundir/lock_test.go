package rundir

import (
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
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
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
