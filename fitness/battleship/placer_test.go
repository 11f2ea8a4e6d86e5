package battleship

import (
	"fmt"
	"math"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// placerRules are the rule sets the placers are tried under; the last two
// are dense enough that blockhalf often or always falls back.
func placerRules() []Rules {
	return []Rules{
		Classic(),
		{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealSunk},
		{W: 11, H: 11, Fleet: []int{5, 4, 3, 3, 2}, Reveal: RevealSunk},
		{W: 12, H: 10, Fleet: []int{6, 5, 4, 3, 3, 2}, Reveal: RevealSunk},
		{W: 7, H: 4, Fleet: []int{1, 2, 7}, Reveal: RevealSunk},
		{W: 8, H: 8, Fleet: []int{5, 4, 4, 3, 3, 3, 2}, Reveal: RevealSunk},
		{W: 4, H: 4, Fleet: []int{4, 4}, Reveal: RevealSunk},
		{W: 11, H: 11, Fleet: []int{11, 10, 9}, Reveal: RevealSunk},
	}
}

// tunedValues builds tuned-placer values from the schema's defaults with
// the given changes.
func tunedValues(t testing.TB, g *Geometry, set map[string]float64) genome.Values {
	t.Helper()
	v := tunedPlacerSchema(g.Rules).Defaults()
	for name, x := range set {
		var err error
		if v, err = v.With(name, genome.Value{Num: x}); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

func mustTuned(t testing.TB, g *Geometry, set map[string]float64) *tunedPlacer {
	t.Helper()
	p, err := newTunedPlacer(g, tunedValues(t, g, set))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlacersLegal(t *testing.T) {
	for _, r := range placerRules() {
		g := mustGeometry(t, r)
		placers := []struct {
			name string
			p    Placer
		}{
			{"blockhalf", blockHalfPlacer{}},
			{"tuned defaults", mustTuned(t, g, nil)},
			{"tuned edges", mustTuned(t, g, map[string]float64{tpEdge: 4, tpTemperature: 0.1})},
			{"tuned centre", mustTuned(t, g, map[string]float64{tpEdge: -4, tpTemperature: 0.1})},
			{"tuned apart", mustTuned(t, g, map[string]float64{tpTouch: 3, tpTemperature: 0.1})},
			{"tuned clustered", mustTuned(t, g, map[string]float64{tpTouch: -3, tpHorizontal: 3, tpTemperature: 0.1})},
			{"tuned vertical hot", mustTuned(t, g, map[string]float64{tpHorizontal: -3, tpTemperature: 10})},
		}
		for _, tc := range placers {
			t.Run(fmt.Sprintf("%s/%dx%d%v", tc.name, r.W, r.H, r.Fleet), func(t *testing.T) {
				for seed := range uint64(200) {
					mustBeLegal(t, g, tc.p.Place(g, fitness.NewRand(seed)), fmt.Sprintf("seed %d", seed))
				}
			})
		}
	}
}

func TestPlacersAreReproducible(t *testing.T) {
	g := mustGeometry(t, Classic())
	for _, p := range []Placer{blockHalfPlacer{}, mustTuned(t, g, map[string]float64{tpEdge: 2, tpTouch: 1})} {
		t.Run(p.Name(), func(t *testing.T) {
			for seed := range uint64(50) {
				a, b := p.Place(g, fitness.NewRand(seed)), p.Place(g, fitness.NewRand(seed))
				if g.String(a) != g.String(b) {
					t.Fatalf("seed %d: two layouts\n%s\n%s", seed, g.String(a), g.String(b))
				}
			}
		})
	}
}

// firstFit is a plain reference for blockhalf's search: for each cell in
// row-major order, horizontal then vertical, by coordinates.
func firstFit(g *Geometry, taken Bits, fleet []int) ([]Bits, bool) {
	if len(fleet) == 0 {
		return nil, true
	}
	L := fleet[0]
	for c := range g.Cells {
		for _, d := range [][2]int{{0, 1}, {1, 0}} {
			if d[0] == 1 && L == 1 {
				continue // a one-cell ship has one orientation
			}
			var m Bits
			ok := true
			for k := range L {
				n := neighbourAt(g, c, k*d[0], k*d[1])
				if n < 0 || taken.Has(n) {
					ok = false
					break
				}
				m = m.Set(n)
			}
			if !ok {
				continue
			}
			if rest, ok := firstFit(g, taken.Or(m), fleet[1:]); ok {
				return append([]Bits{m}, rest...), true
			}
		}
	}
	return nil, false
}

func TestBlockHalfIsFirstFit(t *testing.T) {
	for _, r := range []Rules{
		Classic(),
		{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealSunk},
		{W: 7, H: 4, Fleet: []int{1, 2, 5}, Reveal: RevealSunk},
		{W: 6, H: 9, Fleet: []int{1, 3}, Reveal: RevealSunk},
	} {
		g := mustGeometry(t, r)
		t.Run(fmt.Sprintf("%dx%d%v", r.W, r.H, r.Fleet), func(t *testing.T) {
			found := 0
			for seed := range uint64(300) {
				rng := fitness.NewRand(seed)
				blocked := Bits{Lo: rng.Uint64(), Hi: rng.Uint64()}.And(g.All)
				b := blockHalfSearch{g: g, ships: make([]Bits, len(g.Fleet)), budget: blockHalfBudget}
				ok := b.place(0, blocked)
				want, wantOK := firstFit(g, blocked, g.Fleet)
				if ok != wantOK || ok && g.String(Layout{b.ships}) != g.String(Layout{want}) {
					t.Fatalf("seed %d: found %v\n%s\nreference found %v\n%s", seed, ok, g.String(Layout{b.ships}), wantOK, g.String(Layout{want}))
				}
				if ok {
					found++
				}
			}
			t.Logf("%d of 300 blocked boards had room", found)
		})
	}
}

// layoutStats are statistics of many layouts, each a mean per layout.
type layoutStats struct {
	edgeShips  float64 // ships with a cell on the board's outer ring
	edgeCells  float64 // ship cells on the outer ring
	topRow     float64 // the top row of the first ship
	touching   float64 // orthogonally adjacent cell pairs of different ships
	horizontal float64 // ships lying horizontally (length > 1)
}

func measure(t testing.TB, g *Geometry, p Placer, n int) layoutStats {
	t.Helper()
	var ring Bits
	for c := range g.Cells {
		if r, col := c/g.W, c%g.W; r == 0 || col == 0 || r == g.H-1 || col == g.W-1 {
			ring = ring.Set(c)
		}
	}
	var s layoutStats
	for seed := range uint64(n) {
		l := p.Place(g, fitness.NewRand(seed))
		s.topRow += float64(l.Ships[0].First() / g.W)
		for i, ship := range l.Ships {
			if ship.Meets(ring) {
				s.edgeShips++
			}
			s.edgeCells += float64(ship.And(ring).Count())
			if first := ship.First(); ship.Count() > 1 && ship.Has(first+1) {
				s.horizontal++
			}
			for _, c := range ship.Cells(nil) {
				for _, d := range compassDirs[1:3] { // east and south: each pair once
					n := neighbourAt(g, c, d[0], d[1])
					for j, other := range l.Ships {
						if j != i && n >= 0 && other.Has(n) {
							s.touching++
						}
					}
				}
			}
		}
	}
	f := float64(n)
	return layoutStats{s.edgeShips / f, s.edgeCells / f, s.topRow / f, s.touching / f, s.horizontal / f}
}

// TestBlockHalfDiffersFromRandom: the first fit in row-major order puts
// the fleet near the top of the board and along its edges.
func TestBlockHalfDiffersFromRandom(t *testing.T) {
	g := mustGeometry(t, Classic())
	const n = 1000
	random, block := measure(t, g, randomPlacer{}, n), measure(t, g, blockHalfPlacer{}, n)
	t.Logf("random %+v", random)
	t.Logf("blockhalf %+v", block)
	// Per layout the standard deviations are under 3 rows and 1.2 ships, so
	// over 1000 layouts the standard errors are under 0.1 and 0.04.
	if block.topRow > random.topRow-1.5 {
		t.Errorf("Carrier's mean top row: blockhalf %.2f, random %.2f; want blockhalf at least 1.5 rows higher", block.topRow, random.topRow)
	}
	if block.edgeShips < random.edgeShips+0.4 {
		t.Errorf("ships on the edge: blockhalf %.2f, random %.2f; want blockhalf at least 0.4 more", block.edgeShips, random.edgeShips)
	}
}

// TestTunedPlacerKnobs: every knob moves its statistic the way its name
// says, by far more than noise, and the temperature blends toward uniform.
func TestTunedPlacerKnobs(t *testing.T) {
	g := mustGeometry(t, Classic())
	const n = 600
	stat := func(set map[string]float64) layoutStats { return measure(t, g, mustTuned(t, g, set), n) }
	uniform := stat(nil)
	random := measure(t, g, randomPlacer{}, n)
	t.Logf("defaults %+v", uniform)
	t.Logf("random   %+v", random)
	tests := []struct {
		name      string
		set       map[string]float64
		statistic func(layoutStats) float64
		min, max  float64 // bounds on statistic(set) - statistic(defaults)
	}{
		{"edge affinity hugs the edges", map[string]float64{tpEdge: 4},
			func(s layoutStats) float64 { return s.edgeCells }, 3, 100},
		{"negative edge affinity keeps off them", map[string]float64{tpEdge: -4},
			func(s layoutStats) float64 { return s.edgeCells }, -100, -2},
		{"a high temperature blends toward uniform", map[string]float64{tpEdge: 4, tpTemperature: 10},
			// the edge affinity of 4 at temperature 10 acts like 0.4: about
			// a tenth of its effect at temperature 1
			func(s layoutStats) float64 { return s.edgeCells }, 0.3, 2},
		{"touching aversion keeps ships apart", map[string]float64{tpTouch: 3},
			func(s layoutStats) float64 { return s.touching }, -100, -0.5},
		{"negative aversion clusters them", map[string]float64{tpTouch: -1},
			func(s layoutStats) float64 { return s.touching }, 2, 100},
		{"horizontal bias", map[string]float64{tpHorizontal: 3},
			func(s layoutStats) float64 { return s.horizontal }, 1.5, 5},
		{"vertical bias", map[string]float64{tpHorizontal: -3},
			func(s layoutStats) float64 { return s.horizontal }, -5, -1.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := stat(tc.set)
			d := tc.statistic(s) - tc.statistic(uniform)
			t.Logf("%+v: change %.3f", s, d)
			if d < tc.min || d > tc.max {
				t.Fatalf("changed by %.3f, want within [%v, %v]", d, tc.min, tc.max)
			}
		})
	}
	t.Run("defaults are uniform", func(t *testing.T) {
		// The same distribution as the random placer: statistics agree
		// within 4 standard errors (each about 0.1 here).
		for _, c := range []struct {
			name string
			a, b float64
		}{
			{"edge cells", uniform.edgeCells, random.edgeCells},
			{"touching", uniform.touching, random.touching},
			{"horizontal", uniform.horizontal, random.horizontal},
		} {
			if math.Abs(c.a-c.b) > 0.5 {
				t.Errorf("%s: tuned defaults %.3f, random %.3f", c.name, c.a, c.b)
			}
		}
	})
}

// TestTunedPlacerKnobsAtEveryEdge: edge affinity means each of the
// board's four edges, not the ring in sum (a ring missing an edge still
// moves the sum), on a square board and an oblong one: at +4 every edge
// holds more ship cells than at the defaults, at -4 fewer, and the
// horizontal bias at its bounds lays ships along the rows or the
// columns, whichever edge the ship touches.
func TestTunedPlacerKnobsAtEveryEdge(t *testing.T) {
	for _, rules := range []Rules{Classic(), {W: 12, H: 7, Fleet: []int{4, 3, 2}, Reveal: RevealSunk}} {
		g := mustGeometry(t, rules)
		const n = 400
		lines := func(set map[string]float64) (edges [4]float64, horizontalOnEdge float64) {
			p := mustTuned(t, g, set)
			for seed := range uint64(n) {
				l := p.Place(g, fitness.NewRand(seed))
				for _, ship := range l.Ships {
					onEdge := false
					for _, c := range ship.Cells(nil) {
						r, col := c/g.W, c%g.W
						for e, on := range [4]bool{r == 0, r == g.H-1, col == 0, col == g.W-1} {
							if on {
								edges[e]++
								onEdge = true
							}
						}
					}
					if first := ship.First(); onEdge && ship.Count() > 1 && ship.Has(first+1) {
						horizontalOnEdge++
					}
				}
			}
			for e := range edges {
				edges[e] /= n
			}
			return edges, horizontalOnEdge / n
		}
		base, baseH := lines(nil)
		hug, _ := lines(map[string]float64{tpEdge: 4})
		shun, _ := lines(map[string]float64{tpEdge: -4})
		_, along := lines(map[string]float64{tpHorizontal: 3})
		_, across := lines(map[string]float64{tpHorizontal: -3})
		for e, name := range []string{"top", "bottom", "left", "right"} {
			if hug[e] < base[e]+0.3 || shun[e] > base[e]-0.2 {
				t.Errorf("%dx%d, %s edge: %.2f ship cells at the defaults, %.2f at edge affinity +4, %.2f at -4",
					g.W, g.H, name, base[e], hug[e], shun[e])
			}
		}
		if along < baseH+0.5 || across > baseH-0.5 {
			t.Errorf("%dx%d: horizontal ships on an edge: %.2f at the defaults, %.2f at horizontal bias +3, %.2f at -3", g.W, g.H, baseH, along, across)
		}
	}
}

func TestTunedPlacerSchema(t *testing.T) {
	for _, r := range placerRules() {
		s := tunedPlacerSchema(r)
		if err := s.Validate(); err != nil {
			t.Fatalf("%dx%d: %v", r.W, r.H, err)
		}
	}
	game, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		role fitness.Role
	}{
		{"tierlist", ShooterRole},
		{"mediocre", ShooterRole},
		{"good", ShooterRole},
		{"blockhalf", PlacerRole},
		{"tuned", PlacerRole},
	}
	for _, tc := range tests {
		t.Run(tc.role.String()+" "+tc.name, func(t *testing.T) {
			p, err := game.NewPlayer(tc.role, tc.name, genome.Values{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Name() != tc.name {
				t.Fatalf("Name() = %q", p.Name())
			}
			switch tc.role {
			case ShooterRole:
				_, ok := p.(Shooter)
				if !ok {
					t.Fatalf("%T is not a Shooter", p)
				}
			case PlacerRole:
				_, ok := p.(Placer)
				if !ok {
					t.Fatalf("%T is not a Placer", p)
				}
			}
		})
	}
	if _, err := New(map[string]string{"placer": "tuned"}); err != nil {
		t.Fatalf("placer: tuned as the rules' placer: %v", err)
	}
}

// Example_blockhalf lays the seed-002 placer's fleet on a small board.
func Example_blockhalf() {
	game, err := New(map[string]string{"size": "8", "fleet": "4,3,2"})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := game.NewPlayer(PlacerRole, "blockhalf", genome.Values{})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := game.Geometry()
	l := p.(Placer).Place(g, fitness.NewRand(1))
	fmt.Print(g.String(l))
	// Output:
	// ...1...2
	// .0.1...2
	// .0.1....
	// .0......
	// .0......
	// ........
	// ........
	// ........
}

// FuzzTunedPlacer lays fleets with random seeds, parameter values folded
// into their ranges, and rule sets: always a legal layout, never a panic.
func FuzzTunedPlacer(f *testing.F) {
	f.Add(uint64(1), 0.0, 0.0, 0.0, 1.0, uint8(0))
	f.Add(uint64(2), 4.0, -3.0, 3.0, 0.1, uint8(5))
	f.Add(uint64(3), -4.0, 3.0, -3.0, 10.0, uint8(6))
	rules := placerRules()
	geos := make([]*Geometry, len(rules))
	for i, r := range rules {
		geos[i] = mustGeometry(f, r)
	}
	f.Fuzz(func(t *testing.T, seed uint64, edge, touch, horizontal, temp float64, pick uint8) {
		g := geos[int(pick)%len(geos)]
		schema := tunedPlacerSchema(g.Rules)
		set := map[string]float64{tpEdge: edge, tpTouch: touch, tpHorizontal: horizontal, tpTemperature: temp}
		for name, x := range set {
			p, _ := schema.Lookup(name)
			set[name] = fold(x, p.Min, p.Max)
		}
		p := mustTuned(t, g, set)
		mustBeLegal(t, g, p.Place(g, fitness.NewRand(seed)), fmt.Sprint(set))
	})
}

// fold maps any float into [lo, hi]: NaN and infinities to lo, others by
// wrapping around the range.
func fold(x, lo, hi float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return lo
	}
	y := lo + math.Mod(math.Abs(x), hi-lo)
	return min(max(y, lo), hi)
}

// BenchmarkPlace lays one classic fleet per iteration with each of this
// file's placers.
func BenchmarkPlace(b *testing.B) {
	g := mustGeometry(b, Classic())
	for _, p := range []Placer{randomPlacer{}, blockHalfPlacer{}, mustTuned(b, g, nil), mustTuned(b, g, map[string]float64{tpTouch: 1})} {
		b.Run(p.Name(), func(b *testing.B) {
			seed := uint64(0)
			for b.Loop() {
				p.Place(g, fitness.NewRand(seed))
				seed++
			}
		})
	}
}
