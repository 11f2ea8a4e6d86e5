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
	csv := strings.Split(strings.TrimSpace(string(want[fileGenerations])), "\n")
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
	t.Logf("generations.csv:\n%s", want[fileGenerations])
	if totalSaved == 0 {
		t.Fatal("racing saved no games on a field with clear losers")
	}
	svg := want[fileReport]
	if !bytes.Contains(svg, []byte(fmt.Sprintf(">%d played, %d saved (", 6*full-totalSaved, totalSaved))) {
		t.Fatalf("report.svg has no racing panel with the totals:\n%s", clip(svg))
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
	ck, _, err := ReadCheckpoint(straight)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ck.Population[:kept] {
		if m.Games != 60 {
			t.Fatalf("population[%d], of the kept %d, played %d games, want the full 60", i, kept, m.Games)
		}
	}
	if len(ck.Told) > 0 {
		if checkToldRanksDroppedLast(t, ck.Told[len(ck.Told)-1], ck.Population, 60, true) == 0 {
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
	if ck, _, err := ReadCheckpoint(killed); err != nil || ck.Generation != 3 {
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
			_, err := Parse("c.yaml", []byte(tc.text))
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
			ck, _, err := ReadCheckpoint(straight)
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
			if len(ck.Told) > 0 {
				checkToldRanksDroppedLast(t, ck.Told[len(ck.Told)-1], ck.Population, full, false)
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
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if ck, _, err := ReadCheckpoint(dir); err != nil || len(ck.Remeasured) != 8 {
		t.Fatalf("checkpoint %v; want 8 remeasured", err)
	}
}
