package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// simulate plays games games of every pair of players of the given
// strengths that every admits, a winning with the Bradley-Terry
// probability.
func simulate(rng *rand.Rand, theta []float64, games int, every func(i, j int) bool) *Table {
	var t Table
	for i := range theta {
		for j := i + 1; j < len(theta); j++ {
			if !every(i, j) {
				continue
			}
			p := Expected(theta[i], theta[j])
			for range games {
				if rng.Float64() < p {
					t.Add(i, j, 1)
				} else {
					t.Add(i, j, 0)
				}
			}
		}
	}
	return &t
}

// TestFitRecoversKnownStrengths: on simulated games among players of
// known strengths, the fitted ratings (relative to their mean) lie within
// their intervals about 95% of the time and order the players as the
// truth does where the truth differs by more than the noise.
func TestFitRecoversKnownStrengths(t *testing.T) {
	for _, tc := range []struct {
		name    string
		players int
		games   int
		every   func(i, j int) bool
	}{
		{"round robin", 30, 100, func(i, j int) bool { return true }},
		{"sparse: each meets its 6 neighbours", 60, 200, func(i, j int) bool { return j-i <= 3 || i+60-j <= 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			theta := make([]float64, tc.players)
			for i := range theta {
				theta[i] = rng.NormFloat64() // a spread of about 400 Elo
			}
			covered, trials := 0, 0
			var worst float64
			for rep := range 20 {
				_ = rep
				table := simulate(rng, theta, tc.games, tc.every)
				rs, err := Fit(tc.players, table.Pairs(), Options{})
				if err != nil {
					t.Fatal(err)
				}
				// Compare differences from the mean: the scale has no origin.
				var mt, mr float64
				for i := range theta {
					mt += theta[i] / float64(len(theta))
					mr += rs[i].Theta / float64(len(theta))
				}
				for i := range theta {
					err := (rs[i].Theta - mr) - (theta[i] - mt)
					worst = max(worst, math.Abs(err))
					trials++
					if math.Abs(err) <= 1.96*rs[i].SE {
						covered++
					}
				}
			}
			rate := float64(covered) / float64(trials)
			t.Logf("coverage of the 95%% intervals %.3f over %d ratings; worst error %.3f", rate, trials, worst)
			// A fit that did not converge, or intervals given the
			// others' ratings rather than relative to the field (0.74
			// on the sparse graph), miss far more often.
			if rate < 0.9 || rate > 0.99 {
				t.Fatalf("coverage %.3f, want about 0.95", rate)
			}
			if worst > 1 {
				t.Fatalf("worst error %.3f on the log-odds scale: the fit does not recover the strengths", worst)
			}
		})
	}
}

// TestFitIsFiniteForUnbeaten: a player who won every game gets a finite
// rating above everyone's; one who lost every game, below.
func TestFitIsFiniteForUnbeaten(t *testing.T) {
	var table Table
	for range 10 {
		table.Add(0, 1, 1)
		table.Add(1, 2, 0.5)
		table.Add(2, 0, 0)
	}
	rs, err := Fit(3, table.Pairs(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if math.IsNaN(r.Theta) || math.IsInf(r.Theta, 0) || !(r.SE > 0) || math.IsInf(r.SE, 0) {
			t.Fatalf("player %d: %+v, want finite", i, r)
		}
	}
	if !(rs[0].Theta > rs[1].Theta && rs[0].Theta > rs[2].Theta) || rs[1].Games != 20 {
		t.Fatalf("ratings %+v: want the unbeaten player first, 20 games for player 1", rs)
	}
}

func TestFitRefusesBadPairs(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Pair
	}{
		{"self", Pair{A: 1, B: 1, Games: 1}},
		{"out of range", Pair{A: 0, B: 5, Games: 1}},
		{"score above games", Pair{A: 0, B: 1, Games: 1, Score: 2}},
		{"NaN games", Pair{A: 0, B: 1, Games: math.NaN()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Fit(3, []Pair{tc.p}, Options{}); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// TestTableOrder: the pairs of a table do not depend on which side a
// game was recorded from.
func TestTableOrder(t *testing.T) {
	var a, b Table
	a.Add(0, 1, 1)
	a.Add(2, 1, 0.5)
	b.Add(1, 2, 0.5)
	b.Add(1, 0, 0)
	if fmt.Sprint(a.Pairs()) != fmt.Sprint(b.Pairs()) {
		t.Fatalf("%v != %v", a.Pairs(), b.Pairs())
	}
}

func ExampleFit() {
	// Player 0 won 30 of 40 games against player 1.
	var t Table
	for g := range 40 {
		if g < 30 {
			t.Add(0, 1, 1)
		} else {
			t.Add(0, 1, 0)
		}
	}
	rs, _ := Fit(2, t.Pairs(), Options{})
	d := rs[0].Theta - rs[1].Theta
	fmt.Printf("player 0 is %.0f Elo above player 1, expected score %.2f\n", Elo(d), Expected(rs[0].Theta, rs[1].Theta))
	// Output: player 0 is 188 Elo above player 1, expected score 0.75
}
