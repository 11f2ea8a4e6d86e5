package battleship

import (
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestRecycledGunnersPlayAsNew: a shooter hands each game a gunner its
// last game left (densityShooter.gunners), so nothing of a game may reach
// the next: every game a shooter plays after others, solo or head to
// head, equals the same game played by a shooter that never played
// before. Rules cover every reveal, and a fleet too large for the
// gunner's inline buffers; parameters are random draws of the tuned
// shooter's whole schema, the posterior model included.
func TestRecycledGunnersPlayAsNew(t *testing.T) {
	rules := []struct {
		name string
		r    Rules
	}{
		{"classic", Classic()},
		{"reveal ship", Rules{W: 10, H: 10, Fleet: []int{5, 4, 3, 3, 2}, Reveal: RevealShip}},
		{"hits only", Rules{W: 8, H: 9, Fleet: []int{4, 3, 2}, Reveal: RevealHitsOnly}},
		{"large fleet", Rules{W: 11, H: 11, Fleet: []int{6, 5, 4, 3, 3, 2, 2}, Reveal: RevealSunk}},
	}
	for _, tc := range rules {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeometry(t, tc.r)
			space, err := genome.NewSpace(tunedSchema(g.Rules), nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := fitness.NewRand(fitness.Derive(5, 7))
			for d := range 6 {
				v, err := space.Decode(space.Random(rng))
				if err == nil && d%3 == 2 {
					v, err = v.With(tunedSamples, genome.Value{Num: 16}) // a cheap posterior
				} else if err == nil {
					v, err = v.With(tunedModel, genome.Value{Str: modelDensity.String()})
				}
				if err != nil {
					t.Fatal(err)
				}
				fresh := func() *densityShooter {
					s, err := tunedShooter(g, v)
					if err != nil {
						t.Fatal(err)
					}
					return s
				}
				used, rival := fresh(), fresh()
				for seed := range uint64(6) {
					if got, want := g.Solo(used, randomPlacer{}, seed), g.Solo(fresh(), randomPlacer{}, seed); got != want {
						t.Errorf("draw %d, seed %d: %d shots after other games, %d by a new shooter", d, seed, got, want)
					}
					if got, want := g.HeadToHead(used, rival, randomPlacer{}, seed), g.HeadToHead(fresh(), fresh(), randomPlacer{}, seed); got != want {
						t.Errorf("draw %d, seed %d: head to head %v after other games, %v by new shooters", d, seed, got, want)
					}
				}
			}
		})
	}
}

// TestStartAfterRecycleAllocatesNothing: a density shooter whose last
// game's gunner came back starts the next game on it, allocating
// nothing: the point of recycling (a gunner is some 17 KB).
func TestStartAfterRecycleAllocatesNothing(t *testing.T) {
	if densRace {
		t.Skip("under -race, sync.Pool drops a share of what it is given, on purpose")
	}
	g := mustGeometry(t, Classic())
	v, err := tunedSchema(g.Rules).Defaults().With(tunedExponent, genome.Value{Num: 1.7}) // the bounded scorer's scratch too
	if err != nil {
		t.Fatal(err)
	}
	tuned, err := tunedShooter(g, v)
	if err != nil {
		t.Fatal(err)
	}
	o9k, err := over9000Shooter(g)
	if err != nil {
		t.Fatal(err)
	}
	rng := fitness.NewRand(1)
	for _, s := range []*densityShooter{tuned, o9k} {
		recycle(s.Start(g, rng))
		if n := testing.AllocsPerRun(100, func() { recycle(s.Start(g, rng)) }); n > 0 {
			t.Errorf("%s: %.2f allocations a start after a recycled game, want 0", s.Name(), n)
		}
	}
}

// TestObserveIgnoresUnknownShips: a hit naming a ship index the fleet
// does not have (past its end) changes nothing a known ship would: the
// gunner counts the hit and plays on.
func TestObserveIgnoresUnknownShips(t *testing.T) {
	g := mustGeometry(t, Rules{W: 10, H: 10, Fleet: []int{5, 4, 3, 3, 2}, Reveal: RevealShip})
	s, err := tunedShooter(g, tunedSchema(g.Rules).Defaults())
	if err != nil {
		t.Fatal(err)
	}
	gun := s.Start(g, fitness.NewRand(1)).(*densityGunner)
	n := len(g.Fleet)
	gun.Observe(Shot{Cell: 44, Hit: true, Ship: n, Sunk: -1})
	gun.Observe(Shot{Cell: 45, Hit: true, Ship: n, Sunk: n})
	if !gun.hits.Has(44) || !gun.hits.Has(45) || !gun.resolved.Empty() || slices.Contains(gun.afloat, false) {
		t.Fatalf("hits %v, resolved %v, afloat %v: want both hits counted and nothing sunk", gun.hits, gun.resolved, gun.afloat)
	}
	if c := gun.Fire(); c < 0 || c >= g.Cells || gun.fired.Has(c) {
		t.Fatalf("fired at %d after the unknown ship's hits", c)
	}
}
