package engine

import (
	"errors"
	"os"
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
