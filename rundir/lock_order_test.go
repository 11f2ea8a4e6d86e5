//go:build unix

package rundir

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLockRemovedBeforeUnlock: a command that wrote nothing removes the
// lock file it made before it releases the lock, never after: a process
// waiting for the lock on that file then finds it gone (and looks again),
// instead of holding a lock on a file that is removed under it while a
// third process makes and locks a new one. A waiter blocked on the lock
// sees the file gone every time; released in the other order, it finds
// it still there when the release wins the race, as it mostly does.
func TestLockRemovedBeforeUnlock(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		l, err := LockRunDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, LockFile))
		if err != nil {
			t.Fatal(err)
		}
		gone := make(chan bool)
		go func() {
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX) // until l is released
			_, err := os.Stat(filepath.Join(dir, LockFile))
			gone <- os.IsNotExist(err)
		}()
		// Time for the waiter to block: were it late, it would find the
		// file gone whatever the order, so the wait decides only how
		// often a wrong order shows, never a verdict on a right one.
		time.Sleep(5 * time.Millisecond)
		l.CloseUnused()
		if !<-gone {
			t.Fatal("the lock was released while its file was still there")
		}
		f.Close()
	}
}
