package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// scheduleOf builds a runner for a score-objective config with population
// n and the given fitness section, and lists generation 3's games with
// hof as the hall of fame's players.
func scheduleOf(t *testing.T, n int, fitnessSection string, hof int) []job {
	t.Helper()
	text := strings.Replace(modeConfig(fitnessSection, "  elitism: 0\n"), "population: 6", fmt.Sprintf("population: %d", n), 1)
	text = strings.Replace(text, "tournament-size: 2", "tournament-size: 1", 1)
	cfg := loadText(t, t.TempDir(), text)
	r := newRunner(cfg, Options{Dir: t.TempDir()})
	var players []fitness.Player
	for range hof {
		p, err := r.player(cfg.species[0], cfg.species[0].space.Random(fitness.NewRand(uint64(len(players)))))
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	return r.schedule(3, []int{n}, [][]fitness.Player{players})
}

// TestScheduleDeals checks the generation's games: every individual meets
// every baseline and hall-of-fame opponent on the same deals (common
// random numbers), head-to-head games come in seat-swapped pairs on one
// deal, distinct pairs and pairings get distinct deals, and population
// pairings give everyone the same number of opponents, never itself.
func TestScheduleDeals(t *testing.T) {
	jobs := scheduleOf(t, 6, "  objective: score\n  baselines: {games: 4, opponents: [over9000, bob]}\n"+
		"  population: {opponents: 3, games: 4}\n  hall-of-fame: {members: 2, games: 2}\n", 2)
	byMode := map[int][]job{}
	for _, j := range jobs {
		byMode[j.mode] = append(byMode[j.mode], j)
	}
	if n := len(byMode[modeBaselines]); n != 6*2*4 {
		t.Errorf("%d baseline games, want 6 individuals x 2 opponents x 4", n)
	}
	if n := len(byMode[modeHallOfFame]); n != 6*2*2 {
		t.Errorf("%d hall-of-fame games, want 6 x 2 members x 2", n)
	}
	for _, mode := range []int{modeBaselines, modeHallOfFame} {
		deals := map[int][]string{}
		for _, j := range byMode[mode] {
			if j.b != -1 || j.opp == nil || j.solo {
				t.Fatalf("mode %d: job %+v is not a game against a fixed player", mode, j)
			}
			deals[j.a] = append(deals[j.a], fmt.Sprintf("%s %#x %v", j.opp.Name(), j.seed, j.swap))
		}
		for i := range 6 {
			if !slices.Equal(deals[i], deals[0]) {
				t.Errorf("mode %d: individual %d meets other deals than individual 0:\n%v\n%v", mode, i, deals[i], deals[0])
			}
		}
		checkPairs(t, fmt.Sprintf("mode %d", mode), byMode[mode][:len(deals[0])])
	}
	pop := byMode[modePopulation]
	if len(pop) != 12*4 {
		t.Errorf("%d population games, want 12 pairings x 4", len(pop))
	}
	checkPairs(t, "population", pop)
	met := map[int][]int{}
	for k := 0; k < len(pop); k += 4 {
		j := pop[k]
		if j.a == j.b || j.opp != nil || j.between {
			t.Fatalf("population job %+v", j)
		}
		met[j.a] = append(met[j.a], j.b)
		met[j.b] = append(met[j.b], j.a)
	}
	for i := range 6 {
		if len(met[i]) != 4 {
			t.Errorf("individual %d meets %v, want 4 others (2 per offset)", i, met[i])
		}
	}
}

// TestScheduleSmallPopulations: with opponents one short of the
// population, the offset of half the population pairs everyone once, not
// twice, so everyone meets every other exactly once.
func TestScheduleSmallPopulations(t *testing.T) {
	for _, n := range []int{2, 4, 6} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			jobs := scheduleOf(t, n, fmt.Sprintf("  objective: score\n  population: {opponents: %d, games: 2}\n", n-1), 0)
			met := map[int][]int{}
			for k := 0; k < len(jobs); k += 2 {
				met[jobs[k].a] = append(met[jobs[k].a], jobs[k].b)
				met[jobs[k].b] = append(met[jobs[k].b], jobs[k].a)
			}
			for i := range n {
				others := slices.Sorted(slices.Values(met[i]))
				want := []int{}
				for o := range n {
					if o != i {
						want = append(want, o)
					}
				}
				if !slices.Equal(others, want) {
					t.Errorf("individual %d meets %v, want each of %v once", i, others, want)
				}
			}
		})
	}
}

// TestScheduleSoloGames: under the shots objective every game is a solo
// game on its own deal, with no seats to swap.
func TestScheduleSoloGames(t *testing.T) {
	jobs := scheduleOf(t, 3, "  baselines: {games: 5}\n", 0)
	if len(jobs) != 15 {
		t.Fatalf("%d games, want 3 x 5", len(jobs))
	}
	seeds := map[uint64]bool{}
	for _, j := range jobs[:5] {
		if !j.solo || j.swap || j.mode != modeBaselines {
			t.Fatalf("job %+v", j)
		}
		seeds[j.seed] = true
	}
	if len(seeds) != 5 {
		t.Errorf("5 games on %d deals", len(seeds))
	}
	for k, j := range jobs {
		if j.seed != jobs[k%5].seed || j.a != k/5 {
			t.Fatalf("game %d: individual %d on deal %#x, want individual %d on the deal of game %d", k, j.a, j.seed, k/5, k%5)
		}
	}
}

// checkPairs: consecutive games form pairs on one deal, first with a in
// the first seat, then swapped; no two pairs share a deal.
func checkPairs(t *testing.T, what string, jobs []job) {
	t.Helper()
	seen := map[uint64]bool{}
	for k := 0; k+1 < len(jobs); k += 2 {
		a, b := jobs[k], jobs[k+1]
		if a.seed != b.seed || a.swap || !b.swap || a.a != b.a || a.b != b.b {
			t.Fatalf("%s: games %d and %d are not a seat-swapped pair: %+v %+v", what, k, k+1, a, b)
		}
		if seen[a.seed] {
			t.Fatalf("%s: deal %#x used by two pairs", what, a.seed)
		}
		seen[a.seed] = true
	}
}
