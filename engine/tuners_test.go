package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/spsa"
)

// The field's tuners as runs: spsa on a solo measure and head to head,
// bayes on a solo measure.
var tunerCases = []struct{ name, text string }{
	{"spsa shots", "seed: 3\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 12}\nevolution:\n  model: spsa\n  population: 6\n  generations: 4\n  spsa-r-end: 0.05\n"},
	{"spsa score", "seed: 5\ngame: mnk\nrules: {depth: 1}\nplayer: tuned\nfitness:\n  objective: score\n  population: {games: 4, opponents: 1}\nevolution:\n  model: spsa\n  population: 6\n  generations: 4\n"},
	{"bayes shots", "seed: 4\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 12}\nevolution:\n  model: bayes\n  population: 5\n  generations: 4\n  bayes-initial: 5\n  bayes-candidates: 60\n"},
}

// TestFieldTunersResumeExactly: each tuner's run gives the same files at
// 1, 2 and 3 workers, and resumed after every generation (at 3 workers)
// gives the straight run's files byte for byte, its state included.
func TestFieldTunersResumeExactly(t *testing.T) {
	for _, tc := range tunerCases {
		t.Run(tc.name, func(t *testing.T) {
			cfgDir := t.TempDir()
			var straight []map[string][]byte
			for _, w := range []int{1, 2, 3} {
				dir := t.TempDir()
				if _, err := Start(context.Background(), loadText(t, cfgDir, tc.text), Options{Dir: dir, Workers: w}); err != nil {
					t.Fatal(err)
				}
				straight = append(straight, readRun(t, dir))
			}
			sameRun(t, straight[0], straight[1], "workers 1 vs 2")
			sameRun(t, straight[0], straight[2], "workers 1 vs 3")
			for gen := 1; gen < 4; gen++ {
				dir := t.TempDir()
				if _, err := Start(context.Background(), loadText(t, cfgDir, tc.text), Options{Dir: dir, Workers: 1, Generations: gen}); err != nil {
					t.Fatal(err)
				}
				if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 3, Generations: 4}); err != nil {
					t.Fatal(err)
				}
				sameRun(t, straight[0], readRun(t, dir), fmt.Sprintf("resumed after generation %d", gen))
			}
		})
	}
}

// TestFieldTunersRecommend: spsa's checkpoint holds theta, the pairs told
// and its schedule, and recommends theta snapped to a genome; bayes's
// holds every point told and recommends a genome with the model's
// interval around its figure; both name the recommendation in run.log.
func TestFieldTunersRecommend(t *testing.T) {
	thetaWon := false
	defer func() {
		if !t.Failed() && !thetaWon {
			t.Error("theta won no spsa run's remeasure: the path where it is the run's recommendation went untried")
		}
	}()
	for _, tc := range tunerCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := loadText(t, t.TempDir(), tc.text)
			if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			ck, cfg, err := ReadRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer cfg.Close()
			genes := cfg.species[0].space.Len()
			var st struct {
				SPSA *struct {
					Theta []float64 `json:"theta"`
					K     int       `json:"k"`
				} `json:"spsa"`
				Points    []json.RawMessage `json:"points"`
				Recommend []float64         `json:"recommend"`
				Figure    *[3]float64       `json:"figure"`
			}
			for _, raw := range ck.Model {
				if err := json.Unmarshal(raw, &st); err != nil {
					t.Fatal(err)
				}
			}
			if len(st.Recommend) != genes || !slices.Equal(cfg.species[0].space.Project(st.Recommend), st.Recommend) {
				t.Fatalf("recommendation %v: want a genome of %d genes", st.Recommend, genes)
			}
			data, err := os.ReadFile(filepath.Join(dir, "run.log"))
			if err != nil {
				t.Fatal(err)
			}
			log := string(data)
			switch cfg.cfg.Evolution.Model.Name {
			case "spsa":
				pairs := 4 * 3 * 12 // generations x iterations x deals
				if strings.Contains(tc.name, "score") {
					pairs = 4 * 3 * 2 // generations x iterations x pairs of 4 games
				}
				if st.SPSA == nil || st.SPSA.K != pairs {
					t.Fatalf("spsa state %+v: want %d pairs told", st.SPSA, pairs)
				}
				if !slices.Equal(cfg.species[0].space.Project(st.SPSA.Theta), st.Recommend) {
					t.Errorf("recommended %v, theta %v: want theta snapped", st.Recommend, st.SPSA.Theta)
				}
				if !strings.Contains(log, "spsa: after generation 4") {
					t.Errorf("run.log names no theta:\n%s", log)
				}
				// The remeasure plays theta beside the hall of fame's best
				// (which holds only perturbed points head to head), and the
				// export lists it, first when it won.
				i := slices.IndexFunc(ck.Remeasured, func(m Remeasured) bool { return m.Rank == modelPick })
				if i < 0 || !slices.Equal(ck.Remeasured[i].Genes, st.Recommend) {
					t.Fatalf("remeasured %+v: want theta %v among them, rank %d", ck.Remeasured, st.Recommend, modelPick)
				}
				file, _ := cfg.exportFile(cfg.species[0], ck.SpeciesState, len(ck.HallOfFame)+1)
				j := slices.IndexFunc(file.Players, func(p fitness.RankedParams) bool { return p.From == "model spsa" })
				if j < 0 || (ck.Verdict.Rank == modelPick) != (j == 0) || file.Players[j].HallOfFameRank != 0 {
					t.Fatalf("the verdict's rank %d; theta is player %d of the export (%+v)", ck.Verdict.Rank, j+1, file.Players)
				}
				thetaWon = thetaWon || j == 0
			case "bayes":
				// The remeasure plays the last optimum, as itself or as
				// the member whose genome it is.
				if !slices.ContainsFunc(ck.Remeasured, func(m Remeasured) bool { return slices.Equal(m.Genes, st.Recommend) }) {
					t.Fatalf("remeasured %+v: want the optimum %v among them", ck.Remeasured, st.Recommend)
				}
				if len(st.Points) != 4*5 || st.Figure == nil || !(st.Figure[1] <= st.Figure[0] && st.Figure[0] <= st.Figure[2]) {
					t.Fatalf("bayes state: %d points, figure %v: want 20 points and a mean inside its interval", len(st.Points), st.Figure)
				}
				if !strings.Contains(log, "bayes: after generation 4 the pessimistic optimum") {
					t.Errorf("run.log names no optimum:\n%s", log)
				}
			}
		})
	}
}

// autoselectConfig is an spsa run whose schedule and generations are
// autoselect's.
const autoselectConfig = "seed: 3\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 12}\nevolution:\n  model: spsa\n  population: 6\n" +
	"  spsa-autoselect: {precision: 0.05, edge-loss: 0.5, variance: 1.5}\n"

// TestSPSAAutoselectPlans: spsa-autoselect gives the run fishtest's
// plan for the space's genes (constant gains, c_end and r_end for every
// gene, the planned pairs) and, left out, the generations that play its
// pairs; written, generations only bound the run.
func TestSPSAAutoselectPlans(t *testing.T) {
	const text = autoselectConfig
	cfg := loadText(t, t.TempDir(), text)
	genes := cfg.species[0].space.Len()
	plan, err := spsa.Autoselect(spsa.Target{Genes: genes, Precision: 0.05, EdgeLoss: 0.5, Variance: 1.5})
	if err != nil {
		t.Fatal(err)
	}
	perGeneration := 3 * 12 // iterations x pairs of an iteration
	if want := (plan.Schedule.Pairs + perGeneration - 1) / perGeneration; cfg.cfg.Evolution.Generations != want || want < 2 {
		t.Errorf("%d generations, want the %d that play the plan's %d pairs", cfg.cfg.Evolution.Generations, want, plan.Schedule.Pairs)
	}
	cfg.Close()
	if g := loadText(t, t.TempDir(), text+"  generations: 3\n").cfg.Evolution.Generations; g != 3 {
		t.Errorf("generations: 3 written, the run has %d", g)
	}

	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	ck, cfg, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	var st struct {
		SPSA struct {
			Schedule spsa.Schedule `json:"schedule"`
		} `json:"spsa"`
	}
	for _, raw := range ck.Model {
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
	}
	got, want := st.SPSA.Schedule, plan.Schedule
	if got.Pairs != want.Pairs || got.Alpha != 0 || got.Gamma != 0 || got.ARatio != 0 || !slices.Equal(got.CEnd, want.CEnd) || !slices.Equal(got.REnd, want.REnd) {
		t.Errorf("the run's schedule %+v, want autoselect's %+v", got, want)
	}
	log, err := os.ReadFile(filepath.Join(dir, "run.log"))
	if err != nil || !strings.Contains(string(log), fmt.Sprintf("autoselect plans %d pairs with constant gains", want.Pairs)) {
		t.Errorf("run.log does not state the plan: %v\n%s", err, log)
	}
}
