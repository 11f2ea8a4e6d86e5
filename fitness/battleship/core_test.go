package battleship

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

func mustGeometry(t testing.TB, r Rules) *Geometry {
	t.Helper()
	g, err := NewGeometry(r)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPlacementCounts(t *testing.T) {
	g := mustGeometry(t, Classic())
	// A ship of length L has H*(W-L+1) horizontal and W*(H-L+1) vertical
	// placements on a W x H board.
	for _, tc := range []struct{ length, want int }{{5, 120}, {4, 140}, {3, 160}, {2, 180}} {
		t.Run(fmt.Sprint("length ", tc.length), func(t *testing.T) {
			ps := g.Placements[tc.length]
			if len(ps) != tc.want {
				t.Fatalf("%d placements, want %d", len(ps), tc.want)
			}
			for i, p := range ps {
				if p.Count() != tc.length {
					t.Fatalf("placement %d has %d cells", i, p.Count())
				}
				for _, j := range g.Covering[tc.length][p.First()] {
					if !ps[j].Has(p.First()) {
						t.Fatalf("Covering lists placement %d for a cell it misses", j)
					}
				}
			}
		})
	}
	if got := fmt.Sprint(g.Lengths); got != "[5 4 3 2]" {
		t.Errorf("distinct lengths %s, want [5 4 3 2]", got)
	}
}

func TestRulesValidation(t *testing.T) {
	tests := []struct {
		name string
		opts map[string]string
		err  string
	}{
		{"classic", nil, ""},
		{"small", map[string]string{"size": "6", "fleet": "3,2"}, ""},
		{"rectangle", map[string]string{"width": "12", "height": "8"}, ""},
		{"reveal ship", map[string]string{"reveal": "ship"}, ""},
		{"board too big", map[string]string{"size": "12"}, "at most 128 cells"},
		{"board too small", map[string]string{"size": "1"}, "at least 2x2"},
		{"ship too long", map[string]string{"size": "4", "fleet": "5"}, "does not fit"},
		{"crowded", map[string]string{"size": "4", "fleet": "4,4,4"}, "more than half"},
		{"bad number", map[string]string{"size": "ten"}, "not a whole number"},
		{"bad reveal", map[string]string{"reveal": "all"}, "want sunk, hits-only or ship"},
		{"unknown option", map[string]string{"colour": "red"}, `unknown option "colour" (want size, width, height, fleet, reveal or placer)`},
		{"unknown placer", map[string]string{"placer": "nobody"}, `unknown placer "nobody"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.opts)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

func TestCheckRejectsIllegalLayouts(t *testing.T) {
	g := mustGeometry(t, Rules{W: 6, H: 6, Fleet: []int{3, 2}, Reveal: RevealSunk})
	row := func(r, c, n int) Bits {
		var b Bits
		for i := range n {
			b = b.Set(r*6 + c + i)
		}
		return b
	}
	tests := []struct {
		name   string
		layout Layout
		err    string
	}{
		{"legal, touching", Layout{[]Bits{row(0, 0, 3), row(1, 0, 2)}}, ""},
		{"overlap", Layout{[]Bits{row(0, 0, 3), row(0, 2, 2)}}, "overlaps"},
		{"wraps a row", Layout{[]Bits{row(0, 4, 3), row(3, 0, 2)}}, "not a straight"},
		{"wrong length", Layout{[]Bits{row(0, 0, 2), row(3, 0, 2)}}, "not a straight"},
		{"missing ship", Layout{[]Bits{row(0, 0, 3)}}, "has 1 ships"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := g.Check(tc.layout)
			if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// fixedPlacer lays out the same fleet every time.
type fixedPlacer struct{ l Layout }

func (fixedPlacer) Name() string                         { return "fixed" }
func (f fixedPlacer) Place(*Geometry, *rand.Rand) Layout { return f.l }

// scriptShooter fires at cells in order and records what it is told.
type scriptShooter struct {
	cells []int
	seen  *[]Shot
}

func (scriptShooter) Name() string { return "script" }
func (s scriptShooter) Start(*Geometry, *rand.Rand) Gunner {
	return &scriptGunner{s: s}
}

type scriptGunner struct {
	s scriptShooter
	i int
}

func (g *scriptGunner) Fire() int { g.i++; return g.s.cells[g.i-1] }
func (g *scriptGunner) Observe(s Shot) {
	if g.s.seen != nil {
		*g.s.seen = append(*g.s.seen, s)
	}
}

func TestRevealRules(t *testing.T) {
	// Ship 0 = cells 0,1 (row 0); ship 1 = cells 10,11,12 (row 1) on 10x10.
	layout := Layout{[]Bits{Cell(0).Set(1), Cell(10).Set(11).Set(12)}}
	shots := []int{0, 5, 1, 10, 11, 12}
	tests := []struct {
		reveal Reveal
		want   string // per shot: hit?, ship, sunk
	}{
		{RevealSunk, "H-1-1 M-1-1 H-10 H-1-1 H-1-1 H-11"},
		{RevealHitsOnly, "H-1-1 M-1-1 H-1-1 H-1-1 H-1-1 H-1-1"},
		{RevealShip, "H0-1 M-1-1 H00 H1-1 H1-1 H11"},
	}
	for _, tc := range tests {
		t.Run(tc.reveal.String(), func(t *testing.T) {
			r := Classic()
			r.Fleet = []int{2, 3}
			r.Reveal = tc.reveal
			g := mustGeometry(t, r)
			var seen []Shot
			n := g.Solo(scriptShooter{shots, &seen}, fixedPlacer{layout}, 1)
			if n != len(shots) {
				t.Fatalf("game took %d shots, want %d", n, len(shots))
			}
			var got []string
			for _, s := range seen {
				hm := "M"
				if s.Hit {
					hm = "H"
				}
				got = append(got, fmt.Sprintf("%s%d%d", hm, s.Ship, s.Sunk))
			}
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("shots told %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func TestHeadToHeadFinishingTogetherIsADraw(t *testing.T) {
	r := Classic()
	r.Fleet = []int{2}
	g := mustGeometry(t, r)
	p := fixedPlacer{Layout{[]Bits{Cell(0).Set(1)}}}
	fast := scriptShooter{cells: []int{0, 1}}
	slow := scriptShooter{cells: []int{9, 0, 1}}
	tests := []struct {
		name string
		a, b Shooter
		want fitness.Outcome
	}{
		{"same round, a fires first", fast, fast, fitness.Draw},
		{"a faster", fast, slow, fitness.Win},
		{"b faster", slow, fast, fitness.Loss},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := g.HeadToHead(tc.a, tc.b, p, 1); got != tc.want {
				t.Fatalf("outcome %v, want %v", got, tc.want)
			}
		})
	}
}

func TestShooterFiringTwicePanicsWithItsName(t *testing.T) {
	g := mustGeometry(t, Classic())
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "shooter script fired at cell 3") {
			t.Fatalf("recovered %v, want a panic naming the shooter", r)
		}
	}()
	g.Solo(scriptShooter{cells: []int{3, 3}}, randomPlacer{}, 1)
}

// testRules are the rule sets every registered player is exercised under.
func testRules() []Rules {
	sunk, hits, ship := Classic(), Classic(), Classic()
	hits.Reveal, ship.Reveal = RevealHitsOnly, RevealShip
	return []Rules{
		sunk, hits, ship,
		{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealSunk},
		{W: 11, H: 7, Fleet: []int{5, 4, 3, 3, 2, 2}, Reveal: RevealShip},
		{W: 6, H: 9, Fleet: []int{1, 3}, Reveal: RevealHitsOnly},
	}
}

func players(t testing.TB, g *Geometry, role fitness.Role) []fitness.Player {
	t.Helper()
	var out []fitness.Player
	for _, d := range registry {
		if d.role != role {
			continue
		}
		var v genome.Values
		if d.schema != nil {
			v = d.schema(g.Rules).Defaults()
		}
		p, err := d.build(g, v)
		if err != nil {
			t.Fatalf("%s %s: %v", role, d.name, err)
		}
		out = append(out, p)
	}
	return out
}

func TestEveryPlacerLaysLegalFleets(t *testing.T) {
	for _, r := range testRules() {
		g := mustGeometry(t, r)
		for _, p := range players(t, g, PlacerRole) {
			t.Run(fmt.Sprintf("%s/%dx%d%v", p.Name(), r.W, r.H, r.Fleet), func(t *testing.T) {
				for seed := range uint64(300) {
					mustBeLegal(t, g, p.(Placer).Place(g, fitness.NewRand(seed)), fmt.Sprintf("seed %d", seed))
				}
			})
		}
	}
}

func TestEveryShooterFinishesWithoutRepeats(t *testing.T) {
	for _, r := range testRules() {
		g := mustGeometry(t, r)
		for _, s := range players(t, g, ShooterRole) {
			t.Run(fmt.Sprintf("%s/%v/%dx%d", s.Name(), r.Reveal, r.W, r.H), func(t *testing.T) {
				for seed := range uint64(200) {
					// A repeated or off-board shot panics in the match loop,
					// so no game takes more shots than there are cells; a
					// game that ends before every ship cell is hit is wrong.
					if n := g.Solo(s.(Shooter), randomPlacer{}, seed); n < fleetSize(r) {
						t.Fatalf("seed %d: a fleet of %d cells sunk in %d shots", seed, fleetSize(r), n)
					}
				}
			})
		}
	}
}

func TestSoloIsReproducible(t *testing.T) {
	g := mustGeometry(t, Classic())
	for _, s := range players(t, g, ShooterRole) {
		t.Run(s.Name(), func(t *testing.T) {
			for seed := range uint64(50) {
				a := g.Solo(s.(Shooter), randomPlacer{}, seed)
				b := g.Solo(s.(Shooter), randomPlacer{}, seed)
				if a != b {
					t.Fatalf("seed %d: %d then %d shots", seed, a, b)
				}
			}
		})
	}
}

// FuzzSolo plays random games of every registered shooter against every
// registered placer under random rules: no panic, no repeated shot (the
// match loop panics on one, so no game outlasts the board's cells), and
// no game ends before every ship cell is hit.
func FuzzSolo(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint8(10), uint8(0), uint8(0))
	f.Add(uint64(7), uint8(5), uint8(9), uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, seed uint64, w, h, reveal, pick uint8) {
		r := Rules{W: 2 + int(w)%10, H: 2 + int(h)%10, Reveal: Reveal(1 + reveal%3)}
		rng := fitness.NewRand(seed)
		for range 1 + rng.IntN(5) {
			r.Fleet = append(r.Fleet, 1+rng.IntN(max(r.W, r.H)))
		}
		g, err := NewGeometry(r)
		if err != nil {
			t.Skip() // rules the validator refuses are covered elsewhere
		}
		shooters := players(t, g, ShooterRole)
		placers := players(t, g, PlacerRole)
		s := shooters[int(pick)%len(shooters)].(Shooter)
		p := placers[int(pick/16)%len(placers)].(Placer)
		if n := g.Solo(s, p, seed); n < fleetSize(r) {
			t.Fatalf("%s vs %s: a fleet of %d cells sunk in %d shots", s.Name(), p.Name(), fleetSize(r), n)
		}
	})
}

// BenchmarkSolo plays one solo game per iteration for every registered
// shooter against random placement on the classic rules. The target is
// 10,000 games/s on one core for bob and over9000.
func BenchmarkSolo(b *testing.B) {
	g := mustGeometry(b, Classic())
	for _, s := range players(b, g, ShooterRole) {
		b.Run(s.Name(), func(b *testing.B) {
			shots := 0
			seed := uint64(0)
			for b.Loop() {
				shots += g.Solo(s.(Shooter), randomPlacer{}, seed)
				seed++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(shots)/float64(b.N), "shots/game")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(shots), "ns/shot")
		})
	}
}
