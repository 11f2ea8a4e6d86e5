package battleship

import (
	"math"
	"math/bits"
)

// This file makes an exponent other than 1 cheap without changing a single
// shot. math.Pow per open cell per shot used to cost the tuned shooter
// about 80% of its time. But a cell's score v = P^e * g * t * r (P its
// combined probability, g, t, r its grid, tier and parity multipliers)
// is an increasing function of its root u = v^(1/e) = P * g' * t' * r',
// with g' = g^(1/e) and so on computed once per shooter: comparing roots
// is comparing scores, and a root costs the multiplications over9000
// already does. Without jitter, only the cells whose root is within
// rounding of the best are scored exactly, by value, the same code as
// ever, and the choice is made on those exact scores, exactly as the
// plain loop makes it. With jitter, the best score (top) is bounded from
// the largest root, and scored exactly only when a cell's draw depends on
// it. The jitter stage classifies cells (draw or not) on the roots too,
// against thresholds computed once a shot from top's bounds, then bounds
// each drawer's jittered score from above from its root, with one line
// of a table (powUpper), and scores exactly only the drawer with the
// highest bound: it wins when its score's lower bound is above every
// other bound, and otherwise whatever bound still reaches the best exact
// score is scored too. So every decision (the best score, ties to the
// lowest cell, which cells draw jitter and in which order, the jittered
// winner: a bound never breaks a tie, it only rules out a cell strictly
// below another) is the plain loop's, and so are the shots and the
// random numbers drawn (TestBoundedChoiceIsExact plays both in lockstep
// over random and extreme parameters).
//
// Where the time goes: the roots' multipliers g' t' r' change only at
// the cells whose tier, parity or state changed, a few a shot, so they
// are kept per cell, with and without parity, and 0 on fired cells
// (remask, from a table of tier roots, without a branch). The roots are
// taken in the pass that folds the last ship into the probability
// product (productRoots), over every cell: that pass also finds the
// largest root (on bits, without a branch) and checks every P. Then one
// pass over the open cells picks the drawers and bounds their scores,
// one over the drawers draws (the random numbers are the plain loop's,
// one per drawer in cell order: that cost is fixed), and two find the
// highest bound (on bits) and check that it stands alone; with jitter,
// math.Pow runs only where a cell's draw depends on the exact best
// score or two drawers' bounds are too close to tell (powBounds settles
// the lead drawer otherwise): 0 to 2 times in 1,000 shots at
// BenchmarkTunedDraws' draws, where it ran once a shot or more. Where
// the fast path's conditions fail (no jitter, a P that is not a number
// in [0, 2], an exponent above 900/53, a best score below powMinTop),
// chooseGeneral works from the same roots, gathering candidates first.
//
// Ties stay deterministic: exact scores break ties to the lowest cell,
// cells draw jitter in increasing cell order, a bound only ever rules
// out a cell strictly below another, and the lead drawer is taken
// without scoring only when its lower bound is strictly above every
// other drawer's upper bound (the first drawer at the highest bound
// otherwise competes with every bound that reaches the best exact
// score, scored exactly).
//
// Rounding. A computed root is within 5 ulps of P * g' * t' * r' (four
// roundings, and one in each precomputed root), so within a factor
// 1 +- rootSlack of the true root; a computed score is within 1e-12 of
// the true one (math.Pow: Exp of the fractional exponent times Log, then
// at most 6 squarings, a few times 1e-14 relative; then three
// multiplications), provided nothing is subnormal or overflows. So the
// roots are used only where every intermediate is normal: an exponent in
// [1/8, 64], multipliers 0 or within 2^-20..2^20, and P >= 2^(-900/e) (a
// cell with a smaller P, or a P that is not a number in [0, 2], is scored
// exactly). A computed root ratio of 1 - 4 rootSlack means a true one
// below 1 - 2 rootSlack and, with e >= 1/8, a score ratio below
// 1 - 2.5e-11, far beyond the 2e-12 the two scores' rounding can close:
// a cell whose root is that far below another's scores strictly less.
//
// The log2 bound. For a normal x = 2^E * mu, mu in [1, 2), let
// mu0 = 1 + i/256 with i the top 8 bits of mu's fraction, and
// u = (mu - mu0) / mu0 in [0, 1/256). Then log2 x = E + log2 mu0 +
// log2(1 + u), and for u >= 0, u - u^2/2 <= ln(1 + u) <= u: log2 x lies
// in [hi - log2Width, hi] with hi = E + log2 mu0 + u log2 e. boundSlack
// covers the rounding of this arithmetic (absolute errors below 1e-12 for
// magnitudes below 1100). TestScoreBounds checks every bound against
// math.Log2, math.Exp2 and the exact score over random draws.

const (
	// rootSlack is the relative error allowed a computed root.
	rootSlack = 1e-10
	// boundSlack widens every log2 bound; the errors it covers are below
	// 1e-11.
	boundSlack = 1e-9
	// boundRange: a jittered score whose log2 bound exceeds it is scored
	// exactly; below -boundRange, 2^y is bounded by [0, 2^-boundRange].
	boundRange = 1000
)

// log2Mu0 and invMu0 are, for i in [0, 256), log2(1 + i/256) and
// 1 / (1 + i/256); exp2Frac is 2^(i/256).
var log2Mu0, invMu0, exp2Frac = func() (l, inv, e [256]float64) {
	for i := range 256 {
		mu0 := 1 + float64(i)/256
		l[i], inv[i], e[i] = math.Log2(mu0), 1/mu0, math.Exp2(float64(i)/256)
	}
	return
}()

// log2Upper returns hi >= log2 x for a positive normal x, without slack:
// log2 x >= hi - log2Width.
func log2Upper(x float64) float64 {
	b := math.Float64bits(x)
	i := b >> 44 & 0xff
	mu := math.Float64frombits(b&(1<<52-1) | 0x3ff<<52)
	mu0 := math.Float64frombits(i<<44 | 0x3ff<<52) // 1 + i/256, exact
	u := (mu - mu0) * invMu0[i]                    // mu - mu0 is exact (Sterbenz)
	return float64(int(b>>52)-1023) + log2Mu0[i] + u*math.Log2E
}

// log2Width bounds u^2/2 * log2 e for u < 1/256: the width of log2Upper's
// interval.
const log2Width = 0x1p-16 * math.Log2E / 2

// exp2Bounds returns lo <= 2^y <= hi for y <= boundRange: with
// 256y = 256n + j + r (n, j integers, 0 <= j < 256, 0 <= r < 1),
// 2^y = 2^n * 2^(j/256) * e^z with z = r ln2/256, and
// 1 + z <= e^z <= 1 + z + z^2; the factors 1 -+ 1e-12 cover the
// rounding. Below 2^-1000 it returns [0, 2^-1000].
func exp2Bounds(y float64) (lo, hi float64) {
	if y < -boundRange {
		return 0, 0x1p-1000
	}
	f := math.Floor(y * 256) // y*256 and y*256 - f are exact
	i := int64(f)
	z := (y*256 - f) * (math.Ln2 / 256)
	scale := math.Float64frombits(uint64(i>>8+1023)<<52) * exp2Frac[i&255]
	return scale * (1 + z) * (1 - 1e-12), scale * (1 + z + z*z) * (1 + 1e-12)
}

// densityRoots are the e-th roots of a shooter's multipliers.
type densityRoots struct {
	e, invE float64
	// On bin j of [0, 1], [j, j+1)/powBins, the line through (lineX[j],
	// lineY[j]) of slope lineB[j] lies above x^e (see powUpper).
	lineX, lineY, lineB                [powBins]float64
	pMin                               float64 // 2^(-900/e): smaller P are scored exactly
	grid                               [MaxCells]float64
	avoid, preferred, critical, parity float64
	// tier is the root of a cell's tier multiplier by the bits fired,
	// critical, preferred, avoid (8, 4, 2, 1): the highest tier applies,
	// and a fired cell's is 0; par is 1 and the parity root. (x * 1 is
	// x: the products are those of one multiplication per tier that
	// applies.)
	tier [16]float64
	par  [2]float64
}

// newDensityRoots returns the roots of p's multipliers, or nil when p's
// scores are computed exactly: an exponent of 1, where there is no
// math.Pow to save, or outside [1/8, 64], or a multiplier outside 0 and
// 2^-20..2^20 (see the top of this file).
func newDensityRoots(p *densityParams) *densityRoots {
	if p.Exponent == 1 || !(p.Exponent >= 0.125 && p.Exponent <= 64) {
		return nil
	}
	tame := func(x float64) bool {
		return x == 0 || (x >= 0x1p-20 && x <= 0x1p20)
	}
	for _, x := range append([]float64{p.Avoid, p.Preferred, p.Critical, p.Parity}, p.Grid...) {
		if !tame(x) {
			return nil
		}
	}
	r := &densityRoots{e: p.Exponent, invE: 1 / p.Exponent, pMin: math.Exp2(-900 / p.Exponent)}
	for j := range powBins {
		a, b := float64(j)/powBins, float64(j+1)/powBins
		if r.e >= 1 { // convex: the chord
			ya := math.Pow(a, r.e)
			r.lineX[j], r.lineY[j], r.lineB[j] = a, ya, (math.Pow(b, r.e)-ya)*powBins
		} else { // concave: the tangent at the middle
			m := (a + b) / 2
			y := math.Pow(m, r.e)
			r.lineX[j], r.lineY[j], r.lineB[j] = m, y, r.e*y/m
		}
	}
	// Below powMinRatio, the constant powUpper(powMinRatio), from bin 1's
	// line (x^e increases).
	r.lineX[0], r.lineY[0], r.lineB[0] = powMinRatio, r.powUpper(powMinRatio), 0
	root := func(x float64) float64 { return math.Pow(x, r.invE) }
	r.avoid, r.preferred, r.critical, r.parity = root(p.Avoid), root(p.Preferred), root(p.Critical), root(p.Parity)
	for i := range r.tier {
		switch {
		case i&8 != 0:
			r.tier[i] = 0
		case i&4 != 0:
			r.tier[i] = r.critical
		case i&2 != 0:
			r.tier[i] = r.preferred
		case i&1 != 0:
			r.tier[i] = r.avoid
		default:
			r.tier[i] = 1
		}
	}
	r.par = [2]float64{1, r.parity}
	for c := range r.grid {
		r.grid[c] = 1
	}
	for c, w := range p.Grid {
		r.grid[c] = root(w)
	}
	return r
}

// rootBounds returns lo <= x^(1/e) <= hi for x >= 2^-900, from
// log2Upper and exp2Bounds: cheaper than math.Pow, and all the jitter
// thresholds need.
func (r *densityRoots) rootBounds(x float64) (lo, hi float64) {
	h := log2Upper(x)
	ylo, yhi := r.invE*(h-log2Width)-boundSlack, r.invE*h+boundSlack
	if yhi > boundRange {
		v := math.Pow(x, r.invE)
		return v * (1 - 1e-12), v * (1 + 1e-12)
	}
	lo, _ = exp2Bounds(ylo)
	_, hi = exp2Bounds(yhi)
	return lo, hi
}

// drawRange is where a cell's root decides its jitter draw, for a top
// score in [tlo, thi]: a root below skipBelow draws nothing, one above
// drawAbove draws, one between is scored exactly (see chooseGeneral).
func (r *densityRoots) drawRange(tlo, thi, jitter float64) (skipBelow, drawAbove float64) {
	skipBelow, drawAbove = 0, -1
	if gap := tlo - jitter; gap >= 0x1p-900 {
		lo, _ := r.rootBounds(gap)
		skipBelow = lo * (1 - 4*rootSlack)
	}
	if gap := thi - jitter + thi*0x1p-50; gap > 0 {
		drawAbove = math.Inf(1)
		if gap >= 0x1p-900 {
			_, hi := r.rootBounds(gap)
			drawAbove = hi * (1 + 4*rootSlack)
		}
	}
	return skipBelow, drawAbove
}

// powBounds returns lo <= v <= hi for the score v of a cell whose
// computed root is u > 0: the true root is within 1 +- rootSlack of u,
// so log2 v lies within e (log2 u +- 2 rootSlack), and boundSlack covers
// the score's rounding (1e-12 relative) and this arithmetic's. ok is
// false where the bounds would leave exp2Bounds' range.
func (r *densityRoots) powBounds(u float64) (lo, hi float64, ok bool) {
	h := log2Upper(u)
	ylo, yhi := r.e*(h-log2Width-2*rootSlack)-boundSlack, r.e*(h+2*rootSlack)+boundSlack
	if !(yhi <= boundRange && ylo >= -boundRange) {
		return 0, 0, false
	}
	lo, _ = exp2Bounds(ylo)
	_, hi = exp2Bounds(yhi)
	return lo, hi, true
}

// scoreBounds is chooseBounded's scratch: by cell, the root of its
// multipliers and of its score; the cells near the largest root; then the
// cells that draw jitter, in cell order, with their draws and their
// jittered scores, exact or bounded above.
type scoreBounds struct {
	// mul[c] is g'(c) t'(c) under masks, and mulPar[c] the same times
	// r'(c) on the hunt's parity cells (masks.parity, the last parity
	// mask of a hunt), both 0 on the fired cells: only the cells whose
	// tier, parity or state changed since the last shot are multiplied
	// again, and a shot that starts or ends a hunt switches arrays, not
	// multipliers.
	mul, mulPar [MaxCells]float64
	masks       scoreMasks // hunting unused
	fired       Bits       // the fired cells mul and mulPar are of
	root        [MaxCells]float64
	cand        [MaxCells]int8 // cells near the largest root, in cell order
	drawCell    [MaxCells]int8
	drawAdd     [MaxCells]float64 // U(0,1) * Jitter as drawn
	drawW       [MaxCells]float64 // an upper bound of the drawer's jittered score
}

// newScoreBounds returns the scratch of a gunner whose multipliers have
// the roots rt, before any tier or parity applies and any cell is fired.
func newScoreBounds(rt *densityRoots) *scoreBounds {
	sb := new(scoreBounds)
	sb.reset(rt)
	return sb
}

// reset makes sb what newScoreBounds(rt) returns.
func (sb *scoreBounds) reset(rt *densityRoots) {
	*sb = scoreBounds{mul: rt.grid, mulPar: rt.grid}
}

// remask brings mul and mulPar up to date with the masks of this shot and
// the fired cells, and returns the one that applies. Each cell takes the
// highest tier it is in, as in multiplied; a fired cell's multiplier is
// 0, so that its root is 0 (or NaN, which productRoots' check of every P
// catches) and the largest root is an open cell's.
func (sb *scoreBounds) remask(rt *densityRoots, m *scoreMasks, fired Bits) *[MaxCells]float64 {
	o := &sb.masks
	parity := o.parity
	if m.hunting {
		parity = m.parity
	}
	changed := Bits{
		Lo: (m.critical.Lo ^ o.critical.Lo) | (m.preferred.Lo ^ o.preferred.Lo) | (m.avoid.Lo ^ o.avoid.Lo) | (parity.Lo ^ o.parity.Lo) | (fired.Lo ^ sb.fired.Lo),
		Hi: (m.critical.Hi ^ o.critical.Hi) | (m.preferred.Hi ^ o.preferred.Hi) | (m.avoid.Hi ^ o.avoid.Hi) | (parity.Hi ^ o.parity.Hi) | (fired.Hi ^ sb.fired.Hi),
	}
	if !changed.Empty() {
		*o = scoreMasks{critical: m.critical, preferred: m.preferred, avoid: m.avoid, parity: parity}
		sb.fired = fired
		for wi, w := range [2]uint64{changed.Lo, changed.Hi} {
			cw, pw, aw, rw, fw := m.critical.Lo, m.preferred.Lo, m.avoid.Lo, parity.Lo, fired.Lo
			if wi == 1 {
				cw, pw, aw, rw, fw = m.critical.Hi, m.preferred.Hi, m.avoid.Hi, parity.Hi, fired.Hi
			}
			for ; w != 0; w &= w - 1 {
				b := uint(bits.TrailingZeros64(w))
				c := (wi<<6 | int(b)) & (MaxCells - 1)
				x := rt.grid[c] * rt.tier[(fw>>b&1)<<3|(cw>>b&1)<<2|(pw>>b&1)<<1|aw>>b&1]
				sb.mul[c], sb.mulPar[c] = x, x*rt.par[rw>>b&1]
			}
		}
	}
	if m.hunting {
		return &sb.mulPar
	}
	return &sb.mul
}

// powBins is the number of lines powUpper chooses from, one per
// 1/powBins of [0, 1].
const powBins = 256

// powUpper returns an upper bound of x^e for x in [0, 1 + 2^-50], with
// one multiplication, one addition and a table look-up: below
// powMinRatio (bin 0), powUpper(powMinRatio) itself, exactly (the line
// is flat). On x's bin from 1 up the line lies above x^e: for e >= 1, x^e is convex and lies
// below its chord over the bin; for e < 1 it is concave and lies below
// any of its tangents. The chord is within e(e-1)/8 (1/powBins/x)^2 of
// x^e relatively (for e <= 4: 1.5e-3 at x = 1/16, 4e-4 at 1/4, 2.3e-5
// near 1), the tangent at the bin's middle within e(1-e)/8 (1/powBins/x)^2.
// Beyond 1, where x^e passes above the last chord, it does so by less
// than e (x - 1) relatively: 64 2^-50 < 1e-13 at most. Rounding: the
// line is y0 + B (x - x0) with y0, B >= 0,
// x - x0 exact (Sterbenz), and |B (x - x0)| <= y0/3 where x - x0 < 0
// (tangents of bins 1 and up: x >= powMinRatio), so it is computed within
// a few ulps, and y0 and B (a difference of two powers divided by the
// bin's width, errors of a few ulps of the larger power, which B times
// the bin's width brings back to that size) add a few more: all far
// within powSlack.
func (r *densityRoots) powUpper(x float64) float64 {
	j := min(int(x*powBins), powBins-1) // x*powBins is exact: powBins is a power of 2
	return r.lineY[j] + r.lineB[j]*(x-r.lineX[j])
}

// twoBits are the bits of 2.0: above them lie the floats above 2, NaN and
// the negative numbers.
const twoBits = 0x4000000000000000

// Limits of powUpper's use in chooseBounded: the ratio x of a drawer's
// root to the largest is at least powMinRatio and the best score at least
// powMinTop, so that top * powUpper(x) >= top * x^e >= 2^-912 stays
// normal (e <= 64); powSlack covers every rounding (see chooseGeneral).
const (
	powMinRatio = 0x1p-8
	powMinTop   = 0x1p-400
	powSlack    = 1e-7
)

// chooseBounded is choose for an exponent other than 1: k.live holds the
// ships in play. It picks the very cell the plain loop would, drawing the
// very same random numbers; see the top of this file.
func (k *densityGunner) chooseBounded(open Bits, m *scoreMasks) int {
	p, rt, sb := k.p, k.roots, k.bound
	maxRoot, tame := k.productRoots(sb.remask(rt, m, k.fired))
	if !tame || rt.pMin > 0x1p-53 || !(p.Jitter > 0) || !(maxRoot > 0) {
		return k.chooseGeneral(open, m)
	}
	// Every P is 0 or a number in [2^-53, 2], so every root proves what
	// it should (see chooseGeneral), and no cell needs scoring yet: the
	// best score, top, lies within the bounds of the largest root's.
	tlo, thi, ok := rt.powBounds(maxRoot)
	if !ok || !(tlo >= powMinTop) {
		return k.chooseGeneral(open, m)
	}
	score, root := &k.score, &sb.root
	near := maxRoot * (1 - 4*rootSlack)
	// Which cells draw: see chooseGeneral.
	skipBelow, drawAbove := rt.drawRange(tlo, thi, p.Jitter)
	// One pass lists the drawers in cell order, each with an upper bound
	// of its score (see chooseGeneral: tlo >= powMinTop here) or, where
	// its draw depends on top, its exact score (its root then NaN); then
	// their jitter is drawn, in that order, and the highest bound found.
	invMax, topS := 1/maxRoot, thi*(1+powSlack)
	var exact Bits
	top, topKnown := 0.0, false
	n := 0
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := (wi<<6 | bits.TrailingZeros64(w)) & (MaxCells - 1)
			u := root[c]
			if u < skipBelow {
				continue
			}
			var ub float64
			if u > drawAbove {
				// Below powMinRatio (a root of 0 too), powUpper is
				// powUpper(powMinRatio): no branch to mispredict.
				ub = topS * rt.powUpper(u*invMax)
			} else { // rare: the draw depends on top
				v := k.value(c, score[c], m)
				score[c], root[c], exact = v, math.NaN(), exact.Set(c)
				if !topKnown {
					top, topKnown = k.topScoreOpen(open, near, m), true
				}
				if v != top && v+p.Jitter <= top {
					continue
				}
				ub = v
			}
			sb.drawCell[n&(MaxCells-1)] = int8(c)
			sb.drawW[n&(MaxCells-1)] = ub
			n++
		}
	}
	// Every bound is a number >= 0 here (every P is tame), so the
	// lead's is the largest of their bits, found without a branch.
	drawAdd, drawW := sb.drawAdd[:n], sb.drawW[:n]
	for i := range drawAdd {
		add := k.rng.Float64() * p.Jitter
		drawAdd[i] = add
		drawW[i] += add
	}
	var mb uint64
	for _, wub := range drawW {
		mb = max(mb, math.Float64bits(wub))
	}
	lead, leadW := -1, math.Float64frombits(mb)
	for i, wub := range drawW {
		if wub == leadW {
			lead = i
			break
		}
	}
	return k.pick(n, lead, leadW, exact, m)
}

// chooseGeneral is chooseBounded where its fast path does not apply (no
// jitter, a P that is not a number in [0, 2], an exponent above 900/53,
// a best score that may leave the range of powUpper's limits): k.score
// and k.bound.root hold every cell's P and root on entry (productRoots).
func (k *densityGunner) chooseGeneral(open Bits, m *scoreMasks) int {
	p, rt, sb := k.p, k.roots, k.bound
	score, root := &k.score, &sb.root
	// One pass over the open cells gathers the cells whose root is
	// within rounding of the largest so far; those still near the final
	// largest are the candidates for the best. wild: cells whose roots prove nothing (a P that is not 0 or a
	// number in [pMin, 2]: never, in fact), scored exactly.
	// A computed P = 1 - q is 0, at least 2^-53 (q < 1 is a multiple of
	// 2^-53 from 1/2 on), negative, above 2 or NaN; so where pMin <=
	// 2^-53 one unsigned comparison of its bits with those of 2 finds
	// the wild ones.
	var wild, exact Bits // exact: cells whose k.score is their exact score
	maxRoot, near := 0.0, 0.0
	nCand := 0
	pMin := 0.0 // P < 0 is caught by the bits: only a pMin above 2^-53 can matter
	if rt.pMin > 0x1p-53 {
		pMin = rt.pMin
	}
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := (wi<<6 | bits.TrailingZeros64(w)) & (MaxCells - 1)
			P, u := score[c], root[c] // score holds P until scored exactly
			if math.Float64bits(P) > twoBits || P < pMin && P != 0 {
				wild = wild.Set(c)
			} else if u < near {
				continue
			} else if u > maxRoot {
				maxRoot, near = u, u*(1-4*rootSlack)
			}
			sb.cand[nCand&(MaxCells-1)] = int8(c)
			nCand++
		}
	}
	cand := sb.cand[:nCand]
	// The best exact score, top, is among the wild cells and those whose
	// root is within rounding of the largest: any other scores strictly
	// less than the cell with the largest root. With jitter, and no wild
	// cell, its bounds from the largest root do until a cell needs top
	// itself (see the drawers' pass): every other cell's root is at most
	// the largest, so its score at most thi. Otherwise the candidates are
	// scored now; they are mostly ties (cells alike by symmetry), so
	// powers are reused by P. A scored cell's root becomes NaN, which the
	// jitter passes below recognise.
	best, top := -1, math.Inf(-1) // once exact (topKnown)
	tlo, thi, topKnown := 0.0, 0.0, true
	if p.Jitter > 0 && wild.Empty() && maxRoot > 0 {
		var ok bool
		tlo, thi, ok = rt.powBounds(maxRoot)
		topKnown = !ok
	}
	if topKnown {
		lastP, lastPow := math.NaN(), 0.0
		for _, c8 := range cand {
			c := int(c8)
			if root[c] < near && !wild.Has(c) {
				continue
			}
			P := score[c]
			if P != lastP {
				lastP, lastPow = P, math.Pow(P, rt.e)
			}
			v := k.multiplied(c, lastPow, m)
			score[c], root[c], exact = v, math.NaN(), exact.Set(c)
			if v > top {
				best, top = c, v
			}
		}
		if best < 0 { // only NaN scores: cannot happen with valid params
			return open.First()
		}
		if p.Jitter == 0 {
			return best
		}
		tlo, thi = top, top
	}
	// A cell draws jitter unless v != top && v+Jitter <= top. A cell not
	// scored exactly has v < top or is among the candidates. If its root
	// is clearly below (tlo - Jitter)^(1/e), v + Jitter <= tlo <= top
	// (and v < top): it draws nothing. If its root is clearly above (thi -
	// Jitter + thi*2^-50)^(1/e), v + Jitter exceeds top by more than an
	// ulp, so rounding cannot bring it back to top: it draws. Otherwise
	// it is scored exactly and compared with top, scored exactly then if
	// it is not yet.
	skipBelow, drawAbove := rt.drawRange(tlo, thi, p.Jitter)
	// The jittered score of a drawer not scored exactly is bounded above
	// from its root u: v <= thi * (u / maxRoot)^e * (1 + powSlack). The
	// cell with the largest root scores at most top <= thi, and the roots are
	// within 1 +- rootSlack of the true ones, the scores within 1e-12:
	// the ratio of two scores is within ((1 + rootSlack) / (1 -
	// rootSlack))^64 (1 + 3e-12) < 1 + 1.3e-8 of the e-th power of their
	// roots' ratio, and the ratio's division, powUpper's few roundings
	// and the two products below add less than 1e-12. Below powMinRatio,
	// powUpper(powMinRatio) bounds x^e; a root of 0 is a score of 0
	// (every multiplier is finite); where powUpper's limits fail, v <=
	// thi is the bound. Rounding is monotone, so fl(bound + draw) bounds
	// fl(v + draw).
	invMax, topS, xMin := 1/maxRoot, thi*(1+powSlack), powMinRatio
	ubSmall := topS * rt.powUpper(powMinRatio)
	if !(tlo >= powMinTop) {
		xMin, ubSmall = math.Inf(1), thi
	}
	// One pass lists the drawers in cell order, each with the bound of its
	// score (the exact score where it is exact, root NaN); a second draws
	// their jitter, in that order, and adds it to the bounds; a third
	// finds the highest bound. (A loop with a call to the random source in
	// it keeps every other value on the stack; and bounding every drawer,
	// where the bounds below the best so far could be skipped, keeps the
	// loops free of branches they mispredict.)
	n := 0
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := (wi<<6 | bits.TrailingZeros64(w)) & (MaxCells - 1)
			u := root[c]
			if u < skipBelow {
				continue
			}
			if !(u > drawAbove) { // NaN (exact) too: the exact score decides
				if u == u {
					score[c], root[c], exact = k.value(c, score[c], m), math.NaN(), exact.Set(c)
					u = math.NaN()
				}
				if !topKnown {
					top, topKnown = k.topScore(cand, near, m), true
				}
				if v := score[c]; v != top && v+p.Jitter <= top {
					continue
				}
			}
			ub := score[c] // exact: the score itself
			if u == u {
				ub = 0.0 // a root of 0 is a score of 0
				if x := u * invMax; x >= xMin {
					ub = topS * rt.powUpper(x)
				} else if u != 0 {
					ub = ubSmall
				}
			}
			sb.drawCell[n&(MaxCells-1)] = int8(c)
			sb.drawW[n&(MaxCells-1)] = ub
			n++
		}
	}
	return k.drawAndPick(n, exact, m)
}

// drawAndPick draws the jitter of the n drawers listed in k.bound, in
// order, and returns the first with the highest jittered score: drawW
// holds each drawer's score bound from above, or its exact score where
// exact has its cell (root NaN, or 0: a score of 0).
func (k *densityGunner) drawAndPick(n int, exact Bits, m *scoreMasks) int {
	p, sb := k.p, k.bound
	drawAdd, drawW := sb.drawAdd[:n], sb.drawW[:n]
	for i := range drawAdd {
		add := k.rng.Float64() * p.Jitter
		drawAdd[i] = add
		drawW[i] += add
	}
	// lead: the first drawer with the highest bound (a NaN bound, never
	// in fact, never leads).
	lead, leadW := -1, math.Inf(-1)
	for i, wub := range drawW {
		if wub > leadW {
			lead, leadW = i, wub
		}
	}
	return k.pick(n, lead, leadW, exact, m)
}

// pick returns the first of the n drawers listed in k.bound with the
// highest jittered score, given lead, the first with the highest bound
// leadW (-1 if none).
func (k *densityGunner) pick(n, lead int, leadW float64, exact Bits, m *scoreMasks) int {
	rt, sb := k.roots, k.bound
	score, root := &k.score, &sb.root
	drawCell, drawAdd, drawW := sb.drawCell[:n], sb.drawAdd[:n], sb.drawW[:n]
	// The winner is the first drawer with the highest jittered score. The
	// lead's bounds from its root (its score itself if it is exact, 0 if
	// its root is 0) settle it as a rule: above every other bound (a NaN
	// bound is not), it wins.
	if lead >= 0 {
		c := int(drawCell[lead]) & (MaxCells - 1)
		wlo, ok := leadW, true
		if u := root[c]; u > 0 {
			var vlo float64
			vlo, _, ok = rt.powBounds(u)
			wlo = vlo + drawAdd[lead]
		} else if u == 0 {
			wlo = drawAdd[lead] // 0 + add; the fast path bounds 0 above by powUpper(0)
		}
		if ok {
			drawW[lead] = math.Inf(-1)
			settled := true
			for _, wub := range drawW {
				if !(wub < wlo) {
					settled = false
					break
				}
			}
			drawW[lead] = leadW
			if settled {
				return c
			}
		}
		if u := root[c]; u == u {
			exact = exact.Set(c)
			drawW[lead] = k.scoreDrawer(c, drawAdd[lead], m)
		}
	}
	// Otherwise (rare): floor, the best exact jittered score; score
	// whatever bound still reaches it, then take the first exact drawer
	// at the highest score; every drawer left unscored is below floor.
	floor := math.Inf(-1)
	for i, c8 := range drawCell {
		if c := int(c8) & (MaxCells - 1); exact.Has(c) {
			if wv := score[c] + drawAdd[i]; wv > floor { // a NaN score never wins
				floor = wv
			}
		}
	}
	for i, c8 := range drawCell {
		if c := int(c8) & (MaxCells - 1); !exact.Has(c) && !(drawW[i] < floor) {
			exact = exact.Set(c)
			if wv := k.scoreDrawer(c, drawAdd[i], m); wv > floor {
				floor = wv
			}
		}
	}
	best, bestVal := -1, math.Inf(-1)
	for i, c8 := range drawCell {
		if c := int(c8) & (MaxCells - 1); exact.Has(c) {
			if wv := score[c] + drawAdd[i]; wv > bestVal {
				best, bestVal = c, wv
			}
		}
	}
	return best
}

// topScore is the best exact score of the open cells: the highest of
// cand's cells whose root is near or above near (see chooseGeneral), each
// scored from its P in k.score or taken from k.score where the cell is
// already scored (its root NaN), leaving both as they are.
func (k *densityGunner) topScore(cand []int8, near float64, m *scoreMasks) float64 {
	top := math.Inf(-1)
	for _, c8 := range cand {
		c := int(c8) & (MaxCells - 1)
		u := k.bound.root[c]
		if u < near {
			continue
		}
		v := k.score[c]
		if u == u {
			v = k.value(c, v, m)
		}
		if v > top { // as in the plain loop: a NaN score never counts
			top = v
		}
	}
	return top
}

// topScoreOpen is topScore over the open cells: the cells whose root is
// near or above near are the cells chooseGeneral's cand would hold, and
// any other, scored or not, scores strictly less than the largest root's.
func (k *densityGunner) topScoreOpen(open Bits, near float64, m *scoreMasks) float64 {
	var cand [MaxCells]int8
	n := 0
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			cand[n&(MaxCells-1)] = int8(wi<<6 | bits.TrailingZeros64(w))
			n++
		}
	}
	return k.topScore(cand[:n], near, m)
}

// productRoots is product fused with the roots: folding in the last ship
// in play, it leaves each cell's P = 1 - prod_s (1 - p_s) in k.score and
// its root P * mul[c] in k.bound.root (the same operations, in the same
// order, as product then chooseGeneral's pass). It returns the largest
// root of all cells (at least 0), and whether every P is 0 or a number
// in [2^-53, 2] (see twoBits).
func (k *densityGunner) productRoots(mul *[MaxCells]float64) (maxRoot float64, tame bool) {
	// With every P tame, every root is 0 or a positive number, whose bits
	// order as the numbers do.
	n := k.g.Cells
	score := k.score[:n]
	last := densityShip{dens: &zeroDensity, inv: 0, times: 1} // a factor of 1: no ship in play
	switch len(k.live) {
	case 0, 1:
		for c := range score {
			score[c] = 1 // 1 * f is f: the fold below is product's
		}
		if len(k.live) == 1 {
			last = k.live[0]
		}
	default:
		k.fold(k.live[:len(k.live)-1])
		last = k.live[len(k.live)-1]
	}
	d, inv, root, mu := last.dens[:n], last.inv, k.bound.root[:n], mul[:n]
	var or uint64 // the bits of every P ORed: the top two are those of NaN, a P >= 2 or below 0
	var mb uint64 // the largest bits of a root: of the largest root, where every P is tame
	switch last.times {
	case 1:
		for c, q := range score {
			P := 1 - float64(q*(1-d[c]*inv))
			u := P * mu[c]
			score[c], root[c] = P, u
			or |= math.Float64bits(P)
			mb = max(mb, math.Float64bits(u))
		}
	case 2:
		for c, q := range score {
			f := 1 - d[c]*inv
			P := 1 - float64(q*f*f)
			u := P * mu[c]
			score[c], root[c] = P, u
			or |= math.Float64bits(P)
			mb = max(mb, math.Float64bits(u))
		}
	default:
		for c, q := range score {
			f := 1 - d[c]*inv
			for range last.times {
				q *= f
			}
			P := 1 - q
			u := P * mu[c]
			score[c], root[c] = P, u
			or |= math.Float64bits(P)
			mb = max(mb, math.Float64bits(u))
		}
	}
	return math.Float64frombits(mb), or>>62 == 0
}

// zeroDensity is productRoots' density of no ship.
var zeroDensity [MaxCells]float64

// scoreDrawer scores cell c exactly, leaves the score in k.score and
// returns it jittered by add.
func (k *densityGunner) scoreDrawer(c int, add float64, m *scoreMasks) float64 {
	v := k.value(c, k.score[c], m)
	k.score[c] = v
	return v + add
}
