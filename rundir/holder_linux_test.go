package rundir

import "testing"

// TestFlockHolder reads /proc/locks lines: the holder of a flock on the
// file's device and inode, never a waiter or another file's.
func TestFlockHolder(t *testing.T) {
	table := []byte(`1: POSIX  ADVISORY  WRITE 11 fe:00:42 0 EOF
2: FLOCK  ADVISORY  WRITE 22 fe:01:42 0 EOF
3: FLOCK  ADVISORY  WRITE 33 fe:00:4200 0 EOF
3: -> FLOCK  ADVISORY  WRITE 44 fe:00:42 0 EOF
4: FLOCK  ADVISORY  WRITE 55 fe:00:42 0 EOF
`)
	dev := uint64(0xfe << 8)
	if pid, held := flockHolder(table, dev, 42); !held || pid != 55 {
		t.Errorf("holder %d (held %v), want 55", pid, held)
	}
	if _, held := flockHolder(table, dev, 43); held {
		t.Error("a file nobody locks is held")
	}
}
