package battleship

import (
	"fmt"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// classicShooters are the seed-000 and seed-002 shooters (tierlist.go,
// cs32.go).
var classicShooters = []Shooter{tierListShooter{}, mediocreShooter{}, goodShooter{}}

// classicRules are the rule sets the classic shooters are tried under:
// every reveal rule on the classic board, and boards and fleets that are
// not classic.
func classicRules() []Rules {
	sunk, hits, ship := Classic(), Classic(), Classic()
	hits.Reveal, ship.Reveal = RevealHitsOnly, RevealShip
	return []Rules{
		sunk, hits, ship,
		{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealSunk},
		{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealHitsOnly},
		{W: 11, H: 11, Fleet: []int{5, 4, 3, 3, 2}, Reveal: RevealShip},
		{W: 12, H: 10, Fleet: []int{6, 5, 4, 3, 3, 2}, Reveal: RevealSunk},
		{W: 7, H: 5, Fleet: []int{1, 2, 3}, Reveal: RevealSunk},
		{W: 5, H: 5, Fleet: []int{5, 5, 2}, Reveal: RevealHitsOnly},
	}
}

// playChecked plays one solo game of s against layout l, failing the test
// (instead of panicking) on an off-board or repeated shot or a game that
// ends before every ship cell is hit, and returns the number of shots.
func playChecked(t testing.TB, g *Geometry, s Shooter, l Layout, seed uint64) int {
	t.Helper()
	target := newFleet(g, l)
	gun := s.Start(g, fitness.NewRand(seed))
	var fired Bits
	shots := 0
	for target.afloat > 0 {
		c := gun.Fire()
		if c < 0 || c >= g.Cells || fired.Has(c) {
			t.Fatalf("%s, seed %d, shot %d: fired at cell %d (board %d cells, fired before: %v)",
				s.Name(), seed, shots+1, c, g.Cells, c >= 0 && c < g.Cells && fired.Has(c))
		}
		fired = fired.Set(c)
		gun.Observe(target.shoot(s.Name(), c))
		shots++
	}
	if missed := l.Occupied().AndNot(fired); !missed.Empty() {
		t.Fatalf("%s, seed %d: the game ended with ship cells %v not hit", s.Name(), seed, missed.Cells(nil))
	}
	return shots
}

func TestClassicShootersNeverRepeatAndFinish(t *testing.T) {
	for _, r := range classicRules() {
		g := mustGeometry(t, r)
		for _, s := range classicShooters {
			for _, p := range []Placer{randomPlacer{}, blockHalfPlacer{}} {
				t.Run(fmt.Sprintf("%s/%s/%v/%dx%d%v", s.Name(), p.Name(), r.Reveal, r.W, r.H, r.Fleet), func(t *testing.T) {
					for seed := range uint64(100) {
						l := p.Place(g, fitness.NewRand(seed))
						playChecked(t, g, s, l, seed)
					}
				})
			}
		}
	}
}

// TestTierListBeatsRandom replays seed 000's 100 games against the random
// player, which it won 100-0.
func TestTierListBeatsRandom(t *testing.T) {
	g := mustGeometry(t, Classic())
	var tally fitness.Tally
	for seed := range uint64(100) {
		tally.Add(g.HeadToHead(tierListShooter{}, randomShooter{}, randomPlacer{}, seed))
	}
	t.Logf("tierlist vs random: %d wins, %d draws, %d losses", tally.Wins, tally.Draws, tally.Losses)
	if tally.Wins < 98 {
		t.Fatalf("tierlist won %d of 100 against random, want at least 98", tally.Wins)
	}
}

// TestClassicShootersOrder checks the mean shots against random placement:
// good < mediocre < random, and the tier list well below random.
func TestClassicShootersOrder(t *testing.T) {
	g := mustGeometry(t, Classic())
	const games = 2000
	mean := func(s Shooter) float64 {
		total := 0
		for seed := range uint64(games) {
			total += g.Solo(s, randomPlacer{}, seed)
		}
		return float64(total) / games
	}
	random, tier, mediocre, good := mean(randomShooter{}), mean(tierListShooter{}), mean(mediocreShooter{}), mean(goodShooter{})
	t.Logf("mean shots over %d games: random %.2f, tierlist %.2f, mediocre %.2f, good %.2f", games, random, tier, mediocre, good)
	// The standard errors are about 0.2 shots; the margins are many times that.
	tests := []struct {
		name          string
		better, worse float64
	}{
		{"good beats mediocre", good, mediocre},
		{"mediocre beats random", mediocre, random},
		{"tierlist beats random", tier, random},
		{"tierlist beats mediocre", tier, mediocre},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.better > tc.worse-3 {
				t.Fatalf("%.2f shots is not well below %.2f", tc.better, tc.worse)
			}
		})
	}
}

func TestTierString(t *testing.T) {
	tests := []struct {
		tier tier
		want string
	}{
		{tierExplored, "explored"},
		{tierAvoid, "avoid"},
		{tierNormal, "normal"},
		{tierPreferred, "preferred"},
		{tierCritical, "critical"},
		{numTiers, "tier(5)"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.tier.String(); got != tc.want {
				t.Fatalf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

// at returns the cell at row r, column c.
func at(g *Geometry, r, c int) int { return r*g.W + c }

func TestTierListTiers(t *testing.T) {
	miss := func(c int) Shot { return Shot{Cell: c, Ship: -1, Sunk: -1} }
	hit := func(c int) Shot { return Shot{Cell: c, Hit: true, Ship: -1, Sunk: -1} }
	sunk := func(c, ship int) Shot { return Shot{Cell: c, Hit: true, Ship: -1, Sunk: ship} }
	g := mustGeometry(t, Classic())
	tests := []struct {
		name  string
		shots []Shot
		want  map[int]tier // cells checked; others unchecked
	}{
		{"miss makes neighbours avoid",
			[]Shot{miss(at(g, 4, 4))},
			map[int]tier{at(g, 4, 4): tierExplored, at(g, 3, 4): tierAvoid, at(g, 5, 4): tierAvoid,
				at(g, 4, 3): tierAvoid, at(g, 4, 5): tierAvoid, at(g, 3, 3): tierNormal}},
		{"hit makes neighbours preferred",
			[]Shot{hit(at(g, 0, 0))},
			map[int]tier{at(g, 0, 0): tierExplored, at(g, 0, 1): tierPreferred, at(g, 1, 0): tierPreferred, at(g, 1, 1): tierNormal}},
		{"consecutive hit makes the opposite critical",
			[]Shot{hit(at(g, 4, 4)), hit(at(g, 4, 5))},
			map[int]tier{at(g, 4, 6): tierCritical, at(g, 4, 3): tierPreferred, at(g, 3, 5): tierPreferred}},
		{"vertical line",
			[]Shot{hit(at(g, 4, 4)), hit(at(g, 3, 4))},
			map[int]tier{at(g, 2, 4): tierCritical, at(g, 5, 4): tierPreferred}},
		{"opposite off the board: no critical",
			[]Shot{hit(at(g, 0, 8)), hit(at(g, 0, 9))},
			map[int]tier{at(g, 0, 7): tierPreferred, at(g, 1, 9): tierPreferred}},
		{"miss demotes even a critical cell",
			[]Shot{hit(at(g, 4, 4)), hit(at(g, 4, 5)), miss(at(g, 3, 6))},
			map[int]tier{at(g, 4, 6): tierAvoid}},
		{"a hit of a sunk ship is not consecutive",
			// The Destroyer (fleet index 4, length 2) sinks at (4,5): its
			// only placement of live hits through (4,5) is (4,4)-(4,5).
			[]Shot{hit(at(g, 4, 4)), sunk(at(g, 4, 5), 4), hit(at(g, 4, 6))},
			map[int]tier{at(g, 4, 7): tierPreferred, at(g, 5, 6): tierPreferred}},
		{"last direction wins",
			// Hits left of and above (5,5); the last direction checked
			// (above) names (6,5); (5,6) stays preferred.
			[]Shot{hit(at(g, 5, 4)), hit(at(g, 4, 5)), hit(at(g, 5, 5))},
			map[int]tier{at(g, 6, 5): tierCritical, at(g, 5, 6): tierPreferred}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gun := tierListShooter{}.Start(g, fitness.NewRand(1)).(*tierListGunner)
			for _, s := range tc.shots {
				gun.Observe(s)
			}
			for c, want := range tc.want {
				if got := gun.of[c]; got != want {
					t.Errorf("%s is %v, want %v", g.Name(c), got, want)
				}
			}
			for k := range numTiers {
				for _, c := range gun.sets[k].Cells(nil) {
					if gun.of[c] != k {
						t.Errorf("%s in the %v set but of = %v", g.Name(c), k, gun.of[c])
					}
				}
			}
		})
	}
}

func TestTierListFiresAtHighestTier(t *testing.T) {
	g := mustGeometry(t, Classic())
	for seed := range uint64(20) {
		gun := tierListShooter{}.Start(g, fitness.NewRand(seed)).(*tierListGunner)
		gun.Observe(Shot{Cell: at(g, 4, 4), Hit: true, Ship: -1, Sunk: -1})
		gun.Observe(Shot{Cell: at(g, 4, 5), Hit: true, Ship: -1, Sunk: -1})
		if c := gun.Fire(); c != at(g, 4, 6) {
			t.Fatalf("seed %d: fired at %s, want the critical %s", seed, g.Name(c), g.Name(at(g, 4, 6)))
		}
	}
}

func TestHitLedger(t *testing.T) {
	g := mustGeometry(t, Classic())
	row := func(cs ...int) Bits {
		var b Bits
		for _, c := range cs {
			b = b.Set(at(g, 2, c))
		}
		return b
	}
	tests := []struct {
		name     string
		shots    []Shot
		wantSunk Bits
	}{
		{"unique placement", []Shot{
			{Cell: at(g, 2, 0), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 1), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 2), Hit: true, Ship: -1, Sunk: 4}, // Destroyer: (2,1)-(2,2)
		}, row(1, 2)},
		{"ambiguous: only the common cells", []Shot{
			{Cell: at(g, 2, 1), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 3), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 2), Hit: true, Ship: -1, Sunk: 4},
		}, row(2)},
		{"a Cruiser between hits", []Shot{
			{Cell: at(g, 2, 0), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 1), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 2), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 3), Hit: true, Ship: -1, Sunk: 2}, // Cruiser: (2,1)-(2,3)
		}, row(1, 2, 3)},
		{"reveal ship names every cell", []Shot{
			{Cell: at(g, 2, 0), Hit: true, Ship: 4, Sunk: -1},
			{Cell: at(g, 2, 1), Hit: true, Ship: 3, Sunk: -1},
			{Cell: at(g, 2, 2), Hit: true, Ship: 4, Sunk: 4},
		}, row(0, 2)},
		{"hits only: nothing sunk", []Shot{
			{Cell: at(g, 2, 0), Hit: true, Ship: -1, Sunk: -1},
			{Cell: at(g, 2, 1), Hit: true, Ship: -1, Sunk: -1},
		}, Bits{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := newHitLedger(g)
			for _, s := range tc.shots {
				k.observe(s)
			}
			if k.sunk != tc.wantSunk {
				t.Fatalf("sunk cells %v, want %v", k.sunk.Cells(nil), tc.wantSunk.Cells(nil))
			}
		})
	}
}

func TestMediocreStaysInTheCross(t *testing.T) {
	g := mustGeometry(t, Classic())
	centre := at(g, 5, 5)
	inCross := func(c int) bool {
		dr, dc := c/g.W-5, c%g.W-5
		return (dr == 0) != (dc == 0) && max(dr, -dr, dc, -dc) <= 4
	}
	for seed := range uint64(20) {
		gun := mediocreShooter{}.Start(g, fitness.NewRand(seed)).(*mediocreGunner)
		gun.Observe(Shot{Cell: centre, Hit: true, Ship: -1, Sunk: -1})
		// The cross around (5,5) on 10x10: 4 cells up, down, left and
		// right.
		for i := range 16 {
			c := gun.Fire()
			if !inCross(c) {
				t.Fatalf("seed %d, shot %d: %s is outside the cross", seed, i, g.Name(c))
			}
			// Hits that sink nothing keep the same cross.
			gun.Observe(Shot{Cell: c, Hit: i%3 == 0, Ship: -1, Sunk: -1})
		}
		if gun.state != stateCross {
			t.Fatalf("seed %d: state %v before the cross runs out, want cross", seed, gun.state)
		}
		gun.Fire()
		if gun.state != stateHunt {
			t.Fatalf("seed %d: state %v after the cross ran out, want hunt", seed, gun.state)
		}
	}
}

func TestGoodStates(t *testing.T) {
	g := mustGeometry(t, Classic())
	gun := goodShooter{}.Start(g, fitness.NewRand(3)).(*goodGunner)
	obs := func(c int, hit bool, sunk int) { gun.Observe(Shot{Cell: c, Hit: hit, Ship: -1, Sunk: sunk}) }
	fire := func(want int) {
		t.Helper()
		if c := gun.Fire(); c != want {
			t.Fatalf("state %v fired at %s, want %s", gun.state, g.Name(c), g.Name(want))
		}
		obs(want, false, -1)
	}

	// State 1: the first unchecked lattice cell in row-major order.
	first := gun.lattice.First()
	if c := gun.Fire(); c != first || first > 1 {
		t.Fatalf("hunt fired at %s, want the first lattice cell (A1 or B1)", g.Name(c))
	}
	for c := range g.Cells {
		if gun.lattice.Has(c) != ((c/g.W+c%g.W)%2 == first) {
			t.Fatalf("lattice: %s wrongly in or out", g.Name(c))
		}
	}

	// State 2 around (5,5): the distance-1 cells first (popped west,
	// south, east, north), then distance 2.
	obs(at(g, 5, 5), true, -1)
	for _, c := range []int{at(g, 5, 4), at(g, 6, 5), at(g, 5, 6), at(g, 4, 5), at(g, 5, 3)} {
		fire(c)
	}
	// The second hit comes at (7,5), south: state 3 along the column
	// through (5,5), closest unchecked first, north before south.
	if c := gun.Fire(); c != at(g, 7, 5) {
		t.Fatalf("fired at %s, want %s", g.Name(c), g.Name(at(g, 7, 5)))
	}
	obs(at(g, 7, 5), true, -1)
	if gun.state != stateLine {
		t.Fatalf("state %v after a second hit, want line", gun.state)
	}
	for _, c := range []int{at(g, 3, 5), at(g, 2, 5), at(g, 8, 5), at(g, 1, 5), at(g, 9, 5)} {
		fire(c)
	}
	// State 3 is used up: back to state 2's stack, at distance 2 east.
	fire(at(g, 5, 7))
	if gun.state != stateCross {
		t.Fatalf("state %v after the line ran out, want cross", gun.state)
	}

	// Sinking the Destroyer empties the stacks and hunts every 3rd cell.
	obs(at(g, 5, 7), true, 4)
	if gun.state != stateHunt || len(gun.cross) != 0 || len(gun.line) != 0 {
		t.Fatalf("after a sinking: state %v, stacks %d and %d, want hunt and empty", gun.state, len(gun.cross), len(gun.line))
	}
	if gun.step != 3 {
		t.Fatalf("lattice step %d after the Destroyer sank, want 3", gun.step)
	}
	k := gun.lattice.First() % 3
	for c := range g.Cells {
		if gun.lattice.Has(c) != ((c/g.W+c%g.W)%3 == k) {
			t.Fatalf("lattice: %s wrongly in or out", g.Name(c))
		}
	}
	// With the Carrier gone the reach is 3: the cross around a hit in the
	// corner (9,9) is (9,8),(9,7),(9,6),(8,9),(7,9),(6,9).
	obs(at(g, 0, 0), true, 0)
	obs(at(g, 9, 9), true, -1)
	if n := len(gun.cross); n != 6 {
		t.Fatalf("cross of %d cells around a corner with reach 3, want 6", n)
	}
}

// TestCS32CrossesAndLines pins seed 002's stacks at the board's edge,
// where cell 0 (A1) is one of the cells to try: Mediocre's cross reaches
// the longest ship less one in each direction; Good's cross pops the
// closest cell first (west before south, east, north), its line after a
// second hit in the same row runs east and west of the first hit,
// closest first, east before west; a hunt whose lattice holds A1 starts
// there.
func TestCS32CrossesAndLines(t *testing.T) {
	g := mustGeometry(t, Classic())
	hit := func(c int) Shot { return Shot{Cell: c, Hit: true, Ship: -1, Sunk: -1} }
	miss := func(c int) Shot { return Shot{Cell: c, Ship: -1, Sunk: -1} }

	t.Run("mediocre cross", func(t *testing.T) {
		gun := mediocreShooter{}.Start(g, fitness.NewRand(1)).(*mediocreGunner)
		gun.Observe(hit(at(g, 0, 2)))
		want := []int{at(g, 0, 1), at(g, 0, 0), at(g, 0, 3), at(g, 0, 4), at(g, 0, 5), at(g, 0, 6),
			at(g, 1, 2), at(g, 2, 2), at(g, 3, 2), at(g, 4, 2)}
		got := slices.Sorted(slices.Values(gun.cross))
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("cross around A3: %v, want %v", got, want)
		}
		// Sinking any ship, the Carrier (ship 0) too, ends the cross.
		gun.Observe(Shot{Cell: at(g, 0, 1), Hit: true, Ship: -1, Sunk: 0})
		if gun.state != stateHunt || len(gun.cross) != 0 {
			t.Fatalf("after the Carrier sank: state %v, %d cells in the cross; want hunt and none", gun.state, len(gun.cross))
		}
	})
	t.Run("good cross and line", func(t *testing.T) {
		gun := goodShooter{}.Start(g, fitness.NewRand(1)).(*goodGunner)
		gun.Observe(hit(at(g, 0, 1)))
		if c := gun.Fire(); c != at(g, 0, 0) {
			t.Fatalf("after a hit at B1 fired at %s, want A1 (west, distance 1)", g.Name(c))
		}
		gun = goodShooter{}.Start(g, fitness.NewRand(1)).(*goodGunner)
		gun.Observe(hit(at(g, 0, 3)))
		if c := gun.Fire(); c != at(g, 0, 2) {
			t.Fatalf("after a hit at D1 fired at %s, want C1", g.Name(c))
		}
		gun.Observe(hit(at(g, 0, 2)))
		for _, want := range []int{at(g, 0, 4), at(g, 0, 1), at(g, 0, 5), at(g, 0, 0), at(g, 0, 6), at(g, 0, 7)} {
			if c := gun.Fire(); c != want || gun.state != stateLine {
				t.Fatalf("the line through D1 fired at %s in state %v, want %s in line", g.Name(c), gun.state, g.Name(want))
			}
			gun.Observe(miss(want))
		}
	})
	t.Run("good hunt from A1", func(t *testing.T) {
		for seed := range uint64(20) {
			gun := goodShooter{}.Start(g, fitness.NewRand(seed)).(*goodGunner)
			if !gun.lattice.Has(0) {
				continue
			}
			if c := gun.Fire(); c != 0 {
				t.Fatalf("seed %d: the lattice holds A1, and the hunt fired at %s", seed, g.Name(c))
			}
			return
		}
		t.Fatal("no seed of 20 drew a lattice through A1")
	})
}

// TestCS32StateNames: the attack states are numbered from 1, as in seed
// 002's write-up, and each prints its name; anything else prints its
// number.
func TestCS32StateNames(t *testing.T) {
	for s, want := range map[cs32State]string{1: "hunt", 2: "cross", 3: "line", 0: "cs32State(0)", 4: "cs32State(4)"} {
		if got := s.String(); got != want {
			t.Errorf("cs32State(%d).String() = %q, want %q", uint8(s), got, want)
		}
	}
	if stateHunt != 1 || stateCross != 2 || stateLine != 3 {
		t.Errorf("states %d %d %d, want the write-up's 1 2 3", stateHunt, stateCross, stateLine)
	}
}
