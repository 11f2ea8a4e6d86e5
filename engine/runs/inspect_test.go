package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/rundir"
)

// TestInspectReadsAFinishedRun: what Inspect reads is the checkpoint, its
// views drawn from it, with no lock held and nothing written.
func TestInspectReadsAFinishedRun(t *testing.T) {
	dir := finishedRun(t)
	before := readDir(t, dir)
	ins, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := engine.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ins.Held {
		t.Errorf("a finished run is held by pid %d", ins.Holder)
	}
	if ins.Header.Name != "crash" || ins.Header.Game != "battleship" || ins.Header.Model != "generational" || ins.Header.Generations != 3 {
		t.Errorf("header %+v", ins.Header)
	}
	got, _ := json.Marshal(ins.Checkpoint)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Error("the inspected checkpoint is not the run's")
	}
	if len(ins.Views) != 1 || len(ins.Views[0].History) != 3 || len(ins.Views[0].Knobs) != ins.Setup.Space().Len() {
		t.Fatalf("views: %d species, %d rows", len(ins.Views), len(ins.Views[0].History))
	}
	for k, knob := range ins.Views[0].Knobs {
		for g, v := range knob.Values {
			genes := want.History[g].BestGenes
			vals, err := ins.Setup.Space().Decode(genes)
			if err != nil {
				t.Fatal(err)
			}
			gene := ins.Setup.Space().Genes()[k]
			p, _ := ins.Setup.Space().Params().Lookup(gene.Param)
			if p.Kind.String() == "float" && v != vals.Float(gene.Param) {
				t.Errorf("knob %s, generation %d: %v, the checkpoint's best has %v", knob.Name, g+1, v, vals.Float(gene.Param))
			}
		}
	}
	if after := readDir(t, dir); !mapsEqual(before, after) {
		t.Error("Inspect changed the run directory")
	}
}

func mapsEqual(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if string(b[k]) != string(v) {
			return false
		}
	}
	return true
}

// TestInspectNamesTheHolder: a directory whose lock a process holds is
// held by that process, and the probe takes no lock of its own (the
// holder's lock stays exclusive).
func TestInspectNamesTheHolder(t *testing.T) {
	dir := finishedRun(t)
	lock, err := rundir.LockRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ins, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !ins.Held || ins.Holder != os.Getpid() {
		t.Errorf("held %v by %d, want held by this process (%d)", ins.Held, ins.Holder, os.Getpid())
	}
	lock.Close()
	if ins, _ := Inspect(dir); ins.Held {
		t.Errorf("released, and still held by %d", ins.Holder)
	}
}

// TestInspectRefusesDamage: a garbage, half-written, oversized-looking or
// linked checkpoint is an error naming the file, never a panic, and the
// inspection still says what it could.
func TestInspectRefusesDamage(t *testing.T) {
	good := finishedRun(t)
	data, err := os.ReadFile(filepath.Join(good, rundir.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(outside, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		write func(path string) error
		want  string
	}{
		{"garbage", func(p string) error { return os.WriteFile(p, []byte("\x00\x01garbage"), 0o644) }, "corrupt checkpoint"},
		{"half written", func(p string) error { return os.WriteFile(p, data[:len(data)/2], 0o644) }, "corrupt checkpoint"},
		{"empty object", func(p string) error { return os.WriteFile(p, []byte("{}"), 0o644) }, "format: missing"},
		{"a genome out of its space", func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(string(data), `"genes": [`+"\n", `"genes": [`+"\n    7,\n", 1)), 0o644)
		}, "genes"},
		{"a link out of the directory", func(p string) error { return os.Symlink(outside, p) }, "symbolic link"},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, rundir.ConfigFile), []byte(crashConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.write(filepath.Join(dir, rundir.CheckpointFile)); err != nil {
				t.Fatal(err)
			}
			ins, err := Inspect(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one saying %q", err, tc.want)
			}
			if ins == nil || ins.Views != nil {
				t.Fatalf("inspection %+v", ins)
			}
		})
	}
	empty := t.TempDir()
	if _, err := Inspect(empty); !errors.Is(err, engine.ErrNotRunDir) {
		t.Errorf("an empty directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(empty, rundir.ConfigFile), []byte(crashConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if ins, err := Inspect(empty); !errors.Is(err, ErrNoCheckpointYet) || ins.Header.Name != "crash" {
		t.Errorf("a run before its first checkpoint: %v, header %+v", err, ins.Header)
	}
	if _, err := Inspect(filepath.Join(empty, "absent")); !errors.Is(err, engine.ErrNotRunDir) {
		t.Errorf("no directory: %v", err)
	}
}

// pigRuns runs the Pig example, through a wrapper that appends a line
// to the file it returns each time the program starts, in seeded runs
// to their end, and returns their directories.
func pigRuns(t *testing.T, seeds ...int) (dirs []string, started string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the Pig example")
	}
	pig, err := filepath.Abs(filepath.Join("..", "..", "examples", "pig", "pig.py"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	started = filepath.Join(work, "started")
	wrapper := filepath.Join(work, "pig.sh")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho x >> "+started+"\nexec python3 "+pig+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, seed := range seeds {
		config := fmt.Sprintf(`name: pig
seed: %d
command: [%s]
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [hold20]
    games: 4
evolution:
  population: 4
  generations: 2
  tournament-size: 2
  elitism: 1
remeasure: {top: 1, games: 4}
`, seed, wrapper)
		dirs = append(dirs, runIn(t, work, config))
	}
	return dirs, started
}

// starts counts the lines of the file a wrapped program appends to each
// time it starts.
func starts(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestReadersStartNoProgram: every reader of a run of an outside game
// (Inspect, engine.ReadRun and Summarize, Export) describes it from its
// checkpoint's record: the program does not start. Compare plays games,
// which takes the program's processes, but describes every run from its
// record: at one worker it starts the program once, where it started it
// once more for each run it read before.
func TestReadersStartNoProgram(t *testing.T) {
	dirs, started := pigRuns(t, 1, 2)
	dir := dirs[0]
	before := starts(t, started)
	if before == 0 {
		t.Fatal("the wrapper left no mark: the test cannot see a start")
	}
	ins, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range ins.Views[0].Knobs {
		names = append(names, k.Name)
	}
	if !slices.Equal(names, []string{"hold", "chase", "desperation", "finish"}) {
		t.Errorf("knobs %v", names)
	}
	if ins.Header.Game != "pig" || ins.Views[0].Measure != "score" {
		t.Errorf("header %+v, measure %s", ins.Header, ins.Views[0].Measure)
	}
	ck, s, err := engine.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(dir, ck, s, 2); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, f := range []Format{YAML, JSON} {
		if _, _, err := Export(dir, 2, f, false); err != nil {
			t.Fatal(err)
		}
	}
	if n := starts(t, started); n != before {
		t.Fatalf("the readers started the program %d times", n-before)
	}
	if _, err := Compare(context.Background(), dirs, CompareOptions{Games: 4, Seed: 3, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if n := starts(t, started) - before; n != 1 {
		t.Errorf("compare of 2 runs at one worker started the program %d times, want once, to play", n)
	}
}

// TestInspectRefusesChangedPlayerFiles: a player file the config names is
// read only if it is the one the run recorded; the message says nothing
// of the file's contents.
func TestInspectRefusesChangedPlayerFiles(t *testing.T) {
	work := t.TempDir()
	placer := filepath.Join(work, "placer.yaml")
	if err := os.WriteFile(placer, []byte("secret contents\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := finishedRun(t)
	path := filepath.Join(dir, rundir.CheckpointFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ck engine.Checkpoint
	if err := json.Unmarshal(data, &ck); err != nil {
		t.Fatal(err)
	}
	// The checkpoint says the run used a player file the config names,
	// with a hash the file on disk does not have.
	ck.Config = strings.Replace(ck.Config, "  baselines:\n", "  baselines:\n    opponents: ['tuned:"+placer+"']\n", 1)
	ck.Files = map[string]string{"tuned:" + placer: strings.Repeat("0", 64)}
	out, err := json.Marshal(ck)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Inspect(dir)
	if err == nil || !strings.Contains(err.Error(), "is not the file the run was started with") {
		t.Fatalf("err %v", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the message shows the file's contents: %v", err)
	}
}
