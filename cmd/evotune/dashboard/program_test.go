package dashboard

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPagesStartNoProgram: the dashboard's pages of runs of an outside
// game (the list, a run's page and its fragment, a comparison) describe
// them from their checkpoints' records: the program, whose wrapper
// appends a line to a file each time it starts, does not start.
func TestPagesStartNoProgram(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the Pig example")
	}
	pig, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "pig", "pig.py"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	started := filepath.Join(work, "started")
	wrapper := filepath.Join(work, "pig.sh")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho x >> "+started+"\nexec python3 "+pig+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := t.TempDir()
	for _, name := range []string{"a", "b"} {
		finishedRun(t, runs, name, fmt.Sprintf(`seed: %d
command: [%s]
player: tuned
fitness:
  objective: score
  baselines: {opponents: [hold20], games: 4}
evolution: {population: 4, generations: 2, tournament-size: 2, elitism: 1}
remeasure: {top: 1, games: 4}
`, len(name)+int(name[0]), wrapper))
	}
	count := func() int {
		data, err := os.ReadFile(started)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return strings.Count(string(data), "\n")
	}
	before := count()
	if before == 0 {
		t.Fatal("the wrapper left no mark: the test cannot see a start")
	}
	ts, _ := serve(t, "", runs)
	for _, tc := range []struct{ path, says string }{
		{"/", "pig"}, {"/run?r=0/a", "model generational"}, {"/fragment/run?r=0/a", "hall of fame"}, {"/compare?r=0/a&r=0/b", "curves on one axis"},
	} {
		status, body := get(t, ts, tc.path)
		if status != 200 || !strings.Contains(body, tc.says) {
			t.Fatalf("%s: %d, want a page saying %q:\n%s", tc.path, status, tc.says, head(body))
		}
	}
	if n := count(); n != before {
		t.Errorf("the dashboard started the program %d times", n-before)
	}
}
