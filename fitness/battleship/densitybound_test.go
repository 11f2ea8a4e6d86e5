package battleship

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// exactGunner fires with chooseExact.
type exactGunner struct{ k *densityGunner }

func (e exactGunner) Fire() int      { e.k.probabilities(); return e.k.chooseExact() }
func (e exactGunner) Observe(s Shot) { e.k.Observe(s) }

// TestBoundedChoiceIsExact plays the tuned shooter in lockstep with
// itself scoring exactly (chooseExact, one math.Pow per cell), over random
// in-range parameter vectors, extreme ones and seeds, under all three
// reveal rules and on odd boards: every shot must be the same cell, and
// the two random sources must stay in the same state (the same jitter
// draws, so the same later shots).
func TestBoundedChoiceIsExact(t *testing.T) {
	schema := func(r Rules) genome.Schema { return tunedSchema(r) }
	for _, r := range densRules() {
		g := mustGeometry(t, r)
		t.Run(fmt.Sprintf("%v/%dx%d", r.Reveal, r.W, r.H), func(t *testing.T) {
			vectors := boundVectors(t, schema(r), densScale(40))
			bounded, shots := 0, 0
			for i, v := range vectors {
				s, err := tunedShooter(g, v)
				if err != nil {
					t.Fatal(err)
				}
				if s.rt != nil {
					bounded++
				}
				for seed := range uint64(densScale(8)) {
					seed += uint64(i) * 1000
					pa, pb := rand.NewPCG(seed, 7), rand.NewPCG(seed, 7)
					fast := s.Start(g, rand.New(pa))
					ref := exactGunner{s.Start(g, rand.New(pb)).(*densityGunner)}
					f := newFleet(g, placeUniform(g, fitness.NewRand(seed)))
					for f.afloat > 0 {
						c, want := fast.Fire(), ref.Fire()
						if c != want {
							t.Fatalf("vector %d seed %d shot %d: bounded %s, exact %s (params %v)",
								i, seed, shots, g.Name(c), g.Name(want), v.Map())
						}
						sa, _ := pa.MarshalBinary()
						sb, _ := pb.MarshalBinary()
						if string(sa) != string(sb) {
							t.Fatalf("vector %d seed %d shot %d: the random sources parted (params %v)", i, seed, shots, v.Map())
						}
						shot := f.shoot("tuned", c)
						fast.Observe(shot)
						ref.Observe(shot)
						shots++
					}
				}
			}
			if bounded < len(vectors)/2 {
				t.Fatalf("only %d of %d vectors took the bounded path", bounded, len(vectors))
			}
		})
	}
}

// boundVectors are n random in-range vectors of schema, then corners:
// the extreme exponents with the largest and no jitter, and multipliers
// at both ends of their ranges.
func boundVectors(t testing.TB, schema genome.Schema, n int) []genome.Values {
	t.Helper()
	rng := fitness.NewRand(14)
	var out []genome.Values
	for range n {
		out = append(out, densRandomValues(t, schema, rng))
	}
	set := func(v genome.Values, name string, x float64) genome.Values {
		p, _ := schema.Lookup(name)
		val := genome.Value{Num: x}
		if p.Kind == genome.Grid {
			val = genome.Value{Cells: make([]float64, p.Rows*p.Cols)}
			for i := range val.Cells {
				val.Cells[i] = x
			}
		}
		v, err := v.With(name, val)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, e := range []float64{0.25, 0.5, 2, 4} {
		for _, j := range []float64{0, 0.25} {
			for _, high := range []bool{false, true} {
				v := set(schema.Defaults(), tunedExponent, e)
				v = set(v, tunedJitter, j)
				for _, name := range []string{tunedWeights, tunedAvoid, tunedPreferred, tunedCritical, tunedParity} {
					p, _ := schema.Lookup(name)
					x := p.Min
					if high {
						x = p.Max
					}
					v = set(v, name, x)
				}
				out = append(out, v)
			}
		}
	}
	return out
}

// TestRootBoundsWholeDomain holds rootBounds to its contract, lo <= x^(1/e)
// <= hi, within 1e-3 where the root is above 2^-999 (exp2Bounds's range),
// over all of x >= 2^-900 at the schema's extreme exponents: past a root
// of 2^1000 (exponents below 1, x above 2^125 at 1/8) it takes
// math.Pow's root, a branch no shooter's score reaches.
func TestRootBoundsWholeDomain(t *testing.T) {
	rng := fitness.NewRand(5)
	for _, e := range []float64{0.125, 0.3, 0.9, 1.1, 7, 64} {
		rt := newDensityRoots(&densityParams{Exponent: e, Avoid: 1, Preferred: 1, Critical: 1, Parity: 1})
		xs := []float64{0x1p-900, 1, 0x1p125, 0x1p126, 0x1p127, math.MaxFloat64}
		for range 2000 {
			xs = append(xs, math.Ldexp(1+rng.Float64(), rng.IntN(1923)-900))
		}
		past := 0
		for _, x := range xs {
			root := math.Pow(x, 1/e)
			if math.IsInf(root, 0) {
				continue
			}
			if root > 0x1p1000 {
				past++
			}
			if lo, hi := rt.rootBounds(x); !(lo <= root && root <= hi) || root > 0x1p-999 && hi > lo*(1+1e-3) {
				t.Fatalf("e %v: rootBounds(%v) = [%v, %v], root %v", e, x, lo, hi, root)
			}
		}
		if e < 1 && past == 0 {
			t.Fatalf("e %v: no root above 2^1000 drawn", e)
		}
	}
}

// TestScoreBounds checks the bounds chooseBounded relies on against
// math.Log2, math.Exp2 and the exact score, over random draws and edge
// values: log2Upper and exp2Bounds must contain the true
// value, a cell's root must be within rootSlack of the e-th root of its
// exact score, rootBounds must contain that root, powBounds the score
// from the root, and powUpper must bound x^e from above (below
// powMinRatio, by powUpper(powMinRatio)).
func TestScoreBounds(t *testing.T) {
	rng := fitness.NewRand(3)
	xs := []float64{0x1p-53, 0x1p-1000, 1, 1 - 0x1p-53, 1 + 0x1p-52, 0.5, 0.75, 1.0 / 3, 0x1.00fffffffffffp0, 0x1.ff00000000001p-1}
	for range 200000 {
		xs = append(xs, math.Ldexp(1+rng.Float64(), -rng.IntN(60)))
	}
	for _, x := range xs {
		hi := log2Upper(x)
		if l := math.Log2(x); !(hi-log2Width-1e-12 <= l && l <= hi+1e-12) {
			t.Fatalf("log2Upper(%v) = %v, log2 %v", x, hi, l)
		}
	}
	ys := []float64{-1000, -999.9999999, 1000, 0, -0x1p-60, 0x1p-60, 1 - 0x1p-52, -1 + 0x1p-53, 3.99999999999}
	for range 200000 {
		ys = append(ys, (rng.Float64()*2-1)*1000)
	}
	for _, y := range ys {
		lo, hi := exp2Bounds(y)
		if e := math.Exp2(y); !(lo <= e && e <= hi) || (y > -1000 && hi > lo*(1+1e-4)) {
			t.Fatalf("exp2Bounds(%v) = [%v, %v], exp2 %v", y, lo, hi, e)
		}
	}
	// powUpper bounds x^e from above (powSlack, applied by chooseBounded,
	// is left for the rounding of the ratio and the roots), and closely
	// near 1 for the schema's exponents (1/4..4), both sides of 1.
	for i := range 20000 {
		e := math.Exp(math.Log(0.125) + rng.Float64()*math.Log(512)) // 1/8..64
		if i%2 == 0 {
			e = math.Exp(math.Log(0.25) + rng.Float64()*math.Log(16)) // 1/4..4
		}
		if i < 8 {
			e = []float64{2, 0.125, 64, 0.5, 1 - 0x1p-40, 1 + 0x1p-40, 4, 0.25}[i]
		}
		rt := newDensityRoots(&densityParams{Exponent: e, Avoid: 1, Preferred: 1, Critical: 1, Parity: 1})
		// Below powMinRatio (bin 0, a root of 0 too) it is
		// powUpper(powMinRatio), which bounds x^e there.
		for _, x := range []float64{0, 0x1p-60, 0x1p-9, math.Nextafter(powMinRatio, 0)} {
			if up := rt.powUpper(x); up != rt.powUpper(powMinRatio) || !(up*(1+1e-12) >= math.Pow(powMinRatio, e)) {
				t.Fatalf("powUpper(%v) for e %v = %v, powUpper(powMinRatio) %v, powMinRatio^e %v", x, e, up, rt.powUpper(powMinRatio), math.Pow(powMinRatio, e))
			}
		}
		j := float64(rng.IntN(powBins + 1))
		for _, x := range []float64{powMinRatio, 1, 1 + 0x1p-50, 1 + 0x1p-40, rng.Float64(), 0.25 + 0.75*rng.Float64(),
			1 - rng.Float64()*0x1p-20, j / powBins, math.Nextafter(j/powBins, 0)} {
			x = max(x, powMinRatio)
			up, want := rt.powUpper(x), math.Pow(x, e)
			if !(up*(1+1e-12+e*max(x-1, 0)) >= want) { // beyond 1, by up to e(x-1): see powUpper
				t.Fatalf("powUpper(%v) for e %v = %v, below x^e = %v", x, e, up, want)
			}
			if e <= 4 && (x >= 0.25 && up > want*(1+1e-3) || x >= 0.5 && up > want*(1+1e-4)) {
				t.Fatalf("powUpper(%v) for e %v = %v, loose: x^e = %v", x, e, up, want)
			}
		}
	}
	// A computed root is within 1 +- rootSlack of the e-th root of the
	// computed score.
	g := mustGeometry(t, Classic())
	for i := range 20000 {
		p := densityParams{UseReveal: true, HitWeight: 20,
			Exponent: math.Exp(math.Log(0.125) + rng.Float64()*math.Log(512)), // 1/8..64
			Avoid:    0.1 + rng.Float64()*10, Preferred: 0.1 + rng.Float64()*10, Critical: 0.1 + rng.Float64()*10,
			Parity: 0.25 + rng.Float64()*4, Grid: make([]float64, g.Cells)}
		for c := range p.Grid {
			p.Grid[c] = 0.1 + rng.Float64()*4
		}
		rt := newDensityRoots(&p)
		k := &densityGunner{p: &p, roots: rt, tiers: true}
		m := scoreMasks{critical: Cell(1), preferred: Cell(2), avoid: Cell(3), parity: Cell(1).Set(4), hunting: true}
		for c := range 5 {
			P := math.Ldexp(1+rng.Float64(), -1-rng.IntN(53))
			if P < rt.pMin {
				continue
			}
			u := P * rt.grid[c]
			switch c {
			case 1:
				u = u * rt.critical * rt.parity
			case 2:
				u *= rt.preferred
			case 3:
				u *= rt.avoid
			case 4:
				u *= rt.parity
			}
			v := k.value(c, P, &m)
			if lo, hi := rt.rootBounds(v); !(lo <= math.Pow(v, rt.invE) && math.Pow(v, rt.invE) <= hi) || hi > lo*(1+1e-3) {
				t.Fatalf("rootBounds(%v) for e %v = [%v, %v], root %v", v, p.Exponent, lo, hi, math.Pow(v, rt.invE))
			}
			if lo, hi, ok := rt.powBounds(u); !ok || !(lo <= v && v <= hi) || hi > lo*(1+1e-3) {
				t.Fatalf("powBounds(%v) for e %v = [%v, %v] (%v), score %v", u, p.Exponent, lo, hi, ok, v)
			}
			if d := math.Abs(math.Log(v)/p.Exponent - math.Log(u)); d > rootSlack {
				t.Fatalf("draw %d cell %d: P %v e %v: score %v, root %v: relative error %v", i, c, P, p.Exponent, v, u, d)
			}
		}
	}
}

// TestBoundedChoiceCraftedStates compares choose with chooseExact on
// states no game reaches: random fired cells, hits and misses, and ship
// densities drawn from a palette with exact ties, certain cells (P = 1),
// empty ones (P = 0) and NaN (scored exactly, never chosen over a
// number), so every branch of chooseBounded runs. Picks and random
// sources must agree.
func TestBoundedChoiceCraftedStates(t *testing.T) {
	g := mustGeometry(t, Classic())
	schema := tunedSchema(g.Rules)
	vectors := boundVectors(t, schema, densScale(40))
	rng := fitness.NewRand(99)
	for i, v := range vectors {
		s, err := tunedShooter(g, v)
		if err != nil {
			t.Fatal(err)
		}
		compareCrafted(t, g, s, i, densScale(200), rng)
	}
	// Exponents beyond the schema's, up to the bounded path's limit of 64:
	// above 900/53 the smallest P a game can produce are below pMin.
	for i, e := range []float64{8, 17.5, 40, 64} {
		p := densityParams{UseReveal: true, HitWeight: 20, Exponent: e, Grid: edgeGrid(g.H, g.W, []float64{3, 0.2}),
			Avoid: 0.5, Preferred: 2, Critical: 9, Parity: 0.3, Jitter: []float64{0.25, 1e-3, 1e-9, 0.05}[i]}
		s, err := newDensityShooter("large", g, p)
		if err != nil || s.rt == nil {
			t.Fatalf("exponent %v: %v, roots %v", e, err, s.rt != nil)
		}
		compareCrafted(t, g, s, 1000+i, densScale(400), rng)
	}
}

// compareCrafted plays trials crafted states (see
// TestBoundedChoiceCraftedStates) with s, bounded and exact.
func compareCrafted(t *testing.T, g *Geometry, s *densityShooter, i, trials int, rng *rand.Rand) {
	t.Helper()
	for trial := range trials {
		seed := uint64(i*1000 + trial)
		pa, pb := rand.NewPCG(seed, 3), rand.NewPCG(seed, 3)
		fast := s.Start(g, rand.New(pa)).(*densityGunner)
		ref := s.Start(g, rand.New(pb)).(*densityGunner)
		var fired, hits Bits
		for c := range g.Cells {
			if rng.IntN(3) == 0 {
				fired = fired.Set(c)
				if rng.IntN(3) == 0 {
					hits = hits.Set(c)
				}
			}
		}
		if fired == g.All {
			fired = fired.AndNot(Cell(rng.IntN(g.Cells)))
		}
		var dens [3][MaxCells]float64
		var live []densityShip
		for sh := range 1 + rng.IntN(3) {
			total := float64(1 + rng.IntN(40))
			for c := range g.Cells {
				switch rng.IntN(8) {
				case 0:
					dens[sh][c] = 0
				case 1:
					dens[sh][c] = total
				case 2:
					dens[sh][c] = math.NaN()
				case 3, 4:
					dens[sh][c] = float64(rng.IntN(3)) // ties
				default:
					dens[sh][c] = rng.Float64() * total
				}
			}
			live = append(live, densityShip{dens: &dens[sh], inv: 1 / total, times: 1 + rng.IntN(3)})
		}
		for _, k := range []*densityGunner{fast, ref} {
			k.fired, k.hits, k.misses = fired, hits, fired.AndNot(hits)
			k.live = append(k.live[:0], live...)
		}
		c, want := fast.choose(), ref.chooseExact()
		if c != want {
			t.Fatalf("vector %d trial %d: bounded %s, exact %s (params %+v)", i, trial, g.Name(c), g.Name(want), s.p)
		}
		sa, _ := pa.MarshalBinary()
		sb, _ := pb.MarshalBinary()
		if string(sa) != string(sb) {
			t.Fatalf("vector %d trial %d: the random sources parted", i, trial)
		}
	}
}

// TestIncrementalScratch checks the multipliers' roots chooseBounded
// carries from shot to shot (redone only where a tier or parity mask
// changed, kept apart for hunting and targeting) against a fresh
// computation, over a random sequence of masks: tiers and parity masks
// that change a few cells or many, hunts that start and end.
func TestIncrementalScratch(t *testing.T) {
	g := mustGeometry(t, Classic())
	p := densityParams{UseReveal: true, HitWeight: 20, Exponent: 2.5, Grid: edgeGrid(g.H, g.W, []float64{1.5, 0.7}),
		Avoid: 0.3, Preferred: 3, Critical: 7, Parity: 0.6, Jitter: 0.1}
	rt := newDensityRoots(&p)
	rng := fitness.NewRand(5)
	randomBits := func(prob int) Bits {
		var b Bits
		for c := range g.Cells {
			if rng.IntN(prob) == 0 {
				b = b.Set(c)
			}
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		prob  int // a cell joins a mask with probability 1/prob
		hunts int // a shot hunts with probability 1/hunts
	}{
		{"dense masks, hunting half the time", 3, 2},
		{"sparse masks, hunting mostly", 20, 1},
		{"sparse masks, hunting now and then", 20, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := newScoreBounds(rt)
			var fired Bits
			for step := range 2000 {
				critical := randomBits(3 * tc.prob)
				preferred := randomBits(2 * tc.prob).AndNot(critical)
				m := scoreMasks{critical: critical, preferred: preferred, avoid: randomBits(tc.prob).AndNot(critical).AndNot(preferred),
					parity: randomBits(tc.prob), hunting: rng.IntN(tc.hunts) == 0}
				if step%20 == 0 { // a new game
					fired = Bits{}
				}
				fired = fired.Set(rng.IntN(g.Cells))
				mul := sb.remask(rt, &m, fired)
				k := &densityGunner{p: &p, roots: rt, tiers: true}
				for c := range g.Cells {
					// The root of multiplied's product, within rounding;
					// 0 where fired.
					want := math.Pow(k.multiplied(c, 1, &m), 1/p.Exponent)
					if fired.Has(c) {
						if mul[c] != 0 {
							t.Fatalf("step %d cell %d: fired, multipliers' root %v, want 0", step, c, mul[c])
						}
						continue
					}
					if d := math.Abs(mul[c]/want - 1); d > 1e-14 {
						t.Fatalf("step %d cell %d: multipliers' root %v, want %v", step, c, mul[c], want)
					}
				}
			}
		})
	}
}
