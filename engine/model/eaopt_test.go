package model

import (
	"strings"
	"testing"

	"github.com/MaxHalford/eaopt"
)

func tournamentField(costs ...float64) eaopt.Individuals {
	var indis eaopt.Individuals
	for i, c := range costs {
		indis = append(indis, eaopt.Individual{Genome: &eaGenome{genes: []float64{float64(i)}}, Fitness: c, Evaluated: true})
	}
	return indis
}

// TestTournamentTiesAndShortFields: among equally fit contestants the
// lowest index wins, whatever order they are drawn in (so selection does
// not depend on the shuffle when costs tie), and a field too small for n
// distinct winners is an error, not a panic in the draw.
func TestTournamentTiesAndShortFields(t *testing.T) {
	for _, tc := range []struct {
		name    string
		size    int
		n       uint
		costs   []float64
		wantIdx []int  // for every seed
		wantErr string // substring
	}{
		{name: "all tied, everyone drawn", size: 5, n: 1, costs: []float64{3, 3, 3, 3, 3}, wantIdx: []int{0}},
		{name: "tie for best", size: 4, n: 1, costs: []float64{4, 1, 2, 1}, wantIdx: []int{1}},
		{name: "one short", size: 3, n: 2, costs: []float64{1, 2, 3}, wantErr: "tournament of 3 needs 4 individuals, have 3"},
		{name: "exactly enough", size: 3, n: 2, costs: []float64{1, 2, 3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(30) {
				won, idx, err := tournament{size: tc.size}.Apply(tc.n, tournamentField(tc.costs...), newEaoptRand(seed))
				if tc.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
						t.Fatalf("seed %d: err %v, want %q", seed, err, tc.wantErr)
					}
					return
				}
				if err != nil || len(won) != int(tc.n) {
					t.Fatalf("seed %d: %d winners, %v", seed, len(won), err)
				}
				for k, want := range tc.wantIdx {
					if idx[k] != want {
						t.Fatalf("seed %d: winner %d is index %d, want %d", seed, k, idx[k], want)
					}
				}
			}
		})
	}
}

// TestTournamentValidate: the config allows tournament-size 1 (uniform
// selection), so the selector must accept it; 0 is refused.
func TestTournamentValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		ok   bool
	}{
		{"zero", 0, false},
		{"one: uniform selection", 1, true},
		{"three", 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := (tournament{size: tc.size}).Validate(); (err == nil) != tc.ok {
				t.Fatalf("Validate size %d: %v", tc.size, err)
			}
		})
	}
}

func TestTournamentReportsTheWinnersIndex(t *testing.T) {
	// Costs 10, 9, ..., 5: with everyone in the tournament the last one
	// (lowest cost) must win, whoever is drawn first. eaopt v0.4.2's
	// SelTournament reports index 0 when its first contestant wins.
	var indis eaopt.Individuals
	for i := range 6 {
		indis = append(indis, eaopt.Individual{Genome: &eaGenome{genes: []float64{float64(i)}}, Fitness: float64(10 - i), Evaluated: true})
	}
	for seed := range uint64(20) {
		won, idx, err := tournament{size: 6}.Apply(1, indis, newEaoptRand(seed))
		if err != nil {
			t.Fatal(err)
		}
		if idx[0] != 5 || won[0].Fitness != 5 {
			t.Fatalf("seed %d: index %d, fitness %v; want index 5, fitness 5", seed, idx[0], won[0].Fitness)
		}
	}
	// Two winners are distinct individuals.
	won, idx, err := tournament{size: 2}.Apply(2, indis, newEaoptRand(1))
	if err != nil || idx[0] == idx[1] || won[0].Fitness != indis[idx[0]].Fitness || won[1].Fitness != indis[idx[1]].Fitness {
		t.Fatalf("two winners: %v %v %v", idx, won, err)
	}
}
