package engine

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/internal/spsa"
	"github.com/evotune/evotune/rundir"
)

// finishedRun runs crashConfig to its end in a fresh directory.
func finishedRun(t *testing.T) string { return runTo(t, crashConfig) }

// runTo runs config text to its end in a fresh directory.
func runTo(t *testing.T, text string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestInspectReadsAFinishedRun: what Inspect reads is the checkpoint, its
// views drawn from it, with no lock held and nothing written.
func TestInspectReadsAFinishedRun(t *testing.T) {
	dir := finishedRun(t)
	before := readDir(t, dir)
	ins, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := ReadCheckpoint(dir)
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
	if len(ins.Views) != 1 || len(ins.Views[0].History) != 3 || len(ins.Views[0].Knobs) != ins.Config.Space().Len() {
		t.Fatalf("views: %d species, %d rows", len(ins.Views), len(ins.Views[0].History))
	}
	for k, knob := range ins.Views[0].Knobs {
		for g, v := range knob.Values {
			genes := want.History[g].BestGenes
			vals, err := ins.Config.Space().Decode(genes)
			if err != nil {
				t.Fatal(err)
			}
			gene := ins.Config.Space().Genes()[k]
			p, _ := ins.Config.Space().Params().Lookup(gene.Param)
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
	if _, err := Inspect(empty); !errors.Is(err, ErrNotRunDir) {
		t.Errorf("an empty directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(empty, rundir.ConfigFile), []byte(crashConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if ins, err := Inspect(empty); !errors.Is(err, ErrNoCheckpointYet) || ins.Header.Name != "crash" {
		t.Errorf("a run before its first checkpoint: %v, header %+v", err, ins.Header)
	}
	if _, err := Inspect(filepath.Join(empty, "absent")); !errors.Is(err, ErrNotRunDir) {
		t.Errorf("no directory: %v", err)
	}
}

// TestInspectStartsNoProgram: a run of an outside game is described from
// its checkpoint's record; its program does not start (its wrapper
// leaves a mark each time it does).
func TestInspectStartsNoProgram(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the Pig example")
	}
	pig, err := filepath.Abs(filepath.Join("..", "examples", "pig", "pig.py"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	marker := filepath.Join(work, "started")
	wrapper := filepath.Join(work, "pig.sh")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho x >> "+marker+"\nexec python3 "+pig+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := `name: pig
seed: 1
command: [` + wrapper + `]
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
`
	dir := filepath.Join(work, "run")
	cfg := loadText(t, work, config)
	if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	cfg.Close()
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	ins, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Inspect started the program: %v", err)
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
	var ck Checkpoint
	if err := json.Unmarshal(data, &ck); err != nil {
		t.Fatal(err)
	}
	// The checkpoint says the run used a player file the config names,
	// with a hash the file on disk does not have.
	ck.Config = strings.Replace(ck.Config, "  baselines:\n", "  baselines:\n    opponents: ['tuned:"+placer+"']\n", 1)
	ck.Files = map[string]string{"tuned:" + placer: strings.Repeat("0", 64)}
	out, err := ck.encode()
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

// TestModelSpreadReplaysTheRun: CMA-ES's spread is its model rebuilt
// from the run's checkpoint, one row a generation, starting at the step
// size the search starts with (0.15 in every gene); a model without one
// says so, and a replay past MaxReplay is refused. SPSA's follows its
// gain schedule.
func TestModelSpreadReplaysTheRun(t *testing.T) {
	text := strings.Replace(crashConfig, "  population: 4\n", "  model: cmaes\n  population: 12\n", 1)
	text = strings.Replace(text, "  elitism: 1\n", "", 1)
	text = strings.Replace(text, "  tournament-size: 2\n", "", 1)
	dir := runTo(t, text)
	ck, cfg, err := ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	sp, ok, err := cfg.ModelSpread(ck)
	if err != nil || !ok {
		t.Fatalf("spread of a CMA-ES run: %v, %v", ok, err)
	}
	if len(sp.RMS) != ck.Generation || len(sp.Min) != ck.Generation || len(sp.Max) != ck.Generation {
		t.Fatalf("%d, %d, %d rows for %d generations", len(sp.RMS), len(sp.Min), len(sp.Max), ck.Generation)
	}
	for g := range sp.RMS {
		if !(sp.Min[g] <= sp.RMS[g] && sp.RMS[g] <= sp.Max[g] && sp.Min[g] > 0) {
			t.Errorf("generation %d: min %v, rms %v, max %v", g+1, sp.Min[g], sp.RMS[g], sp.Max[g])
		}
	}
	if r := sp.RMS[0]; r < 0.1 || r > 0.2 {
		t.Errorf("the first generation's spread is %v, the search starts at %v", r, model.DefaultStepSize)
	}
	long := *ck
	dim := float64(cfg.Space().Len())
	long.Generation = int(MaxReplay/(dim*dim*float64(len(ck.Population)))) + 1
	if _, _, err := cfg.ModelSpread(&long); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("a replay of %d generations: %v", long.Generation, err)
	}
	other := finishedRun(t)
	ck2, cfg2, err := ReadCheckpoint(other)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg2.Close()
	if _, ok, err := cfg2.ModelSpread(ck2); ok || err != nil {
		t.Errorf("a generational run has a spread (%v, %v)", ok, err)
	}
	// SPSA's is c_k = c/(k+1)^gamma of each generation's first pair, c
	// = c_end * pairs^gamma: 2 iterations a generation of 6 pairs each,
	// 36 pairs planned over 3 generations, at the defaults.
	text = strings.Replace(crashConfig, "  population: 4\n", "  model: spsa\n  population: 4\n", 1)
	text = strings.Replace(text, "  elitism: 1\n", "", 1)
	text = strings.Replace(text, "  tournament-size: 2\n", "", 1)
	ck3, cfg3, err := ReadCheckpoint(runTo(t, text))
	if err != nil {
		t.Fatal(err)
	}
	defer cfg3.Close()
	sp, ok, err = cfg3.ModelSpread(ck3)
	if err != nil || !ok || len(sp.RMS) != ck3.Generation || ck3.Generation != 3 {
		t.Fatalf("spread of an SPSA run: %v, %v, %d rows for %d generations", ok, err, len(sp.RMS), ck3.Generation)
	}
	// SPSA's replay reads its state: a run as long as CMA-ES's refused one
	// is drawn (before, CMA-ES's bound refused it).
	long3 := *ck3
	dim3 := float64(cfg3.Space().Len())
	long3.Generation = int(MaxReplay/(dim3*dim3*float64(len(ck3.Population)))) + 1
	if _, ok, err := cfg3.ModelSpread(&long3); !ok || err != nil {
		t.Errorf("an SPSA replay of %d generations: %v, %v", long3.Generation, ok, err)
	}
	c := spsa.StockfishCEnd * math.Pow(36, spsa.DefaultGamma)
	for g := range sp.RMS {
		want := c / math.Pow(float64(12*g+1), spsa.DefaultGamma)
		for _, got := range []float64{sp.RMS[g], sp.Min[g], sp.Max[g]} {
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("SPSA generation %d: min %v, rms %v, max %v, want c_k %v", g+1, sp.Min[g], sp.RMS[g], sp.Max[g], want)
				break
			}
		}
	}
}
