package rundir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestIsRunFile: every file of Files, with the rivals' prefix too, is a run file once
// the directory holds a run (a lock file or a checkpoint), and no other
// name is.
func TestIsRunFile(t *testing.T) {
	empty, locked, checkpointed := t.TempDir(), t.TempDir(), t.TempDir()
	for dir, name := range map[string]string{locked: LockFile, checkpointed: CheckpointFile} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var own []string
	for _, f := range Files {
		own = append(own, f.Name, ForSpecies(Rivals, f.Name))
	}
	for _, name := range own {
		for _, dir := range []string{locked, checkpointed} {
			if !IsRunFile(filepath.Join(dir, name)) {
				t.Errorf("%s in a run directory: not a run file", name)
			}
		}
		if IsRunFile(filepath.Join(empty, name)) {
			t.Errorf("%s in a directory without a run: a run file", name)
		}
	}
	for _, name := range []string{"best-export.yaml", "notes.txt", "rivals-notes.txt", "checkpoint.json.bak", "rivals-rivals-best.yaml"} {
		if IsRunFile(filepath.Join(locked, name)) {
			t.Errorf("%s: a run file", name)
		}
	}
}

// TestResults: the files two runs of one config hold byte for byte are
// the config, the checkpoint and the derived files, the rivals' derived
// files too when there are rivals.
func TestResults(t *testing.T) {
	want := []string{ConfigFile, CheckpointFile, GenerationsFile, BestFile, ReportFile}
	if got := Results(false); !slices.Equal(got, want) {
		t.Errorf("Results(false) = %q, want %q", got, want)
	}
	want = append(want, "rivals-"+GenerationsFile, "rivals-"+BestFile, "rivals-"+ReportFile)
	if got := Results(true); !slices.Equal(got, want) {
		t.Errorf("Results(true) = %q, want %q", got, want)
	}
}

// TestOwnTemps: the temporary files of the atomic files, the rivals'
// too, are the directory's own; nothing else is.
func TestOwnTemps(t *testing.T) {
	for name, want := range map[string]bool{
		".checkpoint.json.tmp-123":      true,
		".rivals-best.yaml.tmp-9":       true,
		".games.journal.tmp-42":         true,
		".run.log.tmp-1":                false, // appended, never written whole
		".notes.txt.tmp-1":              false,
		"checkpoint.json.tmp-1":         false,
		".checkpoint.json.tmp-x":        false,
		".rivals-checkpoint.json.tmp-1": true,
	} {
		if got := isOwnTemp(name); got != want {
			t.Errorf("isOwnTemp(%q) = %v, want %v", name, got, want)
		}
	}
}
