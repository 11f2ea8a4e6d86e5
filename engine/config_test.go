package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestBadConfigs checks every broken config in testdata/bad against the
// exact messages in its .golden file: each names file:line: key.
func TestBadConfigs(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 15 {
		t.Fatalf("only %d broken configs", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			_, err := Load(file)
			if err == nil {
				t.Fatal("loaded without error")
			}
			got := err.Error() + "\n"
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !strings.HasPrefix(line, file+":") {
					t.Errorf("message does not start with %s: %q", file, line)
				}
			}
			golden.Check(t, strings.TrimSuffix(file, ".yaml")+".golden", got, *update)
		})
	}
}

// TestShippedConfigsAreValid loads every shipped config, which starts
// the outside programs some name (python3 for Pig; the bridge, built here
// as its config says to, into its gitignored place).
func TestShippedConfigsAreValid(t *testing.T) {
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	if _, err := bridge(); err != nil {
		t.Fatal(err)
	}
	var hashes strings.Builder
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			cfg, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&hashes, "%s %s\n", filepath.Base(file), cfg.Hash())
			cfg.Close()
		})
	}
	// A config's hash is what resume compares: a change in how configs
	// are read must not change it, or every run in progress refuses to
	// resume. After an intended change run
	// `go test ./engine -run TestShippedConfigsAreValid -update`.
	golden.Check(t, filepath.Join("testdata", "config-hashes.golden"), hashes.String(), *update)
}

func TestHashIgnoresBudgetAndWorkers(t *testing.T) {
	base := "game: battleship\nplayer: tuned\n"
	tests := []struct {
		name    string
		edit    string
		changed string // "" when results do not change
	}{
		{"same", "", ""},
		{"budget", "evolution: {generations: 80}\n", ""},
		{"workers", "run: {workers: 7}\n", ""},
		{"name", "name: other\n", ""},
		{"a default written out", "evolution: {population: 24}\n", ""},
		// bayes, a solo measure's default, starts with two generations of
		// random genomes.
		{"population", "evolution: {population: 30}\n", "evolution.bayes_initial,evolution.population"},
		{"seed", "seed: 2\n", "seed"},
		{"rules", "rules: {reveal: ship}\n", "rules.reveal"},
		{"space", "space: {jitter: {max: 0.01}}\n", "space.jitter.max"},
	}
	a, err := parse("a.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := parse("b.yaml", []byte(base+tc.edit))
			if err != nil {
				t.Fatal(err)
			}
			keys := strings.Join(a.cfg.ChangedKeys(b.cfg), ",")
			if keys != tc.changed || (a.Hash() == b.Hash()) != (tc.changed == "") {
				t.Fatalf("changed keys %q (hash equal %v), want %q", keys, a.Hash() == b.Hash(), tc.changed)
			}
		})
	}
}

// fuzzConfigs are valid configs FuzzParse starts from beside the broken
// and the shipped ones, which use few of the models: one of every model,
// and spsa's and bayes's keys (theirs are checked against the rest of
// the config, so a mutation of one reaches those checks).
func fuzzConfigs() []string {
	out := []string{autoselectConfig}
	for _, tc := range tunerCases {
		out = append(out, tc.text)
	}
	for _, m := range model.Models {
		out = append(out, fmt.Sprintf("game: battleship\nplayer: tuned\nevolution: {model: %s, population: 6}\n", m.Name))
	}
	return out
}

// TestFuzzConfigsAreValid: FuzzParse's own seeds load, and hold a config
// of every model, spsa's autoselect among them.
func TestFuzzConfigsAreValid(t *testing.T) {
	models := map[string]bool{}
	auto := false
	for _, text := range fuzzConfigs() {
		cfg, err := parse("fuzz.yaml", []byte(text))
		if err != nil {
			t.Fatalf("a seed of FuzzParse is refused: %v\n%s", err, text)
		}
		models[cfg.cfg.Evolution.Model.Name] = true
		auto = auto || strings.Contains(text, "spsa-autoselect:")
		cfg.Close()
	}
	for _, m := range model.Models {
		if !models[m.Name] {
			t.Errorf("no seed of FuzzParse runs model %s", m.Name)
		}
	}
	if !auto {
		t.Error("no seed of FuzzParse asks for spsa's autoselect")
	}
}

// FuzzParse feeds arbitrary text to the config decoder: it must return a
// config or an error, never panic, and every error line must carry the
// file name.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/bad/*.yaml")
	more, _ := filepath.Glob("../configs/*.yaml")
	for _, file := range append(seeds, more...) {
		data, err := os.ReadFile(file)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("game: battleship\nplayer: tuned\nspace: {weights: {symmetry: dihedral}}\nseeds: [{}, ~]\n"))
	for _, text := range fuzzConfigs() {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := parse("fuzz.yaml", data)
		if err == nil {
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			// An outside program's last stderr lines are quoted indented
			// under the problem that names the file.
			if !strings.HasPrefix(line, "fuzz.yaml") && !strings.HasPrefix(line, "  ") {
				t.Fatalf("error line without the file name: %q", line)
			}
		}
	})
}

// TestNaturalSelectionConfigIsTheSeeds: configs/hadron-natural-selection.yaml
// must search what seed 004's authors searched (section 2.3): the late
// phase's w1 and w2 in [0, 1] and the threshold t, with the early weights
// fixed at Aenigma's 1 and 0 and the tie-breaking noise not searched; the
// two best kept, the rest replaced at random, no seeded start.
func TestNaturalSelectionConfigIsTheSeeds(t *testing.T) {
	c, err := Load("../configs/hadron-natural-selection.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sp := c.Space()
	var searched []string
	for _, g := range sp.Genes() {
		searched = append(searched, g.String())
	}
	if got, want := strings.Join(searched, " "), "w1_late w2_late t"; got != want {
		t.Errorf("searches %q, want %q", got, want)
	}
	for name, want := range map[string]float64{"w1_early": 1, "w2_early": 0, "jitter": 1} {
		if v, ok := sp.Fixed(name); !ok || v.Num != want {
			t.Errorf("%s fixed %v (%v), want fixed at %v", name, ok, v.Num, want)
		}
	}
	for _, p := range sp.Params() {
		want := map[string][2]float64{"w1_late": {0, 1}, "w2_late": {0, 1}, "t": {0, 81}}[p.Name]
		if want != [2]float64{} && (p.Min != want[0] || p.Max != want[1] || p.Log) {
			t.Errorf("%s searched over %s, want [%v, %v] linear", p.Name, p.Range(), want[0], want[1])
		}
	}
	e := &c.cfg.Evolution
	if e.Model.Name != "natural-selection" || e.Kept() != 2 || len(c.main.starts) != 0 {
		t.Errorf("model %v keeping %d with %d seeds, want natural-selection keeping 2 from a random start", e.Model.Name, e.Kept(), len(c.main.starts))
	}
}

// TestSummaryCountsTheGenomes: validate's summary names the genomes a
// generation evaluates where the model's differ from its population
// (spsa's theta beside its pairs on a solo measure), and only there.
func TestSummaryCountsTheGenomes(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"spsa shots", tunerCases[0].text, "spsa model, population 6 (7 genomes evaluated a generation), 4 generations"},
		{"spsa score", tunerCases[1].text, "spsa model, population 6, 4 generations"},
		{"bayes", tunerCases[2].text, "bayes model, population 5, 4 generations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadText(t, t.TempDir(), tc.text)
			defer cfg.Close()
			if s := cfg.Summary(); !strings.Contains(s, tc.want) {
				t.Fatalf("summary:\n%s\nwant %q", s, tc.want)
			}
		})
	}
}

// TestSummaryListsWeightedModes: validate's summary lists the fitness
// modes that have weight, and only those.
func TestSummaryListsWeightedModes(t *testing.T) {
	text := "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    weight: 0\n    opponents: [even]\n    games: 2\n  population: {opponents: 1, games: 2}\nevolution:\n  population: 4\n  tournament-size: 2\n"
	cfg := loadText(t, t.TempDir(), text)
	defer cfg.Close()
	if s := cfg.Summary(); strings.Contains(s, "baselines") || !strings.Contains(s, "population") {
		t.Fatalf("summary:\n%s\nwant population games and no baselines", s)
	}
}

// TestSummaryOfASoloGameOfOneSeat: a solo game without an opponent is
// measured alone: validate's summary says so, lists no empty opponents
// and counts the remeasure's games per game, not per opponent.
func TestSummaryOfASoloGameOfOneSeat(t *testing.T) {
	cfg := loadText(t, t.TempDir(), "game: solitaire\nplayer: tuned\nfitness: {baselines: {games: 30}}\nevolution: {population: 4, generations: 2}\n")
	defer cfg.Close()
	s := cfg.Summary()
	for _, want := range []string{"objective cost: measured alone x 30 games (weight 1)", "fresh games at the end; the winner again"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	for _, bad := range []string{"[]", "opponent"} {
		if strings.Contains(s, bad) {
			t.Errorf("summary says %q of a game with no opponent:\n%s", bad, s)
		}
	}
}
