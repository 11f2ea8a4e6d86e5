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
// already does. Only the cells whose root is within rounding of the best
// are scored exactly, by value, the same code as ever, and the choice is
// made on those exact scores, exactly as the plain loop makes it. The
// jitter stage classifies cells (draw or not) on the roots too, against
// thresholds computed once a shot, and bounds the jittered score of the
// few drawers that could win from the root with a table-driven log2 and
// exp2 whose errors are proven below; whatever a bound cannot settle is
// scored exactly. So every decision (the best score, ties to the lowest
// cell, which cells draw jitter and in which order, the jittered winner)
// is the plain loop's, and so are the shots and the random numbers drawn
// (TestBoundedChoiceIsExact plays both in lockstep over random and
// extreme parameters).
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

// linearBounds returns lo' <= 2^lo and hi' >= 2^hi, lo <= hi finite
// or lo = -inf, with one exp2Bounds: 2^lo = 2^hi * 2^-(hi-lo) and
// 2^-d >= 1 - d ln 2.
func linearBounds(lo, hi float64) (float64, float64) {
	l, h := exp2Bounds(hi)
	if lo < -boundRange {
		return 0, h
	}
	return l * (1 - (hi-lo)*math.Ln2) * (1 - 1e-12), h
}

// densityRoots are the e-th roots of a shooter's multipliers.
type densityRoots struct {
	e, invE                            float64
	pMin                               float64 // 2^(-900/e): smaller P are scored exactly
	grid                               [MaxCells]float64
	avoid, preferred, critical, parity float64
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
	root := func(x float64) float64 { return math.Pow(x, r.invE) }
	r.avoid, r.preferred, r.critical, r.parity = root(p.Avoid), root(p.Preferred), root(p.Critical), root(p.Parity)
	for c := range r.grid {
		r.grid[c] = 1
	}
	for c, w := range p.Grid {
		r.grid[c] = root(w)
	}
	return r
}

// refine bounds drawer i's jittered score from its cell's root (v = u^e,
// u within 1 +- rootSlack of the root, so log2 v lies within
// e * (log2 u +- 2 rootSlack)), or scores the cell exactly where the
// bound would overflow, and returns the new lower bound.
func (k *densityGunner) refine(i int, m *scoreMasks) float64 {
	rt, sb := k.roots, k.bound
	c := sb.drawCell[i]
	vlo, vhi := 0.0, 0.0 // a root of 0 is a score of 0
	if u := sb.root[c]; u > 0 {
		h := log2Upper(u)
		if lo, hi := rt.e*(h-log2Width-2*rootSlack)-boundSlack, rt.e*(h+2*rootSlack)+boundSlack; hi <= boundRange {
			vlo, vhi = linearBounds(lo, hi)
		} else { // k.score keeps P: the winner's loop scores exactly again
			vlo = k.value(c, k.score[c], m)
			vhi = vlo
		}
	}
	sb.drawLo[i], sb.drawHi[i] = vlo+sb.drawAdd[i], vhi+sb.drawAdd[i]
	return sb.drawLo[i]
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

// scoreBounds is chooseBounded's scratch: by cell, the root of its score;
// then the cells that draw jitter, in cell order, with their draws and
// the bounds of their jittered scores.
type scoreBounds struct {
	root     [MaxCells]float64
	cand     [MaxCells]int8 // cells near the largest root, in cell order
	drawCell [MaxCells]int
	drawAdd  [MaxCells]float64 // U(0,1) * Jitter as drawn
	drawLo   [MaxCells]float64
	drawHi   [MaxCells]float64
}

// chooseBounded is choose for an exponent other than 1: k.score holds
// prod_s (1 - p_s) on entry. It picks the very cell the plain loop would,
// drawing the very same random numbers; see the top of this file.
func (k *densityGunner) chooseBounded(open Bits, m *scoreMasks) int {
	p, rt, sb := k.p, k.roots, k.bound
	score, root := k.score[:k.g.Cells], sb.root[:k.g.Cells]
	grid := rt.grid[:len(root)]
	odd := false // some P is not 0 or a number in [pMin, 2]: never, in fact
	for c, q := range score {
		P := 1 - q
		score[c], root[c] = P, P*grid[c] // score holds P until scored exactly
		if !(P <= 2) || (P < rt.pMin && P != 0) {
			odd = true
		}
	}
	k.scaleMasked(root, open, m, [4]float64{rt.critical, rt.preferred, rt.avoid, rt.parity})
	// wild: cells whose roots prove nothing, scored exactly. The cells
	// whose root is within rounding of the largest so far are gathered in
	// the same pass; those still near the final largest are scored.
	var wild, exact Bits // exact: cells whose k.score is their exact score
	maxRoot, near := 0.0, 0.0
	cand := sb.cand[:0]
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := wi<<6 | bits.TrailingZeros64(w)
			if P := score[c]; odd && !(P >= rt.pMin && P <= 2) && P != 0 {
				wild = wild.Set(c)
				cand = append(cand, int8(c))
				continue
			}
			u := root[c]
			if u < near {
				continue
			}
			if u > maxRoot {
				maxRoot, near = u, u*(1-4*rootSlack)
			}
			cand = append(cand, int8(c))
		}
	}
	// The best exact score is among the wild cells and those whose root
	// is within rounding of the largest: any other scores strictly less
	// than the cell with the largest root. Candidates are mostly ties
	// (cells alike by symmetry), so powers are reused by P.
	best, top := -1, math.Inf(-1)
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
		score[c], exact = v, exact.Set(c)
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
	// A cell draws jitter unless v != top && v+Jitter <= top. A cell not
	// scored exactly has v < top. If its root is clearly below
	// (top - Jitter)^(1/e), v + Jitter <= top: it draws nothing. If its
	// root is clearly above (top - Jitter + top*2^-50)^(1/e), v + Jitter
	// exceeds top by more than an ulp, so rounding cannot bring it back to
	// top: it draws. Otherwise it is scored exactly.
	skipBelow, drawAbove := 0.0, -1.0
	if gap := top - p.Jitter; gap >= 0x1p-900 {
		lo, _ := rt.rootBounds(gap)
		skipBelow = lo * (1 - 4*rootSlack)
	}
	if gap := top - p.Jitter + top*0x1p-50; gap > 0 {
		drawAbove = math.Inf(1)
		if gap >= 0x1p-900 {
			_, hi := rt.rootBounds(gap)
			drawAbove = hi * (1 + 4*rootSlack)
		}
	}
	// A non-exact drawer's jittered score is below top + its draw (v <
	// top and rounding is monotone); the exact ones' are known. Only the
	// drawers that can reach the best lower bound so far are bounded
	// closer, the one with the largest draw first: it most often raises
	// that bound past the others.
	n, floor := 0, math.Inf(-1)
	first, firstAdd := -1, math.Inf(-1)
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := wi<<6 | bits.TrailingZeros64(w)
			switch u := root[c]; {
			case exact.Has(c):
				if v := score[c]; v != top && v+p.Jitter <= top {
					continue
				}
			case u < skipBelow:
				continue
			case u > drawAbove:
			default:
				v := k.value(c, score[c], m)
				score[c], exact = v, exact.Set(c)
				if v != top && v+p.Jitter <= top {
					continue
				}
			}
			add := k.rng.Float64() * p.Jitter
			sb.drawCell[n], sb.drawAdd[n] = c, add
			if exact.Has(c) {
				wv := score[c] + add
				sb.drawLo[n], sb.drawHi[n] = wv, wv
				if wv > floor { // a NaN score never wins
					floor = wv
				}
			} else {
				sb.drawLo[n], sb.drawHi[n] = math.Inf(-1), top+add
				if add > firstAdd {
					first, firstAdd = n, add
				}
			}
			n++
		}
	}
	if first >= 0 {
		floor = max(floor, k.refine(first, m))
	}
	for i := range n {
		if sb.drawLo[i] != math.Inf(-1) || sb.drawHi[i] < floor {
			continue // exact, refined, or out of reach
		}
		floor = max(floor, k.refine(i, m))
	}
	// The winner is the first drawer with the highest jittered score; it
	// is among those that can reach floor, the best lower bound.
	best, bestVal := -1, math.Inf(-1)
	for i := range n {
		if !(sb.drawHi[i] >= floor) {
			continue
		}
		c := sb.drawCell[i]
		if !exact.Has(c) {
			score[c], exact = k.value(c, score[c], m), exact.Set(c)
		}
		if v := score[c] + sb.drawAdd[i]; v > bestVal {
			best, bestVal = c, v
		}
	}
	return best
}
