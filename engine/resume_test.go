package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evotune/evotune/rundir"
)

// modeConfig builds a short single-species run of the tuned Battleship
// shooter with the given fitness and evolution sections.
func modeConfig(fitnessSection, evolution string) string {
	return `name: modes
seed: 13
game: battleship
player: tuned
seeds:
  - {}
  - {hit_weight: 1, jitter: 0.25}
fitness:
` + fitnessSection + `evolution:
  population: 6
  generations: 3
  tournament-size: 2
  hall-of-fame: 4
` + evolution
}

// modeCases covers every model and every fitness mode, the seed's
// natural-selection scheme (one species, score in population games)
// included.
var modeCases = []struct {
	name, fitness, evolution string
	populationOnly           bool // score objective, population mode alone
	// Games each member of a generation plays (hall-of-fame games once
	// the hall has its members) and the games of the first and later
	// generations.
	member, first, later int
}{
	{"generational baselines shots", "  baselines: {games: 6}\n", "  elitism: 1\n", false, 6, 6 * 6, 6 * 6},
	{"down-to-size baselines shots", "  baselines: {games: 6}\n", "  model: down-to-size\n  offspring: 4\n", false, 6, 10 * 6, 10 * 6},
	{"natural-selection baselines shots", "  baselines: {games: 6}\n", "  model: natural-selection\n  keep: 2\n", false, 6, 6 * 6, 6 * 6},
	{"natural-selection population score",
		"  objective: score\n  population: {opponents: 3, games: 4}\n", "  model: natural-selection\n  keep: 2\n", true,
		4 * 4, 12 * 4, 12 * 4},
	{"generational population score",
		"  objective: score\n  population: {opponents: 2, games: 4}\n", "  elitism: 1\n", true,
		2 * 4, 6 * 4, 6 * 4},
	{"down-to-size hall-of-fame score",
		"  objective: score\n  hall-of-fame: {members: 2, games: 4}\n  baselines: {games: 4, opponents: [over9000]}\n",
		"  model: down-to-size\n  offspring: 3\n", false,
		4 + 2*4, 9 * 4, 9 * 12},
	{"cmaes baselines shots", "  baselines: {games: 6}\n", "  model: cmaes\n", false, 6, 6 * 6, 6 * 6},
	{"cmaes population score",
		"  objective: score\n  population: {opponents: 2, games: 4}\n", "  model: cmaes\n  step-size: 0.3\n", true,
		2 * 4, 6 * 4, 6 * 4},
	{"random-search baselines shots", "  baselines: {games: 6}\n", "  model: random-search\n", false, 6, 6 * 6, 6 * 6},
	{"generational all modes score",
		"  objective: score\n  baselines: {games: 2, opponents: [bob]}\n  population: {opponents: 2, games: 2}\n  hall-of-fame: {members: 2, games: 2}\n",
		"  elitism: 2\n", false,
		2 + 2*2 + 2*2, 6*2 + 6*2, 6*2 + 6*2 + 6*2*2},
}

// TestEveryModelAndModeResumesExactly stops each kind of run after its
// first generation and resumes it at another worker count: every
// file (and the export) must equal those of a run that went straight
// through at one worker.
func TestEveryModelAndModeResumesExactly(t *testing.T) {
	type modeCase struct {
		name, fitness, evolution string
		// dropsFirst: racing drops someone in the first generation (so a
		// resume after it replays CMA-ES's record of the dropped); told
		// below 0: and with score, CMA-ES was told a figure below 0.
		dropsFirst, toldBelow0 bool
	}
	cases := []modeCase{
		// Racing is a top-level key, after the evolution section.
		{"cmaes racing baselines shots", "  baselines: {games: 40}\n", "  model: cmaes\n  step-size: 0.5\nracing: {rounds: 3}\n", true, false},
		{"cmaes racing baselines and hall-of-fame score",
			"  objective: score\n  baselines: {games: 20, opponents: [bob]}\n  hall-of-fame: {members: 2, games: 4}\n",
			"  model: cmaes\n  step-size: 0.5\nracing: {rounds: 3}\n", true, true},
	}
	for _, tc := range modeCases {
		cases = append(cases, modeCase{name: tc.name, fitness: tc.fitness, evolution: tc.evolution})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := modeConfig(tc.fitness, tc.evolution)
			cfgDir := t.TempDir()
			straight := t.TempDir()
			if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 1}); err != nil {
				t.Fatal(err)
			}
			want := readDir(t, straight)
			if tc.dropsFirst {
				ck, _, err := ReadRun(straight)
				if err != nil {
					t.Fatal(err)
				}
				if told := toldOf(t, ck.SpeciesState); ck.History[0].Saved == 0 || tc.toldBelow0 != (slices.Min(told[0]) < 0) {
					t.Fatalf("generation 1 saved %d games, told %v: want a drop (told below 0: %v)", ck.History[0].Saved, told[0], tc.toldBelow0)
				}
			}
			for _, after := range []int{1} { // a stop after 2 resumes only the last generation: TestResumeMatchesStraightRun has it
				dir := t.TempDir()
				stop := make(chan struct{})
				_, err := Start(context.Background(), loadText(t, cfgDir, text),
					Options{Dir: dir, Workers: 2, Stop: stop, Progress: &stopAt{after: after, stop: stop}})
				if !errors.Is(err, ErrStopped) {
					t.Fatalf("stop after %d: %v", after, err)
				}
				if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 3}); err != nil {
					t.Fatal(err)
				}
				sameFiles(t, want, readDir(t, dir), fmt.Sprintf("stopped after %d, resumed", after))
			}
		})
	}
}

// TestRunsHaveHonestIntervals reads every kind of run's checkpoint:
// every member played the games its modes call for, and every
// generation's games are counted in its history row; members played
// games on distinct deals, so their intervals have width
// (a derivation that gave every game of a pairing the same deal would
// make shots constant and scores whole, with zero-width intervals); in
// population mode alone every game gives its two players scores summing
// to 1, so the population's mean score is exactly 1/2.
func TestRunsHaveHonestIntervals(t *testing.T) {
	for _, tc := range modeCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := loadText(t, t.TempDir(), modeConfig(tc.fitness, tc.evolution))
			if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			ck, _, err := ReadRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			// Two generations of breeding made new genomes.
			initial := firstGeneration(t, startRunner(t, cfg, Options{}))[0]
			bred := 0
			for _, m := range ck.Population {
				if !slices.ContainsFunc(initial, func(g []float64) bool { return slices.Equal(g, m.Genes) }) {
					bred++
				}
			}
			if bred < len(ck.Population)/2 {
				t.Errorf("only %d of %d members of the last generation are not from the first", bred, len(ck.Population))
			}
			members := append(ck.Population, ck.HallOfFame...)
			flat := 0
			for i, m := range members {
				if m.CI95[0] > m.Fitness || m.Fitness > m.CI95[1] {
					t.Errorf("member %d: fitness %v outside its interval %v", i, m.Fitness, m.CI95)
				}
				if strings.Contains(tc.fitness, "score") && (m.CI95[0] < 0 || m.CI95[1] > 1) {
					t.Errorf("member %d: a score's interval %v sticks out of [0, 1]", i, m.CI95)
				}
				if !(m.CI95[1]-m.CI95[0] > 0) {
					flat++
					if !strings.Contains(tc.fitness, "score") {
						t.Errorf("member %d: %v shots over %d games with interval %v", i, m.Fitness, m.Games, m.CI95)
					}
				}
			}
			// A player may lose every game of a few; not most players.
			if 3*flat > len(members) {
				t.Errorf("%d of %d members have zero-width intervals", flat, len(members))
			}
			if tc.populationOnly {
				for _, h := range ck.History {
					if math.Abs(h.Mean-0.5) > 1e-12 {
						t.Errorf("generation %d: mean population score %v, want 1/2", h.Generation, h.Mean)
					}
				}
			}
			for i, m := range ck.Population {
				if m.Games != tc.member || m.Generation != 2 {
					t.Errorf("member %d: %d games in generation %d, want %d", i, m.Games, m.Generation+1, tc.member)
				}
			}
			for g, h := range ck.History {
				n := tc.later
				if g == 0 {
					n = tc.first
				}
				if h.Games != n || h.Generation != g+1 {
					t.Errorf("history row %d: generation %d, %d games; want generation %d, %d games", g, h.Generation, h.Games, g+1, n)
				}
			}
		})
	}
}

// TestPopulationGamesScoreBothSeats evaluates a population of two very
// different shooters in population mode alone: each game's score goes to
// one and its complement to the other, so the two fitnesses sum to 1, and
// the over9000 defaults beat a shooter that ignores its hits.
func TestPopulationGamesScoreBothSeats(t *testing.T) {
	text := strings.Replace(modeConfig("  objective: score\n  population: {opponents: 1, games: 20}\n", "  elitism: 0\n"),
		"population: 6", "population: 2", 1)
	text = strings.Replace(text, "tournament-size: 2", "tournament-size: 1", 1)
	cfg := loadText(t, t.TempDir(), text)
	r := startRunner(t, cfg, Options{Dir: t.TempDir(), Workers: 2})
	members, err := r.evaluate(context.Background(), 0, firstGeneration(t, r), [][]Member{nil})
	if err != nil {
		t.Fatal(err)
	}
	strong, weak := members[0][0], members[0][1]
	if strong.Games != 20 || weak.Games != 20 {
		t.Fatalf("games %d and %d, want 20 each", strong.Games, weak.Games)
	}
	if math.Abs(strong.Fitness+weak.Fitness-1) > 1e-12 || strong.Fitness < 0.75 {
		t.Fatalf("fitness %v (over9000 defaults) and %v (hits ignored): want a sum of 1 and the first above 0.75", strong.Fitness, weak.Fitness)
	}
}

// TestBudgetEdges: a stop requested in the last generation does not
// count as a stop (the run is finished); resuming with the budget equal
// to the generations run only rewrites the derived files; a budget below
// them is refused without touching a file.
func TestBudgetEdges(t *testing.T) {
	cfgDir := t.TempDir()
	dir := t.TempDir()
	stop := make(chan struct{})
	res, err := Start(context.Background(), loadText(t, cfgDir, crashConfig),
		Options{Dir: dir, Workers: 1, Stop: stop, Progress: &stopAt{after: 3, stop: stop}})
	if err != nil || res.Generation != 3 || res.Budget != 3 {
		t.Fatalf("stop in the last generation: %v, %+v; want a finished run of 3", err, res)
	}
	want := readDir(t, dir)
	for _, f := range []string{rundir.GenerationsFile, rundir.BestFile, rundir.ReportFile} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	res, err = Resume(context.Background(), Options{Dir: dir, Generations: 3, Workers: 1})
	if err != nil || res.Generation != 3 || res.Budget != 3 || fmt.Sprint(res.Best) != fmt.Sprint(readBest(t, dir)) {
		t.Fatalf("resume at its budget: %v, %+v", err, res)
	}
	sameFiles(t, want, readDir(t, dir), "resumed at its budget")
	log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil || !strings.HasSuffix(string(log), " resume crash at generation 3 of 3, 1 worker\n") ||
		strings.Count(string(log), "finished 3 generations") != 1 {
		t.Fatalf("run.log after a resume at its budget (%v):\n%s", err, log)
	}
	before := snapshot(t, dir)
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 2}); !errors.Is(err, ErrBudget) ||
		!strings.Contains(err.Error(), "a budget of 2 generations, 3 already run") {
		t.Fatalf("budget below the run: %v", err)
	}
	if !equalSnap(before, snapshot(t, dir)) {
		t.Fatal("a refused resume changed files")
	}
}

// readBest returns the best of the run's hall of fame.
func readBest(t testing.TB, dir string) Member {
	t.Helper()
	ck, _, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ck.HallOfFame[0]
}

// tick is a clock that moves two seconds per reading.
type tick struct{ t time.Time }

func (c *tick) now() time.Time { c.t = c.t.Add(2 * time.Second); return c.t }

// TestRunLog reads run.log of a run stopped after its first generation
// and resumed: what started, every generation's figures (as the
// checkpoint has them) and timing, the stop, the resume and the end.
func TestRunLog(t *testing.T) {
	cfgDir := t.TempDir()
	dir := t.TempDir()
	clock := &tick{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	stop := make(chan struct{})
	if _, err := Start(context.Background(), loadText(t, cfgDir, crashConfig),
		Options{Dir: dir, Workers: 1, Now: clock.now, Stop: stop, Progress: &stopAt{after: 1, stop: stop}}); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2, Now: clock.now}); err != nil {
		t.Fatal(err)
	}
	ck, _, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	// The clock is read once per line and twice per generation (its
	// start and end): the n-th reading is 2n seconds after midnight.
	at := func(n int) string { return fmt.Sprintf("2026-01-01T00:00:%02dZ ", 2*n) }
	h := ck.History
	gen := func(n, g int, bestSoFar string) string {
		return fmt.Sprintf("%sgeneration %d/3: best %.6g, mean %.6g, best so far %s; 24 games in 2.00s (12 games/s)",
			at(n), g, h[g-1].Best, h[g-1].Mean, bestSoFar)
	}
	final := fmt.Sprintf("%.6g over %d games", ck.HallOfFame[0].Fitness, ck.HallOfFame[0].Games)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	want := []string{
		at(1) + "start crash: game battleship, player tuned, model generational, population 4, 3 generations, 1 worker",
		// A solo measure's config that names no model says why it runs
		// the one it does.
		at(2) + "model: generational, the default: evolution.elitism is generational's, and bayes, a solo measure's default, would not read it",
		gen(5, 1, "BEST"),
		at(6) + "stopped after generation 1 on request",
		at(7) + "resume crash at generation 1 of 3, 2 workers",
		gen(10, 2, "BEST"),
		gen(13, 3, final),
		at(14) + "finished 3 generations",
	}
	if len(lines) != len(want) {
		t.Fatalf("run.log has %d lines, want %d:\n%s", len(lines), len(want), data)
	}
	for i, w := range want {
		// The best so far of earlier generations is not in the last
		// checkpoint: everything around it is.
		prefix, suffix, cut := strings.Cut(w, "BEST")
		if (cut && (!strings.HasPrefix(lines[i], prefix) || !strings.HasSuffix(lines[i], suffix))) || (!cut && lines[i] != w) {
			t.Errorf("line %d:\n%s\nwant\n%s", i+1, lines[i], w)
		}
	}
}

// recorder is a Progress that writes down what it is told.
type recorder struct {
	mu     sync.Mutex
	events []string
	most   int
}

func (p *recorder) StartGeneration(gen, budget, games int) {
	p.events = append(p.events, fmt.Sprintf("start %d/%d %d games", gen, budget, games))
	p.most = 0
}
func (p *recorder) Games(done int) { p.mu.Lock(); p.most = max(p.most, done); p.mu.Unlock() }
func (p *recorder) EndGeneration(gen int, s GenStats, best Member) {
	p.events = append(p.events, fmt.Sprintf("end %d after %d games: %+v best %v", gen, p.most, s, best.Fitness))
}

// TestProgressReports: the progress hears every generation start with its
// games, every game played, and every end with the generation's history
// row and the best so far.
func TestProgressReports(t *testing.T) {
	dir := t.TempDir()
	p := &recorder{}
	ck := runText(t, crashConfig, Options{Dir: dir, Workers: 2, Progress: p})
	var want []string
	for g, h := range ck.History {
		want = append(want, fmt.Sprintf("start %d/3 24 games", g),
			fmt.Sprintf("end %d after 24 games: %+v best %v", g, h, "BEST"))
	}
	if len(p.events) != len(want) {
		t.Fatalf("events %q, want %q", p.events, want)
	}
	for i, w := range want {
		if i == len(want)-1 {
			w = strings.Replace(w, "BEST", fmt.Sprint(ck.HallOfFame[0].Fitness), 1)
		}
		if prefix, _, _ := strings.Cut(w, "BEST"); !strings.HasPrefix(p.events[i], prefix) || (i == len(want)-1 && p.events[i] != w) {
			t.Errorf("event %d: %q, want %q", i, p.events[i], w)
		}
	}
}

// cancelIn cancels the run's context once generation gen has played
// some games.
type cancelIn struct {
	gen, cur int
	cancel   context.CancelFunc
}

func (c *cancelIn) StartGeneration(gen, _, _ int) { c.cur = gen }
func (c *cancelIn) Games(done int) {
	if c.cur == c.gen && done >= 6 {
		c.cancel()
	}
}
func (c *cancelIn) EndGeneration(int, GenStats, Member) {}

// TestCancelAbandonsTheGeneration: cancelling the context during a
// generation abandons it (the checkpoint stays at the one before, the
// log says so) and a resume ends as a run never cancelled.
func TestCancelAbandonsTheGeneration(t *testing.T) {
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, crashConfig), Options{Dir: straight, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Start(ctx, loadText(t, cfgDir, crashConfig), Options{Dir: dir, Workers: 1, Progress: &cancelIn{gen: 1, cancel: cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	ck, _, err := ReadRun(dir)
	if err != nil || ck.Generation != 1 {
		t.Fatalf("checkpoint after a cancel in generation 2: %v, generation %d", err, ck.Generation)
	}
	if log, _ := os.ReadFile(filepath.Join(dir, rundir.LogFile)); !strings.Contains(string(log), "generation 2 abandoned: context canceled") {
		t.Fatalf("run.log does not say the generation was abandoned:\n%s", log)
	}
	if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, readDir(t, straight), readDir(t, dir), "cancelled, resumed")
}
