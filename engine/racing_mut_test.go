package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

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
			_, err := Parse("c.yaml", []byte(tc.text))
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
			cfg, err := Parse("c.yaml", []byte(head+tc.fitness))
			if err != nil {
				t.Fatal(err)
			}
			const n, hofPlaying = 8, 3
			rc := (&runner{cfg: cfg}).newRace(n, hofPlaying)
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
	members := []Member{{Fitness: 5}, {Fitness: 1}, {Fitness: 3}, {Fitness: 2}, {Fitness: 4}, {Fitness: 2, Games: 1}}
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
			got := r.sortGeneration(&species{minimise: tc.minimise}, in)
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
