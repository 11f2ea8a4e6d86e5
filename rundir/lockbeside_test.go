//go:build unix

package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockBeside: one holder at a time; the lock file is gone once it is
// released and taken again after; a link where the lock file goes is
// refused, not followed.
func TestLockBeside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.sprt.json")
	unlock, err := LockBeside(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockBeside(path); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Fatalf("a second holder: %v, want ErrLocked naming the file", err)
	}
	other, err := LockBeside(filepath.Join(dir, "u.sprt.json"))
	if err != nil {
		t.Fatalf("another file's lock: %v", err)
	}
	other()
	unlock()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
	again, err := LockBeside(path)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again()
	target := filepath.Join(dir, "elsewhere")
	if err := os.Symlink(target, filepath.Join(dir, ".t.sprt.json.lock")); err != nil {
		t.Fatal(err)
	}
	if _, err := LockBeside(path); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a link as the lock file: %v", err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the link was followed")
	}
}
