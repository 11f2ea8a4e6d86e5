// Command bench measures how many games each search model needs to find
// a player as good as a fixed target: the sample-efficiency benchmark of
// issue 12. See bench/README.md.
//
//	nice -n 19 go run ./bench -game battleship -seeds 5 -racing
//	go run ./bench -game battleship -racing -report   # the tables and picture so far
//
// Every (method, seed) is an ordinary evotune run in its own directory
// under -out, started from random genomes (no seeds) and advanced one
// generation at a time. After each generation the run's best (the hall
// of fame's first, as best.yaml reports it) is re-measured on fresh deals
// that no run ever plays; the games the run played until the first best
// that reaches the target are its figure. Measurements are appended to a
// log beside the run, so a killed benchmark resumes where it stopped
// (the runs themselves resume from their checkpoints).
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/evotune/evotune/bench/quality"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/plot"
	"github.com/evotune/evotune/rundir"
)

// method is one search model as the benchmark runs it: the lines of its
// evolution section.
type method struct {
	name, evolution string
}

// methods are the models compared. Racing variants join them with
// -racing: the same evolution lines plus racingLines.
var methods = []method{
	{"random-search", "  model: random-search\n"},
	{"natural-selection", "  model: natural-selection\n  keep: 2\n"},
	{"generational", "  model: generational\n  elitism: 2\n"},
	{"cmaes", "  model: cmaes\n"},
}

// racingLines switch racing on, at its defaults.
const racingLines = "racing: {}\n"

// task is one game's benchmark: its config, and the re-measure that
// decides whether a best reaches the target.
type task struct {
	name   string
	config string // %d: the seed; %s: the evolution lines; %s: extra top-level lines
	// perGeneration is the games one generation plays.
	perGeneration int
	// measure re-measures a best (a parameter file) on fresh deals and
	// says whether it reaches the target.
	measure func(ctx context.Context, t *task, best string) (measurement, error)
	target  string // the target in words, for the report

	game fitness.Game
	ref  []float64 // the target player's costs on the fresh deals (solo games)
}

// measurement is one re-measure of a best.
type measurement struct {
	Figure float64 `json:"figure"` // the best's mean (shots) or score
	Target float64 `json:"target"` // the target's mean on the same deals (solo), or the score to reach
	Games  int     `json:"games"`  // re-measure games played
	Pass   bool    `json:"pass"`
	// Screened is set when the best was judged on the first screenGames
	// deals alone: more than 3 standard errors short of the target there.
	Screened bool `json:"screened,omitempty"`
}

// record is one line of a run's measurement log.
type record struct {
	Generation int    `json:"generation"`
	Games      int    `json:"games"` // games the run played up to this generation
	Best       string `json:"best"`  // sha256 of best.yaml, so an unchanged best is not measured twice
	measurement
}

const (
	freshSeed   = quality.FreshSeed // deals no run plays (runs derive theirs from their own seeds)
	screenGames = 2000
)

var battleship = task{
	name: "battleship",
	config: `name: bench
seed: %d
game: battleship
player: tuned
space:
  model: {fix: density}
  samples: {fix: 96}
fitness:
  objective: shots
  baselines:
    opponents: [random]
    games: 200
evolution:
  population: 16
  generations: 1
%s%s`,
	perGeneration: 16 * 200,
	measure:       measureSolo,
	target:        "mean shots at or below over9000's on the same 20,000 fresh deals (random placement)",
}

var hadron = task{
	name: "hadron",
	config: `name: bench
seed: %d
game: hadron
rules:
  size: 9
  depth: 2
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [aenigma]
    games: 40
evolution:
  population: 12
  generations: 1
%s%s`,
	perGeneration: 12 * 40,
	measure:       measureHadron,
	target:        "score 0.55 or more against aenigma over 1,000 fresh seat-swapped pairs (depth 2)",
}

func main() {
	game := flag.String("game", "battleship", "battleship or hadron")
	seeds := flag.Int("seeds", 5, "runs per method (seeds 1..N)")
	maxGames := flag.Int("max-games", 0, "games a run may play before it counts as not reaching the target (default: battleship 320,000; hadron 48,000)")
	out := flag.String("out", "bench/results", "directory of the runs and their measurement logs")
	only := flag.String("methods", "", "comma-separated methods to run (default all)")
	racing := flag.Bool("racing", false, "also run every method with racing: on")
	workers := flag.Int("workers", 1, "games at once")
	reportOnly := flag.Bool("report", false, "print the table and write the picture from what is recorded; run nothing")
	quality := flag.Bool("quality", false, "the quality benchmark instead: every model at a fixed budget, its recommendation on fresh deals (-problems picks problems, -methods models)")
	problems := flag.String("problems", "", "with -quality: comma-separated problems (default quickstart,pig; also connect4, hadron)")
	stopBench := flag.Bool("stop", false, "the stop-rule benchmark instead: quickstart, pig and connect4, full budget against stop: {} (-methods picks problems)")
	flag.Parse()
	if *quality {
		ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer cancel()
		if err := runQualityBench(ctx, *out, *problems, *only, *seeds, *workers, *reportOnly); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *stopBench {
		ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer cancel()
		if err := runStopBench(ctx, *out, *only, *seeds, *workers, *reportOnly); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*game, *seeds, *maxGames, *out, *only, *racing, *workers, *reportOnly); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(game string, seeds, maxGames int, out, only string, racing bool, workers int, reportOnly bool) error {
	var t *task
	switch game {
	case "battleship":
		t = &battleship
		if maxGames == 0 {
			maxGames = 320_000
		}
	case "hadron":
		t = &hadron
		if maxGames == 0 {
			maxGames = 48_000
		}
	default:
		return fmt.Errorf("unknown game %q (want battleship or hadron)", game)
	}
	ms := slices.Clone(methods)
	if racing {
		for _, m := range methods {
			ms = append(ms, method{m.name + "+racing", m.evolution})
		}
	}
	if only != "" {
		want := strings.Split(only, ",")
		ms = slices.DeleteFunc(ms, func(m method) bool { return !slices.Contains(want, m.name) })
	}
	dir := filepath.Join(out, t.name)
	if !reportOnly {
		ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer cancel()
		if err := t.load(); err != nil {
			return err
		}
		// Seeds outermost: a partial benchmark has every method at the
		// same number of seeds.
		for seed := 1; seed <= seeds; seed++ {
			for _, m := range ms {
				if err := t.runOne(ctx, dir, m, seed, maxGames, workers); err != nil {
					return fmt.Errorf("%s seed %d: %w", m.name, seed, err)
				}
			}
		}
	}
	return report(t, dir, ms, seeds, maxGames)
}

// load builds the game as the runs' config has it (its rules: Hadron's
// depth), so re-measures play the game the runs play.
func (t *task) load() error {
	cfg, err := quality.Load(t.name+".yaml", []byte(fmt.Sprintf(t.config, 1, "", "")))
	if err != nil {
		return err
	}
	t.game = cfg.Game()
	return nil
}

// runOne advances one (method, seed) until its best reaches the target
// or it has played maxGames.
func (t *task) runOne(ctx context.Context, dir string, m method, seed, maxGames, workers int) error {
	runDir := filepath.Join(dir, m.name, fmt.Sprintf("seed%d", seed))
	logPath := runDir + ".jsonl"
	recs, err := readLog(logPath)
	if err != nil {
		return err
	}
	if len(recs) > 0 && (recs[len(recs)-1].Pass || recs[len(recs)-1].Games+t.perGeneration > maxGames) {
		return nil // finished
	}
	extra := ""
	if strings.HasSuffix(m.name, "+racing") {
		extra = racingLines
	}
	text := fmt.Sprintf(t.config, seed, m.evolution, extra)
	if err := os.MkdirAll(filepath.Dir(runDir), 0o755); err != nil {
		return err
	}
	cfgPath := runDir + ".yaml"
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		return err
	}
	for {
		gen := 0
		if len(recs) > 0 {
			gen = recs[len(recs)-1].Generation
		}
		ck, err := t.advance(ctx, cfgPath, runDir, gen+1, workers)
		if err != nil {
			return err
		}
		games := 0
		for _, h := range ck.History {
			games += h.Games
		}
		best := filepath.Join(runDir, rundir.BestFile)
		data, err := os.ReadFile(best)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		rec := record{Generation: ck.Generation, Games: games, Best: hex.EncodeToString(sum[:8])}
		if n := len(recs); n > 0 && recs[n-1].Best == rec.Best {
			rec.measurement = recs[n-1].measurement // the same best: the same verdict
		} else if rec.measurement, err = t.measure(ctx, t, best); err != nil {
			return err
		}
		if err := appendLog(logPath, rec); err != nil {
			return err
		}
		recs = append(recs, rec)
		fmt.Printf("%s %s seed %d: generation %d, %d games, best %.4g (target %.4g)%s\n",
			t.name, m.name, seed, rec.Generation, rec.Games, rec.Figure, rec.Target, verdict(rec))
		if rec.Pass || rec.Games+t.perGeneration > maxGames {
			return nil
		}
	}
}

func verdict(r record) string {
	switch {
	case r.Pass:
		return ": reached"
	case r.Screened:
		return " (screened out)"
	}
	return ""
}

// advance brings the run in runDir to generation gen: started from the
// config at cfgPath, or resumed with a budget of gen.
func (t *task) advance(ctx context.Context, cfgPath, runDir string, gen, workers int) (*engine.Checkpoint, error) {
	cfg, err := engine.Load(cfgPath)
	if err != nil {
		return nil, err
	}
	defer cfg.Close()
	return quality.Advance(ctx, cfg, runDir, gen, workers)
}

// measureSolo re-measures a Battleship best against over9000 on the same
// fresh deals: screened on the first screenGames, then all 20,000.
func measureSolo(ctx context.Context, t *task, best string) (measurement, error) {
	const games = 20_000
	sg := t.game.(fitness.SoloGame)
	role := t.game.Roles()[0]
	play := func(spec string, n int) ([]float64, error) {
		p, err := fitness.ParseSpec(t.game, role, spec)
		if err != nil {
			return nil, err
		}
		opp, err := fitness.ParseSpec(t.game, sg.Solo().Opponent, sg.Solo().DefaultOpponent)
		if err != nil {
			return nil, err
		}
		ms := make([]fitness.Match, n)
		for i := range ms {
			ms[i] = fitness.Match{A: p, B: opp, Seed: fitness.Derive(freshSeed, uint64(i))}
		}
		return fitness.PlaySoloMatches(ctx, sg, ms, 1, nil)
	}
	if t.ref == nil {
		ref, err := play("over9000", games)
		if err != nil {
			return measurement{}, err
		}
		t.ref = ref
	}
	screen, err := play("tuned:"+best, screenGames)
	if err != nil {
		return measurement{}, err
	}
	d := make([]float64, screenGames)
	for i := range d {
		d[i] = screen[i] - t.ref[i]
	}
	md, sd := fitness.MeanSD(d)
	if md-3*sd/math.Sqrt(screenGames) > 0 {
		refMean, _ := fitness.MeanSD(t.ref[:screenGames])
		return measurement{Figure: refMean + md, Target: refMean, Games: screenGames, Screened: true}, nil
	}
	all, err := play("tuned:"+best, games)
	if err != nil {
		return measurement{}, err
	}
	mean, _ := fitness.MeanSD(all)
	refMean, _ := fitness.MeanSD(t.ref)
	return measurement{Figure: mean, Target: refMean, Games: games, Pass: mean <= refMean}, nil
}

// measureHadron plays a Hadron best against aenigma on 1,000 fresh
// seat-swapped pairs (screened on the first 200).
func measureHadron(ctx context.Context, t *task, best string) (measurement, error) {
	const pairs, screenPairs, want = 1000, 200, 0.55
	role := t.game.Roles()[0]
	p, err := fitness.ParseSpec(t.game, role, "tuned:"+best)
	if err != nil {
		return measurement{}, err
	}
	opp, err := fitness.ParseSpec(t.game, role, "aenigma")
	if err != nil {
		return measurement{}, err
	}
	screen, err := fitness.PlayPairs(ctx, t.game, p, opp, 2*screenPairs, freshSeed, 1, nil)
	if err != nil {
		return measurement{}, err
	}
	// The screen keeps the per-game (Wilson) interval it was measured
	// with, so the published tables reproduce; it only decides whether
	// to play the full 1,000 pairs, and reports no interval.
	if ci := screen.Tally.CI95(); ci[1]+(ci[1]-ci[0])/2 < want { // about 3 standard errors short
		return measurement{Figure: screen.Score(), Target: want, Games: screen.Games(), Screened: true}, nil
	}
	all, err := fitness.PlayPairs(ctx, t.game, p, opp, 2*pairs, freshSeed, 1, nil)
	if err != nil {
		return measurement{}, err
	}
	return measurement{Figure: all.Score(), Target: want, Games: all.Games(), Pass: all.Score() >= want}, nil
}

func readLog(path string) ([]record, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			break // a line torn by a kill: the generation is measured again
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

func appendLog(path string, r record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// outcome is where one run stands.
type outcome struct {
	seed    int
	games   int // games until the target, or played so far
	reached bool
	done    bool // reached, or out of budget
	figure  float64
	// saved is the games racing saved up to the last measured
	// generation (generations.csv's saved column; 0 without racing).
	saved int
}

// savedGames sums generations.csv's saved column over the run's first
// gens generations.
func savedGames(runDir string, gens int) (int, error) {
	data, err := os.ReadFile(filepath.Join(runDir, rundir.GenerationsFile))
	if err != nil {
		return 0, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	head := strings.Split(lines[0], ",")
	col := slices.Index(head, "saved")
	if col < 0 {
		return 0, nil
	}
	total := 0
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		var gen, saved int
		if len(f) != len(head) {
			return 0, fmt.Errorf("%s: a row of %d fields: %q", runDir, len(f), line)
		}
		if _, err := fmt.Sscan(f[0], &gen); err != nil {
			return 0, fmt.Errorf("%s: %q: %v", runDir, line, err)
		}
		if _, err := fmt.Sscan(f[col], &saved); err != nil {
			return 0, fmt.Errorf("%s: %q: %v", runDir, line, err)
		}
		if gen <= gens {
			total += saved
		}
	}
	return total, nil
}

func report(t *task, dir string, ms []method, seeds, maxGames int) error {
	type row struct {
		name     string
		outcomes []outcome
	}
	var rows []row
	for _, m := range ms {
		r := row{name: m.name}
		for seed := 1; seed <= seeds; seed++ {
			recs, err := readLog(filepath.Join(dir, m.name, fmt.Sprintf("seed%d.jsonl", seed)))
			if err != nil {
				return err
			}
			if len(recs) == 0 {
				continue
			}
			last := recs[len(recs)-1]
			saved, err := savedGames(filepath.Join(dir, m.name, fmt.Sprintf("seed%d", seed)), last.Generation)
			if err != nil {
				return err
			}
			r.outcomes = append(r.outcomes, outcome{seed: seed, games: last.Games, reached: last.Pass,
				done: last.Pass || last.Games+t.perGeneration > maxGames, figure: last.Figure, saved: saved})
		}
		rows = append(rows, r)
	}
	fmt.Printf("\n%s: games until the run's best reaches the target (%s); budget %d games a run\n\n", t.name, t.target, maxGames)
	fmt.Println("| method | runs finished | reached | median games | range (reached) | last re-measured best (median) |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, r := range rows {
		var done, reached []int
		var figs []float64
		for _, o := range r.outcomes {
			figs = append(figs, o.figure)
			if !o.done {
				continue
			}
			// A run out of budget counts as more than its budget: the
			// median is still honest while fewer than half ran out.
			g := o.games
			if !o.reached {
				g = math.MaxInt
			}
			done = append(done, g)
			if o.reached {
				reached = append(reached, o.games)
			}
		}
		sort.Ints(reached)
		med, rng := medianGames(done, maxGames), "—"
		if len(reached) > 0 {
			rng = fmt.Sprintf("%d to %d", reached[0], reached[len(reached)-1])
		}
		fig := "—"
		if len(figs) > 0 {
			sort.Float64s(figs)
			fig = fmt.Sprintf("%.4g", (figs[(len(figs)-1)/2]+figs[len(figs)/2])/2)
		}
		fmt.Printf("| %s | %d of %d | %d | %s | %s | %s |\n", r.name, len(done), seeds, len(reached), med, rng, fig)
	}
	var fewest string
	fewestGames, randomGames := math.MaxInt, 0
	for _, r := range rows {
		g, ok := medianReached(r.outcomes, seeds)
		if !ok {
			continue
		}
		if r.name == "random-search" {
			randomGames = g
		}
		if g < fewestGames {
			fewest, fewestGames = r.name, g
		}
	}
	if fewest != "" && randomGames > 0 {
		fmt.Printf("\nfewest median games: %s, %d, %.0f%% of random search's %d (target: at most 50%%)\n",
			fewest, fewestGames, 100*float64(fewestGames)/float64(randomGames), randomGames)
	}
	byName := map[string][]outcome{}
	for _, r := range rows {
		byName[r.name] = r.outcomes
	}
	for _, r := range rows {
		plain, ok := strings.CutSuffix(r.name, "+racing")
		if ok && byName[plain] != nil {
			racingTable(os.Stdout, plain, byName[plain], r.outcomes)
		}
	}
	var pts []plot.ReachRow
	for _, r := range rows {
		pr := plot.ReachRow{Name: r.name}
		for _, o := range r.outcomes {
			pr.Points = append(pr.Points, plot.ReachPoint{Games: o.games, Reached: o.reached, Done: o.done})
		}
		pts = append(pts, pr)
	}
	svg := filepath.Join(dir, "games-to-target.svg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(svg, plot.Reach{Title: t.name + ": games until the best reaches the target", MaxGames: maxGames, Rows: pts}.SVG(), 0o644); err != nil {
		return err
	}
	fmt.Printf("\npicture: %s\n", svg)
	return nil
}

// medianReached is the median of a method's games to the target once
// every seed's run is finished, a run out of budget counting as more
// than any: a number only when the middle runs reached the target.
func medianReached(runs []outcome, seeds int) (int, bool) {
	var g []int
	for _, o := range runs {
		switch {
		case o.reached:
			g = append(g, o.games)
		case o.done:
			g = append(g, math.MaxInt)
		default:
			return 0, false
		}
	}
	if len(g) != seeds || len(g) == 0 {
		return 0, false
	}
	sort.Ints(g)
	a, b := g[(len(g)-1)/2], g[len(g)/2]
	if b == math.MaxInt {
		return 0, false
	}
	return (a + b) / 2, true
}

// racingTable compares a model's racing runs with its plain ones, seed
// by seed: the games each needed, the cut, the share of the full budget
// racing saved in its run, and the re-measured best each ended on.
func racingTable(w io.Writer, name string, plain, racing []outcome) {
	bySeed := map[int]outcome{}
	for _, o := range plain {
		bySeed[o.seed] = o
	}
	games := func(o outcome) string {
		if !o.done {
			return fmt.Sprintf("%d (running)", o.games)
		}
		if !o.reached {
			return fmt.Sprintf("> %d", o.games)
		}
		return fmt.Sprint(o.games)
	}
	fmt.Fprintf(w, "\n%s with racing against without, by seed:\n\n", name)
	fmt.Fprintln(w, "| seed | games, plain | games, racing | cut | racing saved (of its full budget) | best at the end, plain | best at the end, racing |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	var gp, gr []int
	saved, budget := 0, 0
	for _, r := range racing {
		p, ok := bySeed[r.seed]
		if !ok {
			continue
		}
		cut := "—"
		if p.reached && r.reached {
			cut = fmt.Sprintf("%.0f%%", 100*(1-float64(r.games)/float64(p.games)))
			gp, gr = append(gp, p.games), append(gr, r.games)
		}
		saved += r.saved
		budget += r.games + r.saved
		fmt.Fprintf(w, "| %d | %s | %s | %s | %.0f%% | %.4g | %.4g |\n", r.seed, games(p), games(r), cut,
			100*float64(r.saved)/float64(max(1, r.games+r.saved)), p.figure, r.figure)
	}
	if len(gp) > 0 {
		sort.Ints(gp)
		sort.Ints(gr)
		mp, mr := (gp[(len(gp)-1)/2]+gp[len(gp)/2])/2, (gr[(len(gr)-1)/2]+gr[len(gr)/2])/2
		fmt.Fprintf(w, "\nmedians over the %d seeds both reached: %d plain, %d racing (cut %.0f%%); racing saved %.0f%% of its runs' full budgets\n",
			len(gp), mp, mr, 100*(1-float64(mr)/float64(mp)), 100*float64(saved)/float64(max(1, budget)))
	}
}

// medianGames is the median of finished runs' games, where a run out of
// budget (math.MaxInt) counts as more than the budget: exact while the
// middle runs reached the target, a bound otherwise.
func medianGames(done []int, maxGames int) string {
	if len(done) == 0 {
		return "—"
	}
	done = slices.Clone(done)
	sort.Ints(done)
	m, m2 := done[(len(done)-1)/2], done[len(done)/2]
	switch {
	case m == math.MaxInt:
		return fmt.Sprintf("> %d", maxGames)
	case m2 == math.MaxInt:
		return fmt.Sprintf(">= %d", m)
	}
	return fmt.Sprint((m + m2) / 2)
}
