package engine

import (
	"math/rand/v2"
	"testing"
)

// TestPairedIntervals: head-to-head games come in seat-swapped pairs on
// one deal, and a member's interval is taken from the pairs. In coin
// with spread 0 the first seat's win is the deal's alone, so every pair
// splits 1-1: each individual scores 1/2 exactly, with nothing uncertain,
// where the games taken one by one would claim +-0.1 over 100 games.
func TestPairedIntervals(t *testing.T) {
	const text = `seed: 5
game: coin
rules: {spread: 0}
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [even]
    games: 60
  population:
    opponents: 2
    games: 20
  hall-of-fame:
    members: 2
    games: 20
evolution:
  population: 8
  generations: 2
`
	dir := t.TempDir()
	ck := runText(t, text, Options{Dir: dir, Workers: 2})
	for i, m := range append(ck.Population, ck.HallOfFame...) {
		if m.Fitness != 0.5 || m.CI95 != [2]float64{0.5, 0.5} {
			t.Errorf("member %d: %v [%v, %v] over %d games; every pair split, so 0.5 exactly", i, m.Fitness, m.CI95[0], m.CI95[1], m.Games)
		}
	}
}

// TestModeStatsPairs: the variance of the mean comes from the pairs'
// means once there are two pairs, and a pair's second game without its
// first closes nothing.
func TestModeStatsPairs(t *testing.T) {
	var m modeStats
	for _, g := range []struct {
		x      float64
		second bool
	}{{1, false}, {0, true}, {1, false}, {1, true}, {0, true}, {0, false}, {0.5, true}} {
		m.addPaired(g.x, g.second)
	}
	// Pairs: (1, 0) -> 0.5, (1, 1) -> 1, (0, 0.5) -> 0.25; a stray 0.
	if m.pairs != 3 || m.n != 7 {
		t.Fatalf("%v pairs of %v games, want 3 of 7", m.pairs, m.n)
	}
	mean := (0.5 + 1 + 0.25) / 3
	v := ((0.5-mean)*(0.5-mean) + (1-mean)*(1-mean) + (0.25-mean)*(0.25-mean)) / 2 / 3
	if d := m.varMean() - v; d > 1e-15 || d < -1e-15 {
		t.Errorf("varMean %v, want the pairs' %v", m.varMean(), v)
	}
	var one modeStats
	one.addPaired(1, false)
	one.addPaired(0, true)
	if one.varMean() != one.varMeanGames() {
		t.Errorf("one pair: varMean %v, want the games' %v", one.varMean(), one.varMeanGames())
	}
}

// TestMemberIntervalsCover: a member's 95% interval, as combine makes it
// from modeStats, holds the truth in about 95% of samples: head to head
// from seat-swapped pairs where the first seat is worth a lot (a
// per-game interval would hold it far more often, so too wide), and for
// a solo cost. 2,000 samples: 93.5% to 96.5% is three standard errors.
func TestMemberIntervalsCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const reps = 2000
	for _, tc := range []struct {
		name  string
		truth float64
		play  func(m *modeStats)
	}{
		{"head to head, strong first seat", 0.55, func(m *modeStats) {
			// 100 pairs: A wins in the first seat with 0.85, in the second 0.25.
			for range 100 {
				for _, p := range []float64{0.85, 0.25} {
					x := 0.0
					if rng.Float64() < p {
						x = 1
					}
					m.addPaired(x, p == 0.25)
				}
			}
		}},
		{"solo cost", 45, func(m *modeStats) {
			for range 60 {
				m.add(45 + 9*rng.NormFloat64())
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hit := 0
			for range reps {
				var st [nModes]modeStats
				tc.play(&st[modeBaselines])
				m := combine(nil, 0, st, [nModes]float64{modeBaselines: 1})
				if m.CI95[0] <= tc.truth && tc.truth <= m.CI95[1] {
					hit++
				}
			}
			if c := float64(hit) / reps; c < 0.935 || c > 0.965 {
				t.Errorf("the interval held the truth in %.1f%% of %d samples", 100*c, reps)
			}
		})
	}
}
