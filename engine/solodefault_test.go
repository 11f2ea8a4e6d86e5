package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/rundir"
)

// TestSoloDefaultModel: a config that names no model runs bayes on a
// solo measure when it writes no other model's or breeding keys and
// bayes can run it, whatever its budget; otherwise generational, as
// before. validate's summary says which and why, in a line of its own,
// only on a solo measure whose config names no model.
func TestSoloDefaultModel(t *testing.T) {
	const solo = "game: battleship\nplayer: tuned\n"
	const score = "game: mnk\nplayer: tuned\nfitness: {objective: score, baselines: {opponents: [random], games: 2}}\n"
	tests := []struct {
		name, text, model string
		why               string // what the summary's model line holds; "" for none
	}{
		{"solo, nothing written", solo, "bayes", "model: bayes, a solo measure's default (generational for others)"},
		{"solo, a budget", solo + "evolution: {population: 10, generations: 200}\n", "bayes", "a solo measure's default"},
		{"solo, bayes's own key", solo + "evolution: {bayes-bound: 1}\n", "bayes", "a solo measure's default"},
		{"solo, named", solo + "evolution: {model: generational}\n", "generational", ""},
		{"solo, named bayes", solo + "evolution: {model: bayes}\n", "bayes", ""},
		{"solo, elitism", solo + "evolution: {elitism: 3}\n", "generational", "evolution.elitism is generational's"},
		{"solo, natural-selection's key", solo + "evolution: {keep: 3}\n", "generational", "evolution.keep is natural-selection's"},
		{"solo, a breeding key", solo + "evolution: {crossover-rate: 0.5}\n", "generational", "evolution.crossover-rate breeds"},
		{"solo, racing", solo + "racing: {}\n", "generational", "cannot run this config (racing: model bayes needs every genome's whole figure"},
		{"solo, too many genes", solo + "space: {weights: {symmetry: full}}\n", "generational", "models at most 20 genes"},
		{"score", score, "generational", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parse("c.yaml", []byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			defer cfg.Close()
			if got := cfg.cfg.Evolution.Model.Name; got != tc.model {
				t.Errorf("model %s, want %s", got, tc.model)
			}
			line := ""
			for _, l := range strings.Split(cfg.Summary(), "\n") {
				if strings.HasPrefix(l, "  model: ") {
					line = l
				}
			}
			if tc.why == "" && line != "" || !strings.Contains(line, tc.why) {
				t.Errorf("the summary's model line %q, want one holding %q", line, tc.why)
			}
		})
	}
	// bayes's own key written is bayes's to check, not a reason for
	// another model.
	_, err := parse("c.yaml", []byte(solo+"evolution: {bayes-initial: 5000}\n"))
	if err == nil || !strings.Contains(err.Error(), "evolution.bayes-initial: 5000: want from 1 to 2000 random genomes") {
		t.Errorf("bayes-initial 5000: %v", err)
	}
	// More than bayes models is refused, saying how to run it, not run
	// with another model: a resume with a larger budget keeps its model.
	_, err = parse("c.yaml", []byte(solo+"evolution: {population: 24, generations: 100}\n"))
	if err == nil || !strings.Contains(err.Error(), "2400 points, more than the 2000 it models (bayes is a solo measure's default: write evolution.model: generational for this budget)") {
		t.Errorf("a budget of 2,400 points: %v", err)
	}
}

// TestRunStartedBeforeTheSoloDefaultResumes: a run whose config names no
// model and began when generational was every config's default goes on
// with generational (its checkpoint's hash says so): resumed, it ends as
// a straight run of the same config naming generational does, and its
// checkpoint reads.
func TestRunStartedBeforeTheSoloDefaultResumes(t *testing.T) {
	const named = "game: battleship\nplayer: tuned\nfitness: {baselines: {games: 6}}\nremeasure: off\nevolution: {model: generational, population: 4, generations: 3}\n"
	unnamed := strings.Replace(named, "model: generational, ", "", 1)
	if cfg, err := parse("c.yaml", []byte(unnamed)); err != nil || cfg.cfg.Evolution.Model.Name != model.SoloDefault {
		t.Fatalf("the config without its model runs %v (%v), want %s", cfg.cfg.Evolution.Model.Name, err, model.SoloDefault)
	}
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, named), Options{Dir: straight, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stop := make(chan struct{})
	if _, err := Start(context.Background(), loadText(t, cfgDir, named),
		Options{Dir: dir, Workers: 1, Stop: stop, Progress: &stopAt{after: 1, stop: stop}}); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	// What the older evotune wrote: the config as given, without a model,
	// and the hash it had then, which is the named config's.
	for _, name := range []string{rundir.ConfigFile, rundir.CheckpointFile} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		old := bytes.Replace(data, []byte("model: generational, "), nil, 1)
		if bytes.Equal(old, data) {
			t.Fatalf("%s does not hold the model", name)
		}
		if err := os.WriteFile(path, old, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, s, err := ReadRun(dir); err != nil || s.Config().Evolution.Model.Name != model.Models[0].Name {
		t.Fatalf("the older run's checkpoint does not read as the model it ran: %v", err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	state := func(dir string) string {
		ck, _, err := ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(ck.SpeciesState)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if got, want := state(dir), state(straight); got != want {
		t.Errorf("resumed, the older run ends\n%s\nwant the straight run's\n%s", got, want)
	}
	// Its config edited, the refusal names what the user changed, not
	// the model the new default would have chosen.
	path := filepath.Join(dir, rundir.ConfigFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte("population: 4"), []byte("population: 6"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Resume(context.Background(), Options{Dir: dir, Workers: 1, Generations: 4})
	if !errors.Is(err, ErrConfigChanged) || !strings.Contains(err.Error(), "(evolution.population)") {
		t.Errorf("population edited: %v, want a refusal naming evolution.population alone", err)
	}
}

// TestBudgetBesideTheConfig: a budget given on the command line that the
// config's model cannot take (bayes, a solo measure's default, models at
// most 2,000 genomes told) is refused before a game, starting or
// resuming, and the run is left as it was; one it can take runs.
func TestBudgetBesideTheConfig(t *testing.T) {
	const text = "game: battleship\nplayer: tuned\nfitness: {baselines: {games: 4}}\nremeasure: off\nevolution: {population: 4, generations: 2}\n"
	const want = "a budget the model cannot take: --generations 600: model bayes is told population x generations = 2400 points, more than the 2000 it models"
	cfgDir := t.TempDir()
	dir := t.TempDir()
	_, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 1, Generations: 600})
	if !errors.Is(err, ErrModelBudget) || err.Error() != want {
		t.Fatalf("run --generations 600: %v, want %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.CheckpointFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused start left a checkpoint: %v", err)
	}
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 1, Generations: 600}); !errors.Is(err, ErrModelBudget) || err.Error() != want {
		t.Fatalf("resume --generations 600: %v, want %q", err, want)
	}
	after, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("a refused resume changed the checkpoint (%v)", err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 1, Generations: 3}); err != nil {
		t.Fatalf("resume --generations 3: %v", err)
	}
}

// TestSPSAHashKeepsItsOldStep: spsa's r_end left out is planned now, but
// it hashes as the 0.02 it was, so that a run begun before resumes (its
// schedule is in its state); 0.02 written hashes the same, 0 written
// (no step) does not.
func TestSPSAHashKeepsItsOldStep(t *testing.T) {
	const spsa = "game: battleship\nplayer: tuned\nevolution: {model: spsa, population: 4, generations: 2%s}\n"
	hash := func(extra string) string {
		cfg, err := parse("c.yaml", []byte(fmt.Sprintf(spsa, extra)))
		if err != nil {
			t.Fatal(err)
		}
		defer cfg.Close()
		return cfg.Hash()
	}
	if left, written := hash(""), hash(", spsa-r-end: 0.02"); left != written {
		t.Errorf("spsa-r-end left out hashes %s, written as 0.02 %s: want the same", left, written)
	}
	if hash("") == hash(", spsa-r-end: 0") {
		t.Error("spsa-r-end 0 (no step) hashes as left out")
	}
}
