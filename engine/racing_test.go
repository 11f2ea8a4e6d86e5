package engine

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestTQuantile(t *testing.T) {
	for _, tc := range []struct{ p, df, want float64 }{
		{0.975, 10, 2.228138852},
		{0.95, 5, 2.015048373},
		{0.999, 30, 3.385184866},
		{0.9995, 20, 3.849516},
		{0.975, math.Inf(1), 1.959963985},
		{0.5, 3, 0},
	} {
		t.Run(fmt.Sprintf("p %v df %v", tc.p, tc.df), func(t *testing.T) {
			if got := tQuantile(tc.p, tc.df); math.Abs(got-tc.want) > 1e-4*max(1, tc.want) {
				t.Fatalf("t quantile %v, want %v", got, tc.want)
			}
		})
	}
}

// constructedRace is a race of n individuals whose true costs are spaced
// by gap (in units of the game's noise, sd 1), playing games games
// against one baseline, with every result drawn in advance: the race
// only ever reads the games of the rounds played so far.
func constructedRace(rng *rand.Rand, n, games, keep int, gap float64) (*race, []float64) {
	rc := &race{rounds: 5, keep: keep, minimise: true, weights: [nModes]float64{modeBaselines: 1}, nb: 1, gb: games}
	rc.alpha = raceLevel(0.95, n, keep, rc.rounds)
	full := make([]float64, n)
	for range n {
		rc.res = append(rc.res, make([]float64, games))
		rc.alive = append(rc.alive, true)
	}
	for g := range games {
		common := rng.NormFloat64() // the deal's difficulty, shared by all: common random numbers
		for i := range n {
			x := 10 + gap*float64(i) + common + rng.NormFloat64()
			rc.res[i][g] = x
			full[i] += x / float64(games)
		}
	}
	return rc, full
}

// runRace plays the race's decision rounds and returns the games played.
func runRace(rc *race, n int) int {
	stats := make([][nModes]modeStats, n)
	played := 0
	for r := range rc.rounds {
		lo := 0
		if r > 0 {
			lo = rc.bound(rc.gb, r-1)
		}
		for i := range n {
			if rc.alive[i] {
				played += rc.bound(rc.gb, r) - lo
			}
		}
		if r+1 < rc.rounds {
			rc.decide(r, stats)
		}
	}
	return played
}

// TestRacingNeverDropsTheKeptSet: on constructed races, no individual
// that the full budget puts in the kept set is ever dropped, while the
// race saves games. The examples range from clearly separated players
// to a field of near-equals (where little can be saved). The savings
// asked are above what Bonferroni over every comparison saved (48.5%,
// 35.5%, 1.3%), which raceLevel's bound does better than.
func TestRacingNeverDropsTheKeptSet(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, keep   int
		games     int
		gap       float64
		saveAbove float64 // the share of games the race must save
	}{
		{"spread field, keep 2", 20, 2, 200, 0.1, 0.52},
		{"spread field, keep 5", 20, 5, 200, 0.1, 0.39},
		{"close field, keep 2", 20, 2, 200, 0.02, 0.05},
		{"equal field, keep 3", 12, 3, 100, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var saved float64
			const examples = 50
			for ex := range examples {
				rc, full := constructedRace(rand.New(rand.NewPCG(uint64(ex), 7)), tc.n, tc.games, tc.keep, tc.gap)
				played := runRace(rc, tc.n)
				saved += 1 - float64(played)/float64(tc.n*tc.games)
				order := make([]int, tc.n)
				for i := range order {
					order[i] = i
				}
				sort.SliceStable(order, func(a, b int) bool { return full[order[a]] < full[order[b]] })
				for _, i := range order[:tc.keep] {
					if !rc.alive[i] {
						t.Fatalf("example %d: individual %d, ranked in the kept %d by the full budget, was dropped", ex, i, tc.keep)
					}
				}
			}
			saved /= examples
			t.Logf("games saved: %.1f%%", 100*saved)
			if saved < tc.saveAbove {
				t.Fatalf("racing saved %.1f%% of the games, want at least %.0f%%", 100*saved, 100*tc.saveAbove)
			}
		})
	}
}

// TestRacingErrsAtMostAtItsConfidence: on the field that is hardest for
// racing's level (raceLevel), racing drops one of the true best k in at
// most 5% of races at confidence 0.95. The k-1 best are far ahead, so
// they beat the k-th for sure, and the n-k others trail it by a hair:
// one false claim among their comparisons with the k-th drops it. Here
// raceLevel errs in 2% of races; a level corrected for the looks alone
// (0.05/4), in 22 to 36%; Bonferroni over every comparison, in 0.5% at
// most.
func TestRacingErrsAtMostAtItsConfidence(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, keep int
	}{
		{"16 keeping 2", 16, 2},
		{"16 keeping 8", 16, 8},
		{"40 keeping 5", 40, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const races, games = 400, 100
			errs := 0
			for ex := range races {
				rng := rand.New(rand.NewPCG(uint64(ex), 99))
				rc := &race{rounds: 5, keep: tc.keep, minimise: true, weights: [nModes]float64{modeBaselines: 1}, nb: 1, gb: games}
				rc.alpha = raceLevel(0.95, tc.n, tc.keep, rc.rounds)
				for i := range tc.n {
					mean := 1e-6 // trailing by a hair
					switch {
					case i < tc.keep-1:
						mean = -3 // far ahead
					case i == tc.keep-1:
						mean = 0
					}
					res := make([]float64, games)
					for g := range res {
						res[g] = mean + rng.NormFloat64()
					}
					rc.res = append(rc.res, res)
					rc.alive = append(rc.alive, true)
				}
				runRace(rc, tc.n)
				if !rc.alive[tc.keep-1] {
					errs++
				}
				for i := range tc.keep - 1 {
					if !rc.alive[i] {
						t.Fatalf("race %d dropped individual %d, far ahead", ex, i)
					}
				}
			}
			rate := float64(errs) / races
			t.Logf("the k-th best dropped in %d of %d races (%.1f%%)", errs, races, 100*rate)
			if rate > 0.05 {
				t.Fatalf("the k-th best dropped in %.1f%% of races, want at most 5%%", 100*rate)
			}
		})
	}
}

// racedConfig evolves coin players whose cost is 10*s plus noise in
// [0, 10): low s wins, and a generation holds clear losers to drop.
const racedConfig = `seed: 11
game: coin
player: tuned
rules: {slope: 10, own: 8}
fitness:
  baselines:
    games: 60
evolution:
  population: 16
  generations: 6
  tournament-size: 2
  elitism: 2
racing:
  rounds: 5
  confidence: 0.95
`

// cancelInRace is a Progress that cancels the run once generation gen
// has played games games: a kill in the middle of a race.
type cancelInRace struct {
	gen, games int
	cur        atomic.Int64
	cancel     func()
}

func (c *cancelInRace) StartGeneration(gen, _, _ int) { c.cur.Store(int64(gen)) }
func (c *cancelInRace) Games(done int) {
	if c.cur.Load() == int64(c.gen) && done >= c.games {
		c.cancel()
	}
}
func (c *cancelInRace) EndGeneration(int, GenStats, Member) {}

// TestRacingRunsExactly: a racing run saves games, reports them in
// generations.csv, and gives the same files at any worker count, when
// stopped and resumed, and when killed in the middle of a race; with
// cmaes, CMA-ES is told the dropped rank last, and the checkpoint keeps
// what it was told.
func TestRacingRunsExactly(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		kept       int
	}{
		{"generational", racedConfig, 2},
		{"cmaes", strings.Replace(racedConfig, "  elitism: 2\n", "  model: cmaes\n  step-size: 0.5\n", 1), 8},
	} {
		t.Run(tc.name, func(t *testing.T) { racingRunsExactly(t, tc.text, tc.kept) })
	}
}

func racingRunsExactly(t *testing.T, text string, kept int) {
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := readRun(t, straight)
	csv := strings.Split(strings.TrimSpace(string(want[rundir.GenerationsFile])), "\n")
	if csv[0] != "generation,best,mean,sd,games,saved" {
		t.Fatalf("generations.csv header %q", csv[0])
	}
	full := 16 * 60
	totalSaved := 0
	for _, line := range csv[1:] {
		f := strings.Split(line, ",")
		games, _ := strconv.Atoi(f[4])
		saved, _ := strconv.Atoi(f[5])
		if games+saved != full {
			t.Fatalf("row %q: games and saved add to %d, want the full %d", line, games+saved, full)
		}
		totalSaved += saved
	}
	t.Logf("generations.csv:\n%s", want[rundir.GenerationsFile])
	if totalSaved == 0 {
		t.Fatal("racing saved no games on a field with clear losers")
	}
	svg := want[rundir.ReportFile]
	if !bytes.Contains(svg, []byte(fmt.Sprintf(">%d played, %d saved (", 6*full-totalSaved, totalSaved))) {
		t.Fatalf("report.svg has no racing panel with the totals:\n%.600s", svg)
	}
	for dec := xml.NewDecoder(bytes.NewReader(svg)); ; {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("report.svg is not well-formed: %v", err)
		}
	}
	if os.Getenv("EVOTUNE_KEEP_SVG") != "" {
		_ = os.WriteFile(os.Getenv("EVOTUNE_KEEP_SVG"), svg, 0o644)
	}
	ck, _, err := ReadRun(straight)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ck.Population[:kept] {
		if m.Games != 60 {
			t.Fatalf("population[%d], of the kept %d, played %d games, want the full 60", i, kept, m.Games)
		}
	}
	if told := toldOf(t, ck.SpeciesState); len(told) > 0 {
		if checkToldRanksDroppedLast(t, told[len(told)-1], ck.Population, 60, true) == 0 {
			t.Fatal("nobody dropped in the last generation: the told figures of the dropped are not checked")
		}
	}

	one := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: one, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, want, readRun(t, one), "workers 2 vs 1")

	killed := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Start(ctx, loadText(t, cfgDir, text), Options{Dir: killed, Workers: 2, Progress: &cancelInRace{gen: 3, games: 200, cancel: cancel}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the run cancelled in generation 4", err)
	}
	if ck, _, err := ReadRun(killed); err != nil || ck.Generation != 3 {
		t.Fatalf("checkpoint after the kill: %v, want generation 3", err)
	}
	if _, err := Resume(context.Background(), Options{Dir: killed, Workers: 3}); err != nil {
		t.Fatal(err)
	}
	sameRun(t, want, readRun(t, killed), "killed in a race and resumed")
}

func TestRacingConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"one round", strings.Replace(racedConfig, "rounds: 5", "rounds: 1", 1), "racing.rounds: 1: want from 2 to 100"},
		{"confidence 1", strings.Replace(racedConfig, "confidence: 0.95", "confidence: 1", 1), "racing.confidence: 1: want a probability"},
		{"unknown key", racedConfig + "  patience: 3\n", "racing.patience: unknown key"},
		{"co-evolution", tagConfig + "racing: {}\n", "racing: races the individuals of one species"},
		{"too many results", strings.Replace(strings.Replace(racedConfig, "games: 60", "games: 1000000", 1), "population: 16", "population: 100", 1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("c.yaml", []byte(tc.text))
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "more than the limit of 33554432") {
					t.Fatalf("err %v, want the results limit", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRacingEveryModelRunsExactly: racing head-to-head games (rounds end
// on seat-swapped pairs) with every model, with ratings and the
// remeasure, gives the same files at any worker count and across a
// resume, and never drops the kept set: it plays its full budget.
func TestRacingEveryModelRunsExactly(t *testing.T) {
	const base = `seed: 4
game: coin
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [even]
    games: 200
  population:
    weight: 0.1 # unraced and noisy: a large weight leaves nothing to decide
    opponents: 2
    games: 4
    rating: bradley-terry
  hall-of-fame:
    members: 2
    games: 10
racing:
  rounds: 3
remeasure:
  top: 2
  games: 100
evolution:
  generations: 4
  tournament-size: 2
`
	for _, tc := range []struct {
		name, evolution string
		kept            int
		saves           bool // keeping half the pool, down-to-size drops none here
	}{
		{"generational", "  population: 12\n  elitism: 3\n", 3, true},
		{"natural-selection", "  population: 12\n  model: natural-selection\n  keep: 4\n", 4, true},
		{"down-to-size", "  model: down-to-size\n  population: 6\n  offspring: 6\n", 6, false},
		{"cmaes", "  model: cmaes\n  population: 12\n  step-size: 0.4\n", 6, false}, // keeping half of a field this close, it drops none
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := base + tc.evolution
			cfgDir := t.TempDir()
			straight := t.TempDir()
			if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 3}); err != nil {
				t.Fatal(err)
			}
			want := readRun(t, straight)
			ck, _, err := ReadRun(straight)
			if err != nil {
				t.Fatal(err)
			}
			saved := 0
			for _, h := range ck.History {
				saved += h.Saved
			}
			full := ck.Population[0].Games
			for i, m := range ck.Population[:tc.kept] {
				if m.Games != full {
					t.Fatalf("population[%d], of the kept %d, played %d games, the best %d", i, tc.kept, m.Games, full)
				}
			}
			t.Logf("saved %d games; last generation's games by rank: %v", saved, gamesOf(ck.Population))
			if tc.saves && saved == 0 {
				t.Fatal("racing saved no games")
			}
			if told := toldOf(t, ck.SpeciesState); len(told) > 0 {
				checkToldRanksDroppedLast(t, told[len(told)-1], ck.Population, full, false)
			}
			dir := t.TempDir()
			stop := make(chan struct{})
			_, err = Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 1, Stop: stop, Progress: &stopAt{after: 2, stop: stop}})
			if !errors.Is(err, ErrStopped) {
				t.Fatalf("err %v, want ErrStopped", err)
			}
			if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			sameRun(t, want, readRun(t, dir), "stopped after 2, resumed at other workers")
		})
	}
}

// checkToldRanksDroppedLast checks what CMA-ES was told of a raced
// generation (told, in pool order, as a fitness): the finishers of pop
// (those that played full games) their fitness, every dropped one its
// partial figure shifted past the worst finisher as raceCosts does. It
// returns the number dropped.
func checkToldRanksDroppedLast(t *testing.T, told []float64, pop []Member, full int, minimise bool) int {
	t.Helper()
	sign := 1.0
	if !minimise {
		sign = -1
	}
	var finishers, want []float64
	dropped := 0
	worst, best := math.Inf(-1), math.Inf(1)
	for _, m := range pop {
		if c := sign * m.Fitness; m.Games == full {
			finishers = append(finishers, m.Fitness)
			worst = max(worst, c)
		} else {
			best = min(best, c)
			dropped++
		}
	}
	for _, m := range pop {
		if c := sign * m.Fitness; m.Games == full {
			want = append(want, m.Fitness)
		} else {
			want = append(want, sign*(worst+1+(c-best)))
		}
	}
	got := slices.Clone(told)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("told %v; finishers' fitness %v, %d dropped: want %v", told, finishers, dropped, want)
	}
	return dropped
}

func gamesOf(ms []Member) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Games
	}
	return out
}

// TestRacingThenRemeasureMoreThanThePopulation: the remeasure of more
// hall-of-fame members than a generation holds, after a race, plays
// outside the race (it once wrote the remeasure's games into the race).
func TestRacingThenRemeasureMoreThanThePopulation(t *testing.T) {
	text := strings.Replace(racedConfig, "population: 16", "population: 4", 1) + "remeasure:\n  top: 8\n  games: 20\n"
	dir := t.TempDir()
	startText(t, text, Options{Dir: dir, Workers: 2})
	if ck, _, err := ReadRun(dir); err != nil || len(ck.Remeasured) != 8 {
		t.Fatalf("checkpoint %v; want 8 remeasured", err)
	}
}

// racedHead is a racing config of 64 individuals whose fitness section
// the cases of TestRacingLimitsEdges write.
const racedHead = "seed: 1\ngame: coin\nplayer: tuned\nracing: {}\nevolution:\n  population: 64\n  tournament-size: 2\n  hall-of-fame: 10\nfitness:\n"

// TestRacingLimitsEdges: racing.rounds runs from 2 to 100 and
// racing.confidence from 0.5 up to 1, both lower ends included; the
// results a generation holds (population x the raced games of the modes
// with a weight, baselines and hall of fame) may reach the limit but not
// pass it; racing needs a mode with fixed opponents; and a config whose
// player is unknown (no species) is refused, not a panic.
func TestRacingLimitsEdges(t *testing.T) {
	score := "  objective: score\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"two rounds", strings.Replace(racedConfig, "rounds: 5", "rounds: 2", 1), ""},
		{"100 rounds", strings.Replace(racedConfig, "rounds: 5", "rounds: 100", 1), ""},
		{"101 rounds", strings.Replace(racedConfig, "rounds: 5", "rounds: 101", 1), "racing.rounds: 101: want from 2 to 100"},
		{"confidence 0.5", strings.Replace(racedConfig, "confidence: 0.95", "confidence: 0.5", 1), ""},
		{"confidence 0.49", strings.Replace(racedConfig, "confidence: 0.95", "confidence: 0.49", 1), "racing.confidence: 0.49: want a probability"},
		{"baseline results at the limit", racedHead + "  baselines: {games: 524288}\n", ""},
		{"baseline results past it", racedHead + "  baselines: {games: 524289}\n", "64 individuals x 524289 games is more than the limit of 33554432"},
		{"hall-of-fame results at the limit", racedHead + score + "  hall-of-fame: {members: 8, games: 65536}\n", ""},
		{"hall-of-fame results past it", racedHead + score + "  hall-of-fame: {members: 8, games: 65538}\n", "64 individuals x 524304 games is more than the limit"},
		{"baselines without weight not raced", racedHead + score + "  baselines: {weight: 0, opponents: [even], games: 1000000}\n  hall-of-fame: {members: 2, games: 10}\n", ""},
		{"hall of fame without weight not raced", racedHead + "  baselines: {games: 60}\n  hall-of-fame: {weight: 0, members: 1000, games: 1000000}\n", ""},
		{"population alone", racedHead + score + "  population: {opponents: 2, games: 4}\n", "racing: races the games against fixed opponents (baselines, hall of fame), and neither mode has a weight"},
		{"no species", "game: coin\nplayer: nosuch\nracing: {}\n", `player: coin has no tunable mover "nosuch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("c.yaml", []byte(tc.text))
			wantError(t, err, tc.want)
		})
	}
}

// TestNewRaceLaysOutItsModes: a race takes from its config the raced
// modes that have a weight (baselines: the opponents and games against
// each; hall of fame: the members playing and games against each), the
// set the model keeps, and rounds that, for head-to-head games, end on
// seat-swapped pairs (an even number of games) and otherwise split the
// games as evenly as whole games allow.
func TestNewRaceLaysOutItsModes(t *testing.T) {
	head := "seed: 1\ngame: coin\nplayer: tuned\nracing: {rounds: 5}\nevolution:\n  population: 8\n  tournament-size: 2\n  elitism: 3\nfitness:\n"
	score := "  objective: score\n"
	for _, tc := range []struct {
		name, fitness  string
		nb, gb, nh, gh int
		bounds         []int // bound(games, r) for r of 0 to 4, games gb or else gh
	}{
		{"solo baselines", "  baselines: {games: 7}\n", 1, 7, 0, 0, []int{1, 2, 4, 5, 7}},
		{"head-to-head baselines", score + "  baselines: {opponents: [even], games: 14}\n", 1, 14, 0, 0, []int{2, 4, 8, 10, 14}},
		{"head-to-head, both", score + "  baselines: {opponents: [even], games: 14}\n  hall-of-fame: {members: 2, games: 6}\n", 1, 14, 3, 6, []int{2, 4, 8, 10, 14}},
		{"hall of fame alone", score + "  hall-of-fame: {members: 2, games: 14}\n", 0, 0, 3, 14, []int{2, 4, 8, 10, 14}},
		{"baselines without weight", score + "  baselines: {weight: 0, opponents: [even], games: 14}\n  hall-of-fame: {members: 2, games: 14}\n", 0, 0, 3, 14, []int{2, 4, 8, 10, 14}},
		{"hall of fame without weight", score + "  baselines: {opponents: [even], games: 14}\n  hall-of-fame: {weight: 0, members: 2, games: 6}\n", 1, 14, 0, 0, []int{2, 4, 8, 10, 14}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parse("c.yaml", []byte(head+tc.fitness))
			if err != nil {
				t.Fatal(err)
			}
			const n, hofPlaying = 8, 3
			rc := (&runner{Setup: cfg}).newRace(n, hofPlaying)
			if rc.nb != tc.nb || rc.gb != tc.gb || rc.nh != tc.nh || rc.gh != tc.gh {
				t.Fatalf("baselines %d x %d games, hall of fame %d x %d; want %d x %d, %d x %d", rc.nb, rc.gb, rc.nh, rc.gh, tc.nb, tc.gb, tc.nh, tc.gh)
			}
			if rc.rounds != 5 || rc.keep != 3 || len(rc.res) != n || len(rc.alive) != n {
				t.Fatalf("rounds %d, keep %d, %d results, %d alive; want 5, 3, %d, %d", rc.rounds, rc.keep, len(rc.res), len(rc.alive), n, n)
			}
			for i := range n {
				if len(rc.res[i]) != tc.nb*tc.gb+tc.nh*tc.gh || !rc.alive[i] {
					t.Fatalf("individual %d: %d result slots, alive %v; want %d, alive", i, len(rc.res[i]), rc.alive[i], tc.nb*tc.gb+tc.nh*tc.gh)
				}
			}
			games := tc.gb
			if games == 0 {
				games = tc.gh
			}
			var bounds []int
			for r := range rc.rounds {
				bounds = append(bounds, rc.bound(games, r))
			}
			if fmt.Sprint(bounds) != fmt.Sprint(tc.bounds) {
				t.Fatalf("rounds end after games %v, want %v", bounds, tc.bounds)
			}
		})
	}
}

// TestRaceLevelSums: raceLevel splits 1-confidence over the rounds-1
// looks and, per look, over the comparisons' worth: the sum over the
// ranks q from 1 to k (and below n) of (n-q)/(k-q+1), at least 1.
func TestRaceLevelSums(t *testing.T) {
	for _, tc := range []struct {
		confidence     float64
		n, k, rounds   int
		worth, wantErr float64
	}{
		{0.95, 16, 2, 5, 15.0/2 + 14, 0.05},
		{0.95, 16, 8, 5, 15.0/8 + 14.0/7 + 13.0/6 + 12.0/5 + 11.0/4 + 10.0/3 + 9.0/2 + 8, 0.05},
		{0.9, 4, 4, 3, 3.0/4 + 2.0/3 + 1.0/2, 0.1},
		{0.99, 3, 1, 11, 2, 0.01},
		{0.95, 5, 9, 2, 4.0/9 + 3.0/8 + 2.0/7 + 1.0/6, 0.05}, // keeping more than the race holds
		{0.95, 2, 1, 4, 1, 0.05},
		{0.95, 1, 1, 4, 1, 0.05}, // nobody to compare: worth 0, taken as 1
	} {
		t.Run(fmt.Sprintf("n %d k %d rounds %d", tc.n, tc.k, tc.rounds), func(t *testing.T) {
			want := tc.wantErr / (tc.worth * float64(tc.rounds-1))
			if got := raceLevel(tc.confidence, tc.n, tc.k, tc.rounds); math.Abs(got-want) > 1e-12*want {
				t.Fatalf("raceLevel(%v, %d, %d, %d) = %v, want %v (%v comparisons' worth a look)", tc.confidence, tc.n, tc.k, tc.rounds, got, want, tc.worth)
			}
		})
	}
}

// TestRaceBetterWeighsItsParts: better(j, i) is a one-sided t test of
// the weighted mean difference of j over i (its sign turned when the
// objective is minimised) against the race's level: the raced modes
// paired game by game over the games of the rounds played (each
// opponent's first games), the population mode unpaired, the modes
// weighted by their share of the weights, the degrees of freedom the
// fewest of any part. t is the statistic the results give; the test
// asks at levels whose critical value is just below t (j is better) and
// just above it (it is not). A difference of 0 is never better, one with
// no variance always is.
func TestRaceBetterWeighsItsParts(t *testing.T) {
	zeros := func(n int) []float64 { return make([]float64, n) }
	pop := func(xs ...float64) (m modeStats) {
		for _, x := range xs {
			m.add(x)
		}
		return m
	}
	type want struct {
		t, df float64 // the statistic and degrees of freedom; t 0: never better, +Inf: always
	}
	for _, tc := range []struct {
		name           string
		w              [nModes]float64
		nb, gb, nh, gh int
		rounds, r      int
		minimise       bool
		ri, rj         []float64
		si, sj         modeStats
		want           want
	}{
		{"one baseline, every game", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"one baseline, the first round's games", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 0, false,
			zeros(4), []float64{1, 2, 5, 9}, modeStats{}, modeStats{}, want{3, 1}},
		{"minimised", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 1, true,
			[]float64{1, 2, 1, 2}, zeros(4), modeStats{}, modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"minimised, worse", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 1, true,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, modeStats{}, want{0, 3}},
		{"two baselines, every game", [nModes]float64{modeBaselines: 1}, 2, 2, 0, 0, 3, 2, false,
			zeros(4), []float64{1, 3, 2, 2}, modeStats{}, modeStats{}, want{2 / math.Sqrt(1.0/6), 3}},
		{"two baselines, both sides played", [nModes]float64{modeBaselines: 1}, 2, 2, 0, 0, 3, 2, false,
			[]float64{1, 0, 2, 5}, []float64{2, 3, 4, 7}, modeStats{}, modeStats{}, want{2 / math.Sqrt(1.0/6), 3}},
		{"two hall-of-fame members after an unweighted baseline", [nModes]float64{modeHallOfFame: 1}, 1, 2, 2, 2, 3, 2, false,
			[]float64{9, 9, 1, 0, 2, 5}, []float64{0, 0, 2, 3, 4, 7}, modeStats{}, modeStats{}, want{2 / math.Sqrt(1.0/6), 3}},
		{"two baselines, the first games of each", [nModes]float64{modeBaselines: 1}, 2, 4, 0, 0, 4, 0, false,
			zeros(8), []float64{1, 7, 7, 7, 2, 7, 7, 7}, modeStats{}, modeStats{}, want{3, 1}},
		{"baselines and hall of fame weighted 1 to 3", [nModes]float64{modeBaselines: 1, modeHallOfFame: 3}, 1, 2, 1, 4, 2, 1, false,
			zeros(6), []float64{2, 4, 1, 2, 1, 2}, modeStats{}, modeStats{}, want{1.875 / math.Sqrt(1.0/16+9.0/16/12), 1}},
		{"hall of fame alone", [nModes]float64{modeHallOfFame: 1}, 0, 0, 1, 4, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"baseline weight without baselines", [nModes]float64{modeBaselines: 1, modeHallOfFame: 1}, 0, 0, 1, 4, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"hall-of-fame weight without members", [nModes]float64{modeBaselines: 1, modeHallOfFame: 1}, 1, 4, 0, 4, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"baselines and population, unpaired", [nModes]float64{modeBaselines: 1, modePopulation: 1}, 1, 4, 0, 0, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, pop(0, 2), pop(3, 5, 4), want{2.25 / math.Sqrt(1.0/48+1.0/3), 1}},
		{"population games of one side only", [nModes]float64{modeBaselines: 1, modePopulation: 1}, 1, 4, 0, 0, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, pop(3, 5, 4), want{1.5 / math.Sqrt(1.0/12), 3}},
		{"population games of the other side only", [nModes]float64{modeBaselines: 1, modePopulation: 1}, 1, 4, 0, 0, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, pop(3, 5, 4), modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"hall of fame without weight", [nModes]float64{modeBaselines: 1}, 1, 4, 1, 2, 2, 1, false,
			zeros(6), []float64{1, 2, 1, 2, 9, 0}, modeStats{}, modeStats{}, want{1.5 / math.Sqrt(1.0/12), 3}},
		{"population without weight", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, pop(9, 9), pop(0, 0), want{1.5 / math.Sqrt(1.0/12), 3}},
		{"two games", [nModes]float64{modeBaselines: 1}, 1, 2, 0, 0, 2, 1, false,
			zeros(2), []float64{1, 3}, modeStats{}, modeStats{}, want{2, 1}},
		{"one game", [nModes]float64{modeBaselines: 1}, 1, 1, 0, 0, 2, 1, false,
			zeros(1), []float64{5}, modeStats{}, modeStats{}, want{0, 0}},
		{"no weights", [nModes]float64{}, 1, 4, 0, 0, 2, 1, false,
			zeros(4), []float64{1, 2, 1, 2}, modeStats{}, modeStats{}, want{0, 3}},
		{"equal", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 1, false,
			[]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}, modeStats{}, modeStats{}, want{0, 3}},
		{"better by a constant", [nModes]float64{modeBaselines: 1}, 1, 4, 0, 0, 2, 1, false,
			[]float64{1, 2, 3, 4}, []float64{2, 3, 4, 5}, modeStats{}, modeStats{}, want{math.Inf(1), 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			better := func(alpha float64) bool {
				rc := &race{rounds: tc.rounds, alpha: alpha, minimise: tc.minimise, weights: tc.w, nb: tc.nb, gb: tc.gb, nh: tc.nh, gh: tc.gh,
					res: [][]float64{tc.ri, tc.rj}, alive: []bool{true, true}}
				stats := make([][nModes]modeStats, 2)
				stats[0][modePopulation], stats[1][modePopulation] = tc.si, tc.sj
				return rc.better(1, 0, tc.r, stats)
			}
			switch {
			case tc.want.t == 0:
				if better(0.49) {
					t.Fatal("better at level 0.49, want never")
				}
			case math.IsInf(tc.want.t, 1):
				if !better(1e-12) {
					t.Fatal("not better at level 1e-12, want always")
				}
			default:
				dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: tc.want.df}
				if below := 1 - dist.CDF(tc.want.t*0.999); !better(below) {
					t.Fatalf("not better at level %v (critical t %v), want t %v with %v degrees of freedom", below, tc.want.t*0.999, tc.want.t, tc.want.df)
				}
				if above := 1 - dist.CDF(tc.want.t*1.001); better(above) {
					t.Fatalf("better at level %v (critical t %v), want t %v with %v degrees of freedom", above, tc.want.t*1.001, tc.want.t, tc.want.df)
				}
			}
		})
	}
}

// TestRacePlaysAndRecords: a race plays the population games in its
// first round alone and each raced game in its round (rounds of two
// here, games 0-1 then 2-3 of four against each opponent) while the
// individual is in the race; it records the raced games in slots laid
// out baselines first (by opponent, then game), then the hall of fame
// (likewise), and records no population game.
func TestRacePlaysAndRecords(t *testing.T) {
	rc := &race{rounds: 2, nb: 2, gb: 4, nh: 2, gh: 4, res: [][]float64{make([]float64, 16), make([]float64, 16)}, alive: []bool{true, false}}
	for _, tc := range []struct {
		name  string
		j     job
		slot  int    // -1: not recorded
		plays []bool // in rounds 0 and 1
	}{
		{"population game", job{a: 0, b: 1, mode: modePopulation, game: 3}, -1, []bool{true, false}},
		{"baseline 0, game 0", job{a: 0, opi: 0, mode: modeBaselines, game: 0}, 0, []bool{true, false}},
		{"baseline 0, game 1", job{a: 0, opi: 0, mode: modeBaselines, game: 1}, 1, []bool{true, false}},
		{"baseline 1, game 2", job{a: 0, opi: 1, mode: modeBaselines, game: 2}, 6, []bool{false, true}},
		{"baseline 1, game 3", job{a: 0, opi: 1, mode: modeBaselines, game: 3}, 7, []bool{false, true}},
		{"hall of fame 0, game 1", job{a: 0, opi: 0, mode: modeHallOfFame, game: 1}, 9, []bool{true, false}},
		{"hall of fame 0, game 2", job{a: 0, opi: 0, mode: modeHallOfFame, game: 2}, 10, []bool{false, true}},
		{"hall of fame 1, game 0", job{a: 0, opi: 1, mode: modeHallOfFame, game: 0}, 12, []bool{true, false}},
		{"hall of fame 1, game 3", job{a: 0, opi: 1, mode: modeHallOfFame, game: 3}, 15, []bool{false, true}},
		{"dropped, population game", job{a: 1, b: 0, mode: modePopulation}, -1, []bool{true, false}},
		{"dropped, baseline game", job{a: 1, opi: 1, mode: modeBaselines, game: 0}, 4, []bool{false, false}},
		{"dropped, hall-of-fame game", job{a: 1, opi: 0, mode: modeHallOfFame, game: 3}, 11, []bool{false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for r, want := range tc.plays {
				if got := rc.plays(tc.j, r); got != want {
					t.Fatalf("plays in round %d: %v, want %v", r, got, want)
				}
			}
			for i := range rc.res {
				clear(rc.res[i])
			}
			rc.record(tc.j, 2.5)
			for i, res := range rc.res {
				for s, x := range res {
					if want := i == tc.j.a && s == tc.slot; (x == 2.5) != want {
						t.Fatalf("recorded %v in individual %d's slot %d, want it in slot %d of individual %d", x, i, s, tc.slot, tc.j.a)
					}
				}
			}
		})
	}
}

// TestRaceDecideDropsTheBeaten: a round drops every individual still in
// the race that at least keep others still in it beat, each decided from
// the same results. The results here differ by constants, so every
// difference is significant.
func TestRaceDecideDropsTheBeaten(t *testing.T) {
	for _, tc := range []struct {
		name     string
		level    []float64 // each individual's results are level+{0, 1, 0, 1}
		keep     int
		minimise bool
		alive    []bool
		want     []bool
	}{
		{"keep 2", []float64{3, 0, 2, 1}, 2, false, []bool{true, true, true, true}, []bool{true, false, true, false}},
		{"keep 1", []float64{3, 0, 2, 1}, 1, false, []bool{true, true, true, true}, []bool{true, false, false, false}},
		{"keep 3", []float64{3, 0, 2, 1}, 3, false, []bool{true, true, true, true}, []bool{true, false, true, true}},
		{"minimised", []float64{3, 0, 2, 1}, 2, true, []bool{true, true, true, true}, []bool{false, true, false, true}},
		{"the dropped beat nobody", []float64{3, 0, 2, 1}, 2, false, []bool{false, true, true, true}, []bool{false, false, true, true}},
		{"the dropped stay dropped", []float64{0, 3, 2, 1}, 2, false, []bool{false, true, true, true}, []bool{false, true, true, false}},
		{"ties beat nobody", []float64{1, 1, 1, 0}, 2, false, []bool{true, true, true, true}, []bool{true, true, true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := &race{rounds: 2, alpha: 0.05, keep: tc.keep, minimise: tc.minimise, weights: [nModes]float64{modeBaselines: 1}, nb: 1, gb: 4, alive: slices.Clone(tc.alive)}
			for _, l := range tc.level {
				rc.res = append(rc.res, []float64{l, l + 1, l, l + 1})
			}
			rc.decide(0, make([][nModes]modeStats, len(tc.level)))
			if !slices.Equal(rc.alive, tc.want) {
				t.Fatalf("in the race after the round: %v, want %v", rc.alive, tc.want)
			}
		})
	}
}

// TestSortGenerationPutsTheRaceFirst: with a race over the generation,
// those still in it come first, each group best first (ties in pool
// order); without one, or over a pool of another size (the remeasure),
// the generation is sorted best first alone.
func TestSortGenerationPutsTheRaceFirst(t *testing.T) {
	members := []Member{{Figure: fitness.Figure{Fitness: 5}}, {Figure: fitness.Figure{Fitness: 1}}, {Figure: fitness.Figure{Fitness: 3}}, {Figure: fitness.Figure{Fitness: 2}}, {Figure: fitness.Figure{Fitness: 4}}, {Figure: fitness.Figure{Fitness: 2, Games: 1}}}
	fits := func(ms []Member) string {
		var out []string
		for _, m := range ms {
			out = append(out, fmt.Sprintf("%g/%d", m.Fitness, m.Games))
		}
		return fmt.Sprint(out)
	}
	for _, tc := range []struct {
		name     string
		alive    []bool // nil: no race
		minimise bool
		want     string
	}{
		{"no race", nil, true, "[1/0 2/0 2/1 3/0 4/0 5/0]"},
		{"no race, maximised", nil, false, "[5/0 4/0 3/0 2/0 2/1 1/0]"},
		{"raced", []bool{true, false, true, true, false, true}, true, "[2/0 2/1 3/0 5/0 1/0 4/0]"},
		{"raced, maximised", []bool{true, false, true, true, false, true}, false, "[5/0 3/0 2/0 2/1 4/0 1/0]"},
		{"nobody dropped", []bool{true, true, true, true, true, true}, true, "[1/0 2/0 2/1 3/0 4/0 5/0]"},
		{"a race of another size", []bool{true, false, true, true, false}, true, "[1/0 2/0 2/1 3/0 4/0 5/0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &runner{}
			if tc.alive != nil {
				r.race = &race{alive: tc.alive}
			}
			in := slices.Clone(members)
			var got []Member
			for _, i := range r.rankGeneration(&species{minimise: tc.minimise}, in) {
				got = append(got, in[i])
			}
			if fits(got) != tc.want {
				t.Fatalf("sorted %s, want %s", fits(got), tc.want)
			}
			if fits(in) != fits(members) {
				t.Fatalf("sorting changed its input to %s", fits(in))
			}
		})
	}
}

// TestRacingCSVColumns: generations.csv of a racing run has the games
// played and saved after the figures, written in full.
func TestRacingCSVColumns(t *testing.T) {
	got := string(racingCSV([]GenStats{{Generation: 1, Best: 0.125, Mean: -2.5, SD: 1e-9, Games: 960, Saved: 0}, {Generation: 2, Best: 1.0 / 3, Mean: 12345678901, SD: 0, Games: 700, Saved: 260}}))
	const want = "generation,best,mean,sd,games,saved\n1,0.125,-2.5,1e-09,960,0\n2,0.3333333333,1.23456789e+10,0,700,260\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
