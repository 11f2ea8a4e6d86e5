//go:build unix

package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// TestJournalThatIsNoFileStopsResume: a FIFO planted where the journal
// goes makes resume fail at once with one line naming it, rather than
// block forever opening it; the checkpoint stays as it was.
func TestJournalThatIsNoFileStopsResume(t *testing.T) {
	dir := t.TempDir()
	startText(t, smallConfig, Options{Dir: dir, Generations: 1})
	before := readRun(t, dir)
	path := filepath.Join(dir, rundir.JournalFile)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Resume(context.Background(), Options{Dir: dir, Generations: 2})
		done <- err
	}()
	err := <-done // a hang fails the test by its timeout
	if err == nil || !strings.Contains(err.Error(), rundir.JournalFile+": not a regular file (FIFO)") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("resume over a FIFO journal: %v; want one line saying it is not a regular file", err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	sameRun(t, before, readRun(t, dir), "a resume refused for its journal")
}
