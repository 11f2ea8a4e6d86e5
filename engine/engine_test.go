package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

// smallConfig is a run of a few seconds that exercises seeds, elitism,
// crossover and mutation.
const smallConfig = `name: small
seed: 7
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 24
evolution:
  population: 8
  generations: 4
  tournament-size: 2
  elitism: 1
`

func loadText(t testing.TB, dir, text string) *Setup {
	t.Helper()
	file := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startText runs the config text to its end with opts.
func startText(t testing.TB, text string, opts Options) {
	t.Helper()
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), opts); err != nil {
		t.Fatal(err)
	}
}

// runText runs the config text to its end with opts and returns the
// checkpoint it left in opts.Dir.
func runText(t testing.TB, text string, opts Options) *Checkpoint {
	t.Helper()
	startText(t, text, opts)
	ck, _, err := ReadRun(opts.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return ck
}

func readRun(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	return readFilesAndExport(t, dir, false)
}

// readFilesAndExport reads the result files of a run directory and its
// top-3 export (of the rivals', and their files too, if asked).
func readFilesAndExport(t testing.TB, dir string, rivals bool) map[string][]byte {
	t.Helper()
	return withExport(t, dir, rundirtest.Read(t, dir, rivals), rivals)
}

// withExport adds the run's top-3 export to files, as "export".
func withExport(t testing.TB, dir string, files map[string][]byte, rivals bool) map[string][]byte {
	t.Helper()
	ck, s, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	file, _ := s.ParamsFile(ck, rivals, 3)
	exp, err := file.JSON()
	if err != nil {
		t.Fatal(err)
	}
	files["export"] = exp // what evotune export --top 3 --format json writes
	return files
}

func sameRun(t testing.TB, a, b map[string][]byte, what string) {
	t.Helper()
	rundirtest.Same(t, a, b, what)
}

func TestRunIndependentOfWorkers(t *testing.T) {
	var runs []map[string][]byte
	for _, w := range []int{1, 2} {
		dir := t.TempDir()
		// Configs in different places: nothing of the path may leak in.
		cfg := loadText(t, t.TempDir(), smallConfig)
		if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: w}); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, readRun(t, dir))
	}
	sameRun(t, runs[0], runs[1], "workers 1 vs 2")
}

func TestResumeMatchesStraightRun(t *testing.T) {
	straight := t.TempDir()
	cfgDir := t.TempDir()
	cfg := loadText(t, cfgDir, smallConfig)
	if _, err := Start(context.Background(), cfg, Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := readRun(t, straight)
	for _, stopAfter := range []int{1, 2, 3} {
		t.Run("stop after "+string(rune('0'+stopAfter)), func(t *testing.T) {
			dir := t.TempDir()
			stop := make(chan struct{})
			p := &stopAt{after: stopAfter, stop: stop}
			res, err := Start(context.Background(), loadText(t, cfgDir, smallConfig), Options{Dir: dir, Workers: 1, Stop: stop, Progress: p})
			if !errors.Is(err, ErrStopped) || res.Generation != stopAfter {
				t.Fatalf("stopped run: %v at %+v", err, res)
			}
			if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			sameRun(t, want, readRun(t, dir), "resumed")
		})
	}
}

// stopAt closes stop when generation after ends; with cancel, it
// cancels the run as the next generation starts instead.
type stopAt struct {
	after  int
	stop   chan struct{}
	cancel func()
}

func (s *stopAt) StartGeneration(gen, _, _ int) {
	if s.cancel != nil && gen == s.after {
		s.cancel()
	}
}
func (s *stopAt) Games(int) {}
func (s *stopAt) EndGeneration(gen int, _ GenStats, _ Member) {
	if gen+1 == s.after && s.cancel == nil {
		close(s.stop)
	}
}

// TestResumeKeepsTheBudgetItWasGiven: a run given its own budget
// (--generations) and stopped resumes to that budget without being told
// it again, as a straight run of that budget; a budget given to the
// resume, or the config's edited since, wins. Before, a resume without
// --generations ran to the config's budget.
func TestResumeKeepsTheBudgetItWasGiven(t *testing.T) {
	cfgDir := t.TempDir()
	straight := func(generations int) map[string][]byte {
		dir := t.TempDir()
		if _, err := Start(context.Background(), loadText(t, cfgDir, smallConfig), Options{Dir: dir, Workers: 2, Generations: generations}); err != nil {
			t.Fatal(err)
		}
		return readRun(t, dir)
	}
	for _, tc := range []struct {
		name       string
		resume     int    // the resume's --generations
		editConfig string // the config's budget edited to this
		want       int
	}{
		{"no budget given to the resume", 0, "", 2},
		{"a budget given to the resume", 3, "", 3},
		{"the config's budget edited", 0, "3", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			stop := make(chan struct{})
			_, err := Start(context.Background(), loadText(t, cfgDir, smallConfig), Options{Dir: dir, Workers: 2, Generations: 2,
				Stop: stop, Progress: &stopAt{after: 1, stop: stop}})
			if !errors.Is(err, ErrStopped) {
				t.Fatalf("err %v, want the run stopped", err)
			}
			if tc.editConfig != "" {
				path := filepath.Join(dir, rundir.ConfigFile)
				text, _ := os.ReadFile(path)
				if err := os.WriteFile(path, bytes.Replace(text, []byte("generations: 4"), []byte("generations: "+tc.editConfig), 1), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Resume(context.Background(), Options{Dir: dir, Workers: 2, Generations: tc.resume})
			if err != nil {
				t.Fatal(err)
			}
			if res.Generation != tc.want {
				t.Fatalf("resumed to generation %d, want %d", res.Generation, tc.want)
			}
			got := readRun(t, dir)
			delete(got, rundir.ConfigFile)
			want := straight(tc.want)
			delete(want, rundir.ConfigFile)
			if tc.want == 2 {
				sameRun(t, want, got, "stopped and resumed to the budget it was given")
			} else if !bytes.Equal(want[rundir.GenerationsFile], got[rundir.GenerationsFile]) {
				t.Errorf("generations.csv differs from a straight run of %d", tc.want)
			}
		})
	}
}

// TestResultSaysHowToResume: a run stopped or cancelled with a budget of
// its own (--generations) returns where it stopped and both budgets, so
// the advice to resume keeps the budget: a resume without --generations
// ran on to the config's.
func TestResultSaysHowToResume(t *testing.T) {
	cfgDir := t.TempDir()
	tests := []struct {
		name                string
		generations, stopAt int
		cancel              bool
		wantGen, wantBudget int
		wantConfig          string
	}{
		{"stopped, budget given", 3, 1, false, 1, 3, "4"},
		{"stopped, the config's budget", 0, 2, false, 2, 4, "4"},
		{"stopped, the config's budget given", 4, 1, false, 1, 4, "4"},
		{"cancelled, budget given", 2, 1, true, 1, 2, "4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			stop := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := &stopAt{after: tc.stopAt, stop: stop}
			if tc.cancel {
				p.cancel = cancel
			}
			res, err := Start(ctx, loadText(t, cfgDir, smallConfig), Options{Dir: dir, Workers: 1, Generations: tc.generations, Stop: stop, Progress: p})
			if tc.cancel != errors.Is(err, context.Canceled) || !tc.cancel && !errors.Is(err, ErrStopped) {
				t.Fatalf("err %v", err)
			}
			if res == nil || res.Generation != tc.wantGen || res.Budget != tc.wantBudget || strconv.Itoa(res.ConfigBudget) != tc.wantConfig || res.Dir != dir {
				t.Fatalf("result %+v, want generation %d of %d, config's %s, in %s", res, tc.wantGen, tc.wantBudget, tc.wantConfig, dir)
			}
			// A run started again is refused; the CLI says how to resume it
			// (its TestRunAgainSaysHowToResume).
			_, err = Start(context.Background(), loadText(t, cfgDir, smallConfig), Options{Dir: dir, Generations: tc.generations})
			if !errors.Is(err, ErrRunExists) || err.Error() != dir+" already holds a run" {
				t.Fatalf("run again: %v, want %s already holds a run", err, dir)
			}
		})
	}
}

func TestResumeRaisesBudgetAndRefusesEdits(t *testing.T) {
	dir := t.TempDir()
	cfg := loadText(t, t.TempDir(), smallConfig)
	if _, err := Start(context.Background(), cfg, Options{Dir: dir, Generations: 2}); err != nil {
		t.Fatal(err)
	}
	res, err := Resume(context.Background(), Options{Dir: dir, Generations: 3})
	if err != nil || res.Generation != 3 {
		t.Fatalf("raised budget: %v, %+v", err, res)
	}
	// Editing a result-changing key is refused, naming it.
	path := filepath.Join(dir, rundir.ConfigFile)
	text, _ := os.ReadFile(path)
	edited := strings.Replace(string(text), "population: 8", "population: 9", 1)
	edited = strings.Replace(edited, "seed: 7", "seed: 8", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	_, err = Resume(context.Background(), Options{Dir: dir, Generations: 4})
	if err == nil || !strings.Contains(err.Error(), "evolution.population, seed") {
		t.Fatalf("edited config: %v", err)
	}
	if after := snapshot(t, dir); !equalSnap(before, after) {
		t.Fatal("a refused resume changed files")
	}
	// Raising the budget inside the file is fine.
	raised := strings.Replace(string(text), "generations: 4", "generations: 4\n  # more later", 1)
	if err := os.WriteFile(path, []byte(raised), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
}

func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		// run.log included: a refused resume must not even log.
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(data)
	}
	return out
}

func equalSnap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestBrokenRunDirectories(t *testing.T) {
	good := t.TempDir()
	startText(t, smallConfig, Options{Dir: good, Generations: 1})
	ck, _ := os.ReadFile(filepath.Join(good, rundir.CheckpointFile))
	other := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), strings.Replace(smallConfig, "seed: 7", "seed: 8", 1)),
		Options{Dir: other, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	otherCk, _ := os.ReadFile(filepath.Join(other, rundir.CheckpointFile))
	// edit rewrites the checkpoint with a change.
	edit := func(change func(*Checkpoint)) func(dir string) {
		return func(dir string) {
			var c Checkpoint
			if err := json.Unmarshal(ck, &c); err != nil {
				t.Fatal(err)
			}
			change(&c)
			data, err := c.encode()
			if err != nil {
				t.Fatal(err)
			}
			write(t, dir, rundir.CheckpointFile, data)
		}
	}
	// memberEdit replaces the first match of pattern (the first member's
	// field) with field.
	memberEdit := func(pattern, field string) func(dir string) {
		return func(dir string) {
			loc := regexp.MustCompile(pattern).FindIndex(ck)
			if loc == nil {
				t.Fatalf("no %s in the checkpoint", pattern)
			}
			write(t, dir, rundir.CheckpointFile, slices.Concat(ck[:loc[0]], []byte(field), ck[loc[1]:]))
		}
	}
	tests := []struct {
		name  string
		setup func(dir string)
		want  string
	}{
		{"truncated", func(dir string) { write(t, dir, rundir.CheckpointFile, ck[:len(ck)/2]) }, "corrupt checkpoint"},
		{"garbage", func(dir string) { write(t, dir, rundir.CheckpointFile, []byte("\x00\x01not json")) }, "corrupt checkpoint"},
		{"empty", func(dir string) { write(t, dir, rundir.CheckpointFile, nil) }, "corrupt checkpoint"},
		{"another config's checkpoint", func(dir string) { write(t, dir, rundir.CheckpointFile, otherCk) }, "edited in ways that change results (seed)"},
		{"not a run directory", func(dir string) { os.Remove(filepath.Join(dir, rundir.CheckpointFile)) }, "not a run directory"},
		{"genes out of range", func(dir string) {
			write(t, dir, rundir.CheckpointFile, bytes.Replace(ck, []byte(`"genes": [`), []byte(`"genes": [7, `), 1))
		}, "corrupt checkpoint"},
		{"null fitness", func(dir string) {
			write(t, dir, rundir.CheckpointFile, bytes.Replace(ck, []byte(`"fitness": `), []byte(`"fitness": null, "x": `), 1))
		}, "corrupt checkpoint"},
		{"future format", func(dir string) {
			write(t, dir, rundir.CheckpointFile, bytes.Replace(ck, []byte(`"format": 1`), []byte(`"format": 9`), 1))
		}, "checkpoint format 9"},
		{"config hash of another config", edit(func(c *Checkpoint) { c.ConfigHash = "0" + c.ConfigHash[1:] }),
			"config hash does not match its config"},
		{"generation 0", edit(func(c *Checkpoint) { c.Generation, c.History = 0, nil }), "generation: 0"},
		{"a history row missing", edit(func(c *Checkpoint) { c.History = c.History[:0] }), "history: 0 rows for 1 generation"},
		{"a history row too many", edit(func(c *Checkpoint) { c.History = append(c.History, c.History...) }), "history: 2 rows for 1 generation"},
		{"empty hall of fame", edit(func(c *Checkpoint) { c.HallOfFame = []Member{} }), "hall_of_fame: empty"},
		{"a member missing", edit(func(c *Checkpoint) { c.Population = c.Population[1:] }), "7 members, the config breeds 8"},
		{"a member too many", edit(func(c *Checkpoint) { c.Population = append(c.Population, c.Population[0]) }), "9 members, the config breeds 8"},
		{"rivals in a run without them", edit(func(c *Checkpoint) { c.Rivals = &c.SpeciesState }), "2 species, the config evolves 1"},
		{"hall of fame genes out of range", edit(func(c *Checkpoint) { c.HallOfFame[0].Genes = []float64{99} }), "corrupt checkpoint: hall_of_fame[0].genes"},
		{"member without games", memberEdit(`"games": \d+`, `"games": 0`), "member with games 0"},
		{"member from generation -1", memberEdit(`"generation": 0`, `"generation": -1`), "member with generation -1"},
		{"member without a ci95", memberEdit(`"ci95": \[[^]]*\]`, `"ci95": null`), "member without ci95"},
		{"member with an unknown field", memberEdit(`"games": `, `"luck": 1, "games": `), `holds field "luck", which this evotune does not know`},
		{"not a run directory yet", func(dir string) { os.Remove(filepath.Join(dir, rundir.CheckpointFile)) }, "not a run directory yet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range snapshot(t, good) {
				write(t, dir, name, []byte(data))
			}
			tc.setup(dir)
			before := snapshot(t, dir)
			_, err := Resume(context.Background(), Options{Dir: dir, Generations: 3})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if after := snapshot(t, dir); !equalSnap(before, after) {
				t.Fatal("a failed resume changed files")
			}
			if _, _, err := ReadRun(dir); err == nil && tc.name != "another config's checkpoint" {
				t.Fatal("a reader read a broken run directory")
			}
		})
	}
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), smallConfig), Options{Dir: good}); !errors.Is(err, ErrRunExists) {
		t.Fatalf("starting over an existing run: %v", err)
	}
}

// wantError fails t unless err is nil where want is "" and otherwise
// holds want; it reports whether the call succeeded, so a test goes on
// to check the result only then.
func wantError(t *testing.T, err error, want string) bool {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return true
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	return false
}

func write(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

const coevolveConfig = `name: coevolve
seed: 5
game: battleship
player: tuned
coevolve:
  player: tuned
  opponents: [over9000]
fitness:
  baselines: {games: 8}
  population: {opponents: 2, games: 6}
  hall-of-fame: {members: 2, games: 4}
evolution:
  population: 6
  generations: 3
  tournament-size: 2
  elitism: 1
  hall-of-fame: 4
`

// TestCoevolutionResumesExactly holds a co-evolving run to the same
// contracts: identical at any worker count and after a stop and resume,
// for both species' files.
func TestCoevolutionResumesExactly(t *testing.T) {
	read := func(dir string) map[string][]byte { return readFilesAndExport(t, dir, true) }
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, coevolveConfig), Options{Dir: straight, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	want := read(straight)
	if !bytes.Contains(want["export"], []byte(`"player": "tuned"`)) || !bytes.Contains(want[rundir.CheckpointFile], []byte(`"rivals"`)) {
		t.Fatalf("no rivals in the run:\n%s", want["export"])
	}
	dir := t.TempDir()
	stop := make(chan struct{})
	if _, err := Start(context.Background(), loadText(t, cfgDir, coevolveConfig),
		Options{Dir: dir, Workers: 2, Stop: stop, Progress: &stopAt{after: 1, stop: stop}}); !errors.Is(err, ErrStopped) {
		t.Fatalf("stop: %v", err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, want, read(dir), "co-evolution, stopped, resumed at 2 workers")
	// Each species' picture says whose it is and which way is better.
	for file, says := range map[string][]string{
		rundir.ReportFile:             {">coevolve: shots per generation<", ">shots (lower is better)<"},
		"rivals-" + rundir.ReportFile: {">coevolve rivals: shots per generation<", ">shots (higher is better)<"},
	} {
		for _, s := range says {
			if !bytes.Contains(want[file], []byte(s)) {
				t.Errorf("%s does not say %q", file, s)
			}
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	for g := 1; g <= 3; g++ {
		for _, label := range []string{": best", " (rivals): best"} {
			if n := strings.Count(string(log), fmt.Sprintf("generation %d/3%s", g, label)); n != 1 {
				t.Errorf("run.log has %d lines for generation %d%s, want 1:\n%s", n, g, label, log)
			}
		}
	}
}

func TestHallOfFamePoolsAGenomeOncePerGeneration(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	r := newRunner(cfg, Options{Dir: t.TempDir()})
	sp := cfg.species[0]
	a := Member{Genes: []float64{0.1}, Figure: fitness.Figure{Fitness: 40, Games: 100, CI95: [2]float64{39, 41}}}
	b := Member{Genes: []float64{0.2}, Figure: fitness.Figure{Fitness: 50, Games: 100, CI95: [2]float64{49, 51}}}
	hof := r.updateHallOfFame(sp, nil, []Member{a, b, a}) // a twice in one generation
	if len(hof) != 2 || hof[0].Games != 100 {
		t.Fatalf("duplicates in one generation merged: %+v", hof)
	}
	a2 := a
	a2.Fitness, a2.Generation = 42, 1
	hof = r.updateHallOfFame(sp, hof, []Member{a2, a2})
	if hof[0].Games != 200 || hof[0].Fitness != 41 || hof[0].Generation != 0 {
		t.Fatalf("re-evaluation in a later generation: %+v, want 200 games at fitness 41 from generation 0", hof[0])
	}
	if half := (hof[0].CI95[1] - hof[0].CI95[0]) / 2; math.Abs(half-math.Sqrt(0.5)) > 1e-12 {
		t.Fatalf("merged half-width %v, want sqrt(1/2)", half)
	}
}

func TestOpponentFilesAreProtected(t *testing.T) {
	cfgDir := t.TempDir()
	champ := filepath.Join(cfgDir, "champ.yaml")
	write(t, cfgDir, "champ.yaml", []byte("jitter: 0.02\n"))
	text := strings.Replace(smallConfig, "fitness:\n  baselines:\n    games: 24\n",
		"fitness:\n  objective: score\n  baselines:\n    games: 4\n    opponents: [\"tuned:champ.yaml\", over9000]\n", 1)
	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{rundir.CheckpointFile, rundir.BestFile, rundir.GenerationsFile, rundir.ReportFile, rundir.ConfigFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Mode().Perm() != 0o644 {
			t.Fatalf("%s: %v, mode %v; want 0644", f, err, st.Mode().Perm())
		}
	}
	write(t, cfgDir, "champ.yaml", []byte("jitter: 0.03\n"))
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 2}); !errors.Is(err, ErrConfigChanged) ||
		!strings.Contains(err.Error(), "file tuned:champ.yaml") {
		t.Fatalf("resume after the opponent's file changed: %v", err)
	}
	os.Remove(champ)
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 2}); err == nil || !strings.Contains(err.Error(), "champ.yaml") {
		t.Fatalf("resume without the opponent's file: %v", err)
	}
}

// TestNotRunDirectories: resume and export name what is missing, and
// every path that is no run directory wraps ErrNotRunDir (the CLI's exit 2).
func TestNotRunDirectories(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"missing", filepath.Join(empty, "nope"), filepath.Join(empty, "nope") + ": not a run directory: no such file or directory"},
		{"empty", empty, empty + ": not a run directory: no checkpoint.json"},
		{"a file", file, file + ": not a run directory: not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Resume(context.Background(), Options{Dir: tc.dir})
			if err == nil || err.Error() != tc.want || !errors.Is(err, ErrNotRunDir) {
				t.Errorf("resume: %v, want %q wrapping ErrNotRunDir", err, tc.want)
			}
			_, _, err = ReadRun(tc.dir)
			if err == nil || err.Error() != tc.want || !errors.Is(err, ErrNotRunDir) {
				t.Errorf("ReadRun: %v, want %q wrapping ErrNotRunDir", err, tc.want)
			}
		})
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("a failed resume wrote %d files", len(entries))
	}
}

// TestRunDirectoryErrors: a run directory that cannot be made, and a run
// whose config.yaml is gone or no longer parses, are errors naming the
// file; nothing changes.
func TestRunDirectoryErrors(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	write(t, filepath.Dir(blocker), "file", []byte("x"))
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), crashConfig), Options{Dir: filepath.Join(blocker, "run")}); err == nil ||
		!strings.Contains(err.Error(), "cannot make the run directory "+filepath.Join(blocker, "run")) {
		t.Errorf("run under a file: %v", err)
	}
	dir := t.TempDir()
	startText(t, crashConfig, Options{Dir: dir, Generations: 1})
	cfgPath := filepath.Join(dir, rundir.ConfigFile)
	text, _ := os.ReadFile(cfgPath)
	os.Remove(cfgPath)
	before := snapshot(t, dir)
	if _, err := Resume(context.Background(), Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), cfgPath+": no such file") {
		t.Errorf("resume without config.yaml: %v", err)
	}
	if !equalSnap(before, snapshot(t, dir)) {
		t.Error("a failed resume changed files")
	}
	write(t, dir, rundir.ConfigFile, append(text, "colour: blue\n"...))
	before = snapshot(t, dir)
	var ce config.Errors
	if _, err := Resume(context.Background(), Options{Dir: dir}); !errors.As(err, &ce) || !strings.Contains(err.Error(), cfgPath+":") {
		t.Errorf("resume with a broken config.yaml: %v", err)
	}
	if !equalSnap(before, snapshot(t, dir)) {
		t.Error("a failed resume changed files")
	}
}

// TestRunLogErrorsNameIt: a run.log that cannot be appended to was
// reported as "engine: is a directory", without saying which file.
func TestRunLogErrorsNameIt(t *testing.T) {
	tests := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }, ": is a directory"},
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, ": not a regular file"},
		{"symbolic link", func(p string) error { return os.Symlink(filepath.Join(filepath.Dir(p), "elsewhere"), p) }, " is a symbolic link"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, rundir.LockFile, nil) // a run killed before its first checkpoint
			path := filepath.Join(dir, rundir.LogFile)
			if err := tc.make(path); err != nil {
				t.Fatal(err)
			}
			_, err := Start(context.Background(), loadText(t, t.TempDir(), smallConfig), Options{Dir: dir, Workers: 1})
			if err == nil || !strings.Contains(err.Error(), path+tc.want) {
				t.Fatalf("%v, want it to name %s", err, path)
			}
		})
	}
}

// TestRuleFilesAreProtected: a rule option that names a player file
// (Battleship's placer) finds it beside the config, as a baseline's is
// found, wherever evotune runs from; and the file is part of the
// config: resume refuses it changed or gone, naming it.
func TestRuleFilesAreProtected(t *testing.T) {
	cfgDir := t.TempDir()
	write(t, cfgDir, "placer.yaml", []byte("temperature: 2\n"))
	text := strings.Replace(smallConfig, "seeds:", "rules: {placer: 'tuned:placer.yaml'}\nseeds:", 1)
	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	write(t, cfgDir, "placer.yaml", []byte("temperature: 3\n"))
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 2}); !errors.Is(err, ErrConfigChanged) ||
		!strings.Contains(err.Error(), "file tuned:placer.yaml") {
		t.Fatalf("resume after the placer's file changed: %v", err)
	}
	os.Remove(filepath.Join(cfgDir, "placer.yaml"))
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 2}); err == nil || !strings.Contains(err.Error(), "placer.yaml") {
		t.Fatalf("resume without the placer's file: %v", err)
	}
}
