package engine

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

// TestSortBestKeepsTiesInPlace: members of equal fitness keep their pool
// order, best first by cost in either direction; the hall of fame, the
// elite and the natural-selection keepers are read off this order, so a
// tie must not depend on the sort's internals.
func TestSortBestKeepsTiesInPlace(t *testing.T) {
	for _, tc := range []struct {
		name     string
		minimise bool
		fits     []float64
		want     []float64 // the genes (pool positions), in sorted order
	}{
		{"maximise, all tied", false, []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, []float64{0, 1, 2, 3, 4, 5, 6, 7}},
		{"maximise, ties among others", false, []float64{0.2, 0.7, 0.2, 0.7, 0.9, 0.2}, []float64{4, 1, 3, 0, 2, 5}},
		{"minimise, ties among others", true, []float64{0.2, 0.7, 0.2, 0.7, 0.1, 0.2}, []float64{4, 0, 2, 5, 1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := &species{minimise: tc.minimise}
			ms := make([]Member, len(tc.fits))
			for i, f := range tc.fits {
				ms[i] = Member{Genes: []float64{float64(i)}, Fitness: f}
			}
			sp.sortBest(ms)
			for i, m := range ms {
				if m.Genes[0] != tc.want[i] {
					t.Fatalf("position %d holds member %v, want %v (fitness %v)", i, m.Genes[0], tc.want[i], tc.fits)
				}
			}
		})
	}
}
