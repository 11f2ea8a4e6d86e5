package battleship

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// knobFields reads the kernel settings of a density shooter under the
// names the tuned shooter's schema gives its knobs. It is the one place
// these tests know densityParams' fields: adapt it, not the tests, when
// the kernel's settings change shape. The names are written out, not
// taken from the tuned* constants, so a knob wired to another knob's
// field shows.
func knobFields(p densityParams) map[string]any {
	return map[string]any{
		"exponent":       p.Exponent,
		"hit_weight":     p.HitWeight,
		"weights":        slices.Clone(p.Grid),
		"tier_avoid":     p.Avoid,
		"tier_preferred": p.Preferred,
		"tier_critical":  p.Critical,
		"parity":         p.Parity,
		"jitter":         p.Jitter,
		"model":          p.Model.String(),
		"samples":        p.Samples,
	}
}

// TestTunedKnobsEachSetTheirOwnField moves one knob at a time away from
// its default: the setting of the same name takes the new value and no
// other setting moves, so two knobs wired to each other's fields fail.
func TestTunedKnobsEachSetTheirOwnField(t *testing.T) {
	r := Classic()
	g := mustGeometry(t, r)
	schema := tunedSchema(r)
	base, err := tunedShooter(g, schema.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	want := knobFields(base.p)
	var names []string
	for _, p := range schema {
		names = append(names, p.Name)
	}
	var fields []string
	for name := range want {
		fields = append(fields, name)
	}
	slices.Sort(names)
	slices.Sort(fields)
	if !slices.Equal(names, fields) {
		t.Fatalf("schema knobs %v, settings read %v", names, fields)
	}
	for _, p := range schema {
		t.Run(p.Name, func(t *testing.T) {
			var x genome.Value
			var moved any
			if p.Kind == genome.Grid {
				// A different weight per ring, none of them a default.
				cells := edgeGrid(r.H, r.W, []float64{0.5, 0.7, 0.9, 1.3, 1.7})
				x, moved = genome.Value{Cells: cells}, cells
			} else if p.Kind == genome.Choice {
				other := p.Choices[len(p.Choices)-1] // not the default, the first
				x, moved = genome.Value{Str: other}, other
			} else if p.Kind == genome.Int {
				v := math.Round(p.Min + (p.Max-p.Min)*0.37)
				x, moved = genome.Value{Num: v}, int(v)
			} else {
				v := p.Min + (p.Max-p.Min)*0.37 // inside the range, off every default
				x, moved = genome.Value{Num: v}, v
			}
			vals, err := schema.Defaults().With(p.Name, x)
			if err != nil {
				t.Fatal(err)
			}
			s, err := tunedShooter(g, vals)
			if err != nil {
				t.Fatal(err)
			}
			if !s.p.UseReveal {
				t.Error("the tuned shooter ignores sunk notices")
			}
			got := knobFields(s.p)
			for name, w := range want {
				if name == p.Name {
					w = moved
				}
				if !reflect.DeepEqual(got[name], w) {
					t.Errorf("knob %s = %v: setting %s is %v, want %v", p.Name, x, name, got[name], w)
				}
			}
		})
	}
}

// TestOver9000DocumentedSettings holds over9000 to what its seed and the
// README document: placements covering k unresolved hits weigh 20^k, ring
// weights 1.2 on the edge, 1.1 on the next ring and 1.0 inside, jitter
// 0.01, sunk notices followed, every other multiplier neutral; and bob is
// the same density without the grid, the jitter or the notices.
func TestOver9000DocumentedSettings(t *testing.T) {
	for _, r := range []Rules{Classic(), {W: 7, H: 12, Fleet: []int{4, 3}, Reveal: RevealSunk}} {
		t.Run(fmt.Sprintf("%dx%d", r.W, r.H), func(t *testing.T) {
			g := mustGeometry(t, r)
			o, err := over9000Shooter(g)
			if err != nil {
				t.Fatal(err)
			}
			grid := make([]float64, g.Cells)
			for c := range grid {
				row, col := c/r.W, c%r.W
				switch min(row, col, r.H-1-row, r.W-1-col) {
				case 0:
					grid[c] = 1.2
				case 1:
					grid[c] = 1.1
				default:
					grid[c] = 1.0
				}
			}
			// Samples is the posterior model's budget, unused by over9000's
			// density model; it equals the tuned shooter's default.
			want := densityParams{UseReveal: true, HitWeight: 20, Exponent: 1, Grid: grid,
				Avoid: 1, Preferred: 1, Critical: 1, Parity: 1, Jitter: 0.01, Samples: posteriorSamples}
			if !reflect.DeepEqual(o.p, want) {
				t.Errorf("over9000 %+v\nwant     %+v", o.p, want)
			}
			b, err := bobShooter(g)
			if err != nil {
				t.Fatal(err)
			}
			want = densityParams{HitWeight: 20, Exponent: 1, Avoid: 1, Preferred: 1, Critical: 1, Parity: 1}
			if !reflect.DeepEqual(b.p, want) {
				t.Errorf("bob %+v\nwant %+v", b.p, want)
			}
		})
	}
}

// TestDensityParamsValidate refuses every setting below its lower bound,
// NaN or infinite, naming it, and accepts each bound itself.
func TestDensityParamsValidate(t *testing.T) {
	g := mustGeometry(t, Classic())
	ok := func() densityParams {
		return densityParams{HitWeight: 1, Exponent: 0, Avoid: 0, Preferred: 0, Critical: 0, Parity: 0, Jitter: 0,
			Grid: make([]float64, g.Cells)}
	}
	if err := (&densityParams{HitWeight: 1}).validate(g); err != nil {
		t.Fatalf("every setting at its bound, no grid: %v", err)
	}
	p := ok()
	if err := p.validate(g); err != nil {
		t.Fatalf("every setting at its bound: %v", err)
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		set  func(*densityParams)
	}{
		{"hit weight", func(p *densityParams) { p.HitWeight = 0.999 }},
		{"hit weight", func(p *densityParams) { p.HitWeight = inf }},
		{"exponent", func(p *densityParams) { p.Exponent = -0.001 }},
		{"exponent", func(p *densityParams) { p.Exponent = nan }},
		{"avoid", func(p *densityParams) { p.Avoid = -1 }},
		{"preferred", func(p *densityParams) { p.Preferred = nan }},
		{"critical", func(p *densityParams) { p.Critical = -inf }},
		{"parity", func(p *densityParams) { p.Parity = -0.5 }},
		{"jitter", func(p *densityParams) { p.Jitter = -0.01 }},
		{"weight of A1", func(p *densityParams) { p.Grid[0] = -1 }},
		{"weight of J10", func(p *densityParams) { p.Grid[99] = nan }},
		{"weight grid has 99 cells", func(p *densityParams) { p.Grid = p.Grid[:99] }},
		{"posterior: samples 0", func(p *densityParams) { p.Model, p.Samples = modelPosterior, 0 }},
		{"weight grid has 99 cells", func(p *densityParams) { p.Model, p.Samples, p.Grid = modelPosterior, 96, p.Grid[:99] }},
		{"bad model", func(p *densityParams) { p.Model = 99 }},
	} {
		p := ok()
		tc.set(&p)
		if err := p.validate(g); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// densAgainstReference plays one game of the tuned shooter at values v
// against a uniform fleet and compares the kernel's exact score of every
// unfired cell with the naive reference's before every shot; a twin
// gunner firing the fast way (the bounded choice) must pick the same cells.
func densAgainstReference(t *testing.T, g *Geometry, v genome.Values, seed uint64) {
	t.Helper()
	s, err := tunedShooter(g, v)
	if err != nil {
		t.Fatal(err)
	}
	ref := &densRef{g: g, p: s.p}
	k := s.Start(g, densShooterRng(seed)).(*densityGunner)
	fast := s.Start(g, densShooterRng(seed))
	f := newFleet(g, placeUniform(g, fitness.NewRand(seed)))
	for f.afloat > 0 {
		c := exactGunner{k}.Fire() // every score exact, in k.score
		if fc := fast.Fire(); fc != c {
			t.Fatalf("seed %d shot %d: the fast choice is %s, the exact one %s", seed, len(ref.shots)+1, g.Name(fc), g.Name(c))
		}
		want, open := ref.values()
		for cell, o := range open {
			if got := k.score[cell]; o && math.Abs(got-want[cell]) > 1e-9*max(1, math.Abs(want[cell])) {
				t.Fatalf("seed %d shot %d cell %s: kernel %v, reference %v", seed, len(ref.shots)+1, g.Name(cell), got, want[cell])
			}
		}
		shot := f.shoot("tuned", c)
		k.Observe(shot)
		fast.Observe(shot)
		ref.Observe(shot)
	}
}

// TestDensityEachKnobAloneAgainstReference moves one knob of the tuned
// shooter at a time, the others at their defaults, and holds the kernel
// to the reference: a knob whose effect the kernel skips when the other
// knobs are neutral (a tier multiplier alone, say) shows here, where
// random values, which move every knob at once, hide it.
func TestDensityEachKnobAloneAgainstReference(t *testing.T) {
	for _, r := range []Rules{Classic(), {W: 10, H: 10, Fleet: []int{5, 4, 3, 3, 2}, Reveal: RevealShip}} {
		g := mustGeometry(t, r)
		schema := tunedSchema(r)
		for _, p := range schema {
			t.Run(fmt.Sprintf("%v/%s", r.Reveal, p.Name), func(t *testing.T) {
				for seed := range uint64(densScale(8)) {
					x := genome.Value{Num: p.Min + (p.Max-p.Min)*fitness.NewRand(seed).Float64()}
					switch p.Kind {
					case genome.Choice, genome.Int:
						// model and samples: the reference is the
						// density model's (the posterior has its own
						// tests in posterior_test.go), and samples has
						// no effect on it.
						x = p.Default
					}
					if p.Kind == genome.Grid {
						x = genome.Value{Cells: edgeGrid(r.H, r.W, []float64{0.5, 3, 0.2, 2, 1.5})}
					}
					v, err := schema.Defaults().With(p.Name, x)
					if err != nil {
						t.Fatal(err)
					}
					densAgainstReference(t, g, v, seed)
				}
			})
		}
	}
}

// TestDensityFleetsBeyondTheInlineBuffers plays fleets with more ships
// and more distinct lengths than a gunner keeps without allocating.
func TestDensityFleetsBeyondTheInlineBuffers(t *testing.T) {
	for _, r := range []Rules{
		{W: 10, H: 10, Fleet: []int{2, 2, 2, 2, 3, 3, 3, 4}, Reveal: RevealSunk},
		{W: 11, H: 11, Fleet: []int{6, 5, 4, 3, 2, 1, 1}, Reveal: RevealShip},
	} {
		g := mustGeometry(t, r)
		t.Run(fmt.Sprintf("%d ships", len(r.Fleet)), func(t *testing.T) {
			for seed := range uint64(densScale(6)) {
				v, err := densRandomValues(t, tunedSchema(r), fitness.NewRand(seed)).With(tunedModel, genome.Value{Str: modelDensity.String()})
				if err != nil {
					t.Fatal(err)
				}
				densAgainstReference(t, g, v, seed)
			}
		})
	}
}

// TestDensityShooterOnAnotherBoard: a shooter built for one board and
// started on another plays as one built for that board; one whose weight
// grid does not fit refuses, naming itself.
func TestDensityShooterOnAnotherBoard(t *testing.T) {
	classic := mustGeometry(t, Classic())
	other := mustGeometry(t, Rules{W: 7, H: 12, Fleet: []int{4, 3, 2}, Reveal: RevealSunk})
	foreign, err := bobShooter(classic)
	if err != nil {
		t.Fatal(err)
	}
	native, err := bobShooter(other)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(densScale(20)) {
		densGame(t, other, foreign.Start(other, densShooterRng(seed)), native.Start(other, densShooterRng(seed)), randomPlacer{}, seed)
	}
	o9k, err := over9000Shooter(classic)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if msg := fmt.Sprint(recover()); !strings.Contains(msg, "over9000 built for 100 cells started on 84") {
			t.Fatalf("over9000 started on another board: %s", msg)
		}
	}()
	o9k.Start(other, densShooterRng(0))
}
