package battleship

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/internal/playtest"
	"github.com/evotune/evotune/genome"
)

func TestTunedSchemaValidates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rules Rules
	}{
		{"classic", Classic()},
		{"8x8", Rules{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealSunk}},
		{"11x7", Rules{W: 11, H: 7, Fleet: []int{5, 4, 3, 3, 2, 2}, Reveal: RevealShip}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := tunedSchema(tc.rules)
			if err := schema.Validate(); err != nil {
				t.Fatal(err)
			}
			grid, ok := schema.Lookup(tunedWeights)
			if !ok || grid.Rows != tc.rules.H || grid.Cols != tc.rules.W || grid.Symmetry != genome.Ring {
				t.Fatalf("weights: %+v, want a %dx%d ring grid", grid, tc.rules.H, tc.rules.W)
			}
			// The default grid is one weight per ring, so every symmetry
			// can represent it exactly.
			for _, sym := range []genome.Symmetry{genome.Ring, genome.Dihedral, genome.Full} {
				cells := grid.Default.Cells
				back := genome.Expand(genome.Reduce(cells, grid.Rows, grid.Cols, sym), grid.Rows, grid.Cols, sym)
				if !slices.Equal(back, cells) {
					t.Errorf("%v does not represent the default grid", sym)
				}
			}
		})
	}
}

// TestTunedDefaultsAreOver9000 checks that the tuned shooter with its
// default values is over9000: the same settings, and the same shots on
// the same seeds under every reveal rule.
func TestTunedDefaultsAreOver9000(t *testing.T) {
	for _, r := range densRules()[:3] { // classic rules: sunk, hits-only, ship
		g := mustGeometry(t, r)
		t.Run(r.Reveal.String(), func(t *testing.T) {
			o, err := over9000Shooter(g)
			if err != nil {
				t.Fatal(err)
			}
			tu, err := tunedShooter(g, tunedSchema(r).Defaults())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(o.p, tu.p) {
				t.Fatalf("tuned defaults %+v\nover9000       %+v", tu.p, o.p)
			}
			for seed := range uint64(densScale(2000)) {
				densGame(t, g, o.Start(g, densShooterRng(seed)), tu.Start(g, densShooterRng(seed)), randomPlacer{}, seed)
			}
		})
	}
}

// densShots plays seeds games of s under rules r and returns their shots.
func densShots(t testing.TB, r Rules, build func(*Geometry) (*densityShooter, error), seeds int) [][]int {
	t.Helper()
	g := mustGeometry(t, r)
	s, err := build(g)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]int, seeds)
	for seed := range out {
		out[seed] = densGame(t, g, s.Start(g, densShooterRng(uint64(seed))), nil, randomPlacer{}, uint64(seed))
	}
	return out
}

func densMean(games [][]int) float64 {
	sum := 0
	for _, g := range games {
		sum += len(g)
	}
	return float64(sum) / float64(len(games))
}

func TestDensitySunkNotices(t *testing.T) {
	sunk, hitsOnly, ship := Classic(), Classic(), Classic()
	hitsOnly.Reveal, ship.Reveal = RevealHitsOnly, RevealShip
	seeds := densScale(200)
	t.Run("bob ignores them", func(t *testing.T) {
		base := densShots(t, hitsOnly, bobShooter, seeds)
		for _, r := range []Rules{sunk, ship} {
			if got := densShots(t, r, bobShooter, seeds); !reflect.DeepEqual(got, base) {
				t.Errorf("bob under reveal %v fires differently than under hits-only", r.Reveal)
			}
		}
	})
	t.Run("over9000 uses them", func(t *testing.T) {
		base := densShots(t, hitsOnly, over9000Shooter, seeds)
		for _, r := range []Rules{sunk, ship} {
			got := densShots(t, r, over9000Shooter, seeds)
			differ := 0
			for i := range got {
				if !slices.Equal(got[i], base[i]) {
					differ++
				}
			}
			if differ < seeds/2 {
				t.Errorf("over9000 under reveal %v fires as under hits-only in %d of %d games", r.Reveal, seeds-differ, seeds)
			}
			if m, b := densMean(got), densMean(base); m >= b {
				t.Errorf("over9000 needs %.2f shots under reveal %v, %.2f under hits-only", m, r.Reveal, b)
			}
		}
	})
}

func TestOver9000BeatsBob(t *testing.T) {
	seeds := densScale(2000)
	bob := densMean(densShots(t, Classic(), bobShooter, seeds))
	o9k := densMean(densShots(t, Classic(), over9000Shooter, seeds))
	t.Logf("mean shots over %d games: bob %.2f, over9000 %.2f", seeds, bob, o9k)
	if o9k >= bob {
		t.Fatalf("over9000 needs %.2f shots, bob %.2f", o9k, bob)
	}
}

func TestTunedRejectsBadGrid(t *testing.T) {
	g := mustGeometry(t, Classic())
	small := tunedSchema(Rules{W: 8, H: 8, Fleet: []int{4, 3, 2}, Reveal: RevealSunk}).Defaults()
	if _, err := newTunedShooter(g, small); err == nil {
		t.Fatal("an 8x8 weight grid on a 10x10 board was accepted")
	}
}

// FuzzTuned plays the tuned shooter with random in-range parameter values
// from random seeds under every reveal rule and on odd boards: it never
// panics, never fires twice at a cell (fleet.shoot would panic, so no
// game outlasts the board's cells) and never finishes before every ship
// cell is hit.
func FuzzTuned(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(0))
	f.Add(uint64(99), uint64(7), uint8(1))
	f.Add(uint64(5), uint64(0), uint8(2))
	f.Add(uint64(8), uint64(3), uint8(3))
	f.Fuzz(func(t *testing.T, seed, params uint64, rules uint8) {
		all := densRules()
		r := all[int(rules)%len(all)]
		g := mustGeometry(t, r)
		v := densRandomValues(t, tunedSchema(r), fitness.NewRand(params))
		s, err := newTunedShooter(g, v)
		if err != nil {
			t.Fatal(err)
		}
		if n := g.Solo(s.(Shooter), randomPlacer{}, seed); n < fleetSize(r) {
			t.Fatalf("a fleet of %d cells sunk in %d shots (params %v)", fleetSize(r), n, v.Map())
		}
	})
}

// TestTunedExtremes plays the corners of the parameter space.
func TestTunedExtremes(t *testing.T) {
	r := Classic()
	g := mustGeometry(t, r)
	schema := tunedSchema(r)
	for _, corner := range []struct {
		name string
		pick func(p genome.Param) float64
	}{
		{"all min", func(p genome.Param) float64 { return p.Min }},
		{"all max", func(p genome.Param) float64 { return p.Max }},
		{"alternate", func(p genome.Param) float64 {
			if len(p.Name)%2 == 0 {
				return p.Min
			}
			return p.Max
		}},
	} {
		t.Run(corner.name, func(t *testing.T) {
			v := schema.Defaults()
			for _, p := range schema {
				x := genome.Value{Num: corner.pick(p)}
				if p.Kind == genome.Choice {
					// Each model at some corner.
					x = genome.Value{Str: p.Choices[int(corner.pick(genome.Param{Min: 0, Max: float64(len(p.Choices) - 1)}))]}
				}
				if p.Kind == genome.Grid {
					x = genome.Value{Cells: slices.Repeat([]float64{corner.pick(p)}, p.Rows*p.Cols)}
				}
				var err error
				if v, err = v.With(p.Name, x); err != nil {
					t.Fatal(err)
				}
			}
			s, err := newTunedShooter(g, v)
			if err != nil {
				t.Fatal(err)
			}
			// A repeated shot panics; every game must hit every ship cell.
			for seed := range uint64(densScale(50)) {
				densGame(t, g, s.(*densityShooter).Start(g, densShooterRng(seed)), nil, randomPlacer{}, seed)
			}
		})
	}
}

// Example_densityShooters plays one solo game of each probability-density
// shooter against random placement on the classic rules.
func Example_densityShooters() {
	game, err := New(map[string]string{"reveal": "sunk"})
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"bob", "over9000", "tuned"} {
		p, err := game.NewPlayer(ShooterRole, name, genome.Values{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %v shots\n", name, playtest.MustSolo(game, p, game.Placer(), 42))
	}
	// Output:
	// bob: 56 shots
	// over9000: 51 shots
	// tuned: 51 shots
}

// TestTunedOnPosterior: with model posterior and every multiplier neutral
// (grid 1, no tiers, no parity, exponent 1, no jitter) the tuned shooter
// is the posterior shooter, shot for shot; with over9000's grid and jitter
// on top it plays differently somewhere.
func TestTunedOnPosterior(t *testing.T) {
	for _, r := range densRules()[:3] {
		g := mustGeometry(t, r)
		t.Run(r.Reveal.String(), func(t *testing.T) {
			v := tunedSchema(r).Defaults()
			set := func(name string, x genome.Value) {
				var err error
				if v, err = v.With(name, x); err != nil {
					t.Fatal(err)
				}
			}
			set(tunedModel, genome.Value{Str: "posterior"})
			withGrid := v
			ones := make([]float64, g.Cells)
			for i := range ones {
				ones[i] = 1
			}
			set(tunedWeights, genome.Value{Cells: ones})
			set(tunedJitter, genome.Value{Num: 0})
			neutral, err := tunedShooter(g, v)
			if err != nil {
				t.Fatal(err)
			}
			over, err := tunedShooter(g, withGrid)
			if err != nil {
				t.Fatal(err)
			}
			post := &posteriorShooter{p: posteriorParams{Samples: posteriorSamples, Exact: posteriorExact}, t: newDensityTables(g)}
			differ := false
			for seed := range uint64(40) {
				a, b := g.Solo(neutral, randomPlacer{}, seed), g.Solo(post, randomPlacer{}, seed)
				if a != b {
					t.Fatalf("seed %d: tuned on the posterior %d shots, posterior %d", seed, a, b)
				}
				differ = differ || g.Solo(over, randomPlacer{}, seed) != a
			}
			if !differ {
				t.Error("grid and jitter on the posterior changed no game")
			}
		})
	}
}
