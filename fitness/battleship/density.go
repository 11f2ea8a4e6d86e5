package battleship

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// This file is the probability-density kernel shared by the shooters bob,
// over9000 and tuned (seed 001). Every shot it
//
//  1. counts, for every ship still in play, its placements that fit what
//     the shooter knows (cover no miss, no cell of a sunk ship, and under
//     reveal: ship all of the ship's own hits and nobody else's), each
//     weighted HitWeight^k where k is the number of unresolved hits it
//     covers, and turns the count at each cell into the ship's
//     probability p_s(c) = weight covering c / total weight;
//  2. combines the ships as if independent: P(c) = 1 - prod_s (1 - p_s(c));
//  3. scores each unfired cell v(c) = P(c)^Exponent * Grid[c] * tier(c) *
//     parity(c) and fires at the highest v(c) + U(0, Jitter), ties to the
//     lowest cell.
//
// Counting uses bitboards: the legal starts of a length-L ship are the AND
// of L shifted copies of the free cells; the starts are spread to one byte
// per cell and the L shifted copies summed eight cells at a time. Only the
// few placements covering a hit are walked, through Geometry.Covering.
// All scratch memory lives in the gunner, so a shot allocates nothing.
//
// Floating-point order is fixed (and mirrored by the naive reference in
// density_test.go): a cell's density is the integer placement count plus
// the hit extras (HitWeight^k - 1) in increasing order of the first hit a
// placement covers; p = density * (1/total); ships are folded into the
// product in fleet order. With an integral HitWeight every density is an
// exact integer, so the reference agrees bit for bit.

// densityParams are the knobs of the kernel. The neutral value of every
// multiplier is 1; bob and over9000 are fixed settings of it, tuned reads
// it from genome values.
type densityParams struct {
	// UseReveal: follow sunk notices (sunk ships leave the count, their
	// cells stop attracting fire) and, under reveal: ship, the ship named
	// by each hit. False plays on hits and misses only (bob).
	UseReveal bool
	// HitWeight multiplies the weight of a placement once per unresolved
	// hit it covers (>= 1).
	HitWeight float64
	// Exponent is applied to the combined probability; 1 skips math.Pow.
	Exponent float64
	// Grid is a per-cell weight, Cells long; nil means all 1.
	Grid []float64
	// Tier multipliers (the Tier List's ideas): Avoid for unfired
	// neighbours of misses, Preferred for unfired neighbours of unresolved
	// hits, Critical for a cell extending two consecutive unresolved hits
	// in a line. A cell takes the highest tier it qualifies for.
	Avoid, Preferred, Critical float64
	// Parity multiplies, while hunting (no unresolved hits), the cells with
	// (row+col) % m == 0, m the shortest ship not known to be sunk.
	Parity float64
	// Jitter is the amplitude of the uniform noise added to the scores.
	Jitter float64
}

func (p *densityParams) validate(g *Geometry) error {
	bad := func(name string, x, lo float64) error {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < lo {
			return fmt.Errorf("battleship: density shooter: %s = %v, want a finite number >= %v", name, x, lo)
		}
		return nil
	}
	for _, e := range []error{
		bad("hit weight", p.HitWeight, 1), bad("exponent", p.Exponent, 0),
		bad("avoid", p.Avoid, 0), bad("preferred", p.Preferred, 0), bad("critical", p.Critical, 0),
		bad("parity", p.Parity, 0), bad("jitter", p.Jitter, 0),
	} {
		if e != nil {
			return e
		}
	}
	if p.Grid != nil {
		if len(p.Grid) != g.Cells {
			return fmt.Errorf("battleship: density shooter: weight grid has %d cells, board has %d", len(p.Grid), g.Cells)
		}
		for i, w := range p.Grid {
			if err := bad(fmt.Sprintf("weight of %s", g.Name(i)), w, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// densityTables are the per-geometry masks the kernel shifts and counts
// with; immutable, shared by every gunner on the geometry.
type densityTables struct {
	g      *Geometry
	words  int      // 8-cell words covering the board
	maxLen int      // longest ship
	lenIdx []int    // ship length -> index into the per-length scratch
	hStart []Bits   // by length: cells where a horizontal ship may start
	vStart []Bits   // by length: cells where a vertical ship may start
	hPl    [][]Bits // by length and start cell: the horizontal placement
	vPl    [][]Bits // by length and start cell: the vertical placement
	// notWest/notEast: every cell but the first/last column.
	notWest, notEast Bits
	parity           []Bits // by m: cells with (row+col) % m == 0
	fleetCells       int    // hits that end the game
}

func newDensityTables(g *Geometry) *densityTables {
	t := &densityTables{g: g, words: (g.Cells + 7) / 8}
	for _, L := range g.Fleet {
		t.maxLen = max(t.maxLen, L)
		t.fleetCells += L
	}
	t.lenIdx = make([]int, t.maxLen+1)
	for i, L := range g.Lengths {
		t.lenIdx[L] = i
	}
	t.hStart = make([]Bits, t.maxLen+1)
	t.vStart = make([]Bits, t.maxLen+1)
	t.parity = make([]Bits, t.maxLen+1)
	t.hPl = make([][]Bits, t.maxLen+1)
	t.vPl = make([][]Bits, t.maxLen+1)
	for L := 1; L <= t.maxLen; L++ {
		t.hPl[L] = make([]Bits, g.Cells)
		t.vPl[L] = make([]Bits, g.Cells)
		for c := range g.Cells {
			for i := range L {
				if c%g.W+i < g.W {
					t.hPl[L][c] = t.hPl[L][c].Set(c + i)
				}
				if c+i*g.W < g.Cells {
					t.vPl[L][c] = t.vPl[L][c].Set(c + i*g.W)
				}
			}
		}
	}
	for c := range g.Cells {
		row, col := c/g.W, c%g.W
		for L := 1; L <= t.maxLen; L++ {
			if col+L <= g.W {
				t.hStart[L] = t.hStart[L].Set(c)
			}
			if L > 1 && row+L <= g.H { // length 1 has horizontal placements only
				t.vStart[L] = t.vStart[L].Set(c)
			}
			if (row+col)%L == 0 {
				t.parity[L] = t.parity[L].Set(c)
			}
		}
		if col != 0 {
			t.notWest = t.notWest.Set(c)
		}
		if col != g.W-1 {
			t.notEast = t.notEast.Set(c)
		}
	}
	return t
}

// shr returns the set of cells c such that c+k is in b (0 <= k < 128).
func (t *densityTables) shr(b Bits, k int) Bits {
	switch {
	case k == 0:
		return b
	case k < 64:
		return Bits{Lo: b.Lo>>uint(k) | b.Hi<<uint(64-k), Hi: b.Hi >> uint(k)}
	default:
		return Bits{Lo: b.Hi >> uint(k-64)}
	}
}

// shl returns the set of board cells c such that c-k is in b.
func (t *densityTables) shl(b Bits, k int) Bits {
	var r Bits
	switch {
	case k == 0:
		r = b
	case k < 64:
		r = Bits{Lo: b.Lo << uint(k), Hi: b.Hi<<uint(k) | b.Lo>>uint(64-k)}
	default:
		r = Bits{Hi: b.Lo << uint(k-64)}
	}
	return r.And(t.g.All)
}

// The four neighbour shifts: east(b) holds the cells whose west neighbour
// is in b, and so on.
func (t *densityTables) east(b Bits) Bits  { return t.shl(b, 1).And(t.notWest) }
func (t *densityTables) west(b Bits) Bits  { return t.shr(b, 1).And(t.notEast) }
func (t *densityTables) south(b Bits) Bits { return t.shl(b, t.g.W) }
func (t *densityTables) north(b Bits) Bits { return t.shr(b, t.g.W) }

func (t *densityTables) neighbours(b Bits) Bits {
	return t.east(b).Or(t.west(b)).Or(t.south(b)).Or(t.north(b))
}

// extending returns the cells that extend a line of two consecutive cells
// of b (| X | X | ? | in any of the four directions).
func (t *densityTables) extending(b Bits) Bits {
	e := t.east(t.east(b).And(b))
	w := t.west(t.west(b).And(b))
	s := t.south(t.south(b).And(b))
	n := t.north(t.north(b).And(b))
	return e.Or(w).Or(s).Or(n)
}

// densitySpread[x] has byte i set to bit i of x.
var densitySpread = func() (tab [256]uint64) {
	for x := range tab {
		for i := range 8 {
			tab[x] |= uint64(x>>i&1) << (8 * i)
		}
	}
	return tab
}()

// densityShooter is bob, over9000 or tuned: a name and kernel settings.
type densityShooter struct {
	name string
	p    densityParams
	t    *densityTables
}

var _ Shooter = (*densityShooter)(nil)

func newDensityShooter(name string, g *Geometry, p densityParams) (*densityShooter, error) {
	if err := p.validate(g); err != nil {
		return nil, err
	}
	return &densityShooter{name: name, p: p, t: newDensityTables(g)}, nil
}

func (s *densityShooter) Name() string { return s.name }

// densityInline is how many ships and distinct ship lengths a gunner
// holds without a second allocation.
const densityInline = 6

// Start implements Shooter.
func (s *densityShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	t := s.t
	if g != t.g {
		if len(s.p.Grid) != 0 && len(s.p.Grid) != g.Cells {
			panic(fmt.Sprintf("battleship: %s built for %d cells started on %d", s.name, len(s.p.Grid), g.Cells))
		}
		t = newDensityTables(g)
	}
	k := &densityGunner{p: &s.p, t: t, g: g, rng: rng}
	if n := len(g.Fleet); n <= densityInline {
		k.afloat, k.shipHits = k.afloatBuf[:n], k.shipHitsBuf[:n]
	} else {
		k.afloat, k.shipHits = make([]bool, n), make([]Bits, n)
	}
	for i := range k.afloat {
		k.afloat[i] = true
	}
	if n := len(g.Lengths); n <= densityInline {
		k.dens, k.total, k.stamp = k.densBuf[:n], k.totalBuf[:n], k.stampBuf[:n]
	} else {
		k.dens, k.total, k.stamp = make([][MaxCells]float64, n), make([]float64, n), make([]int, n)
	}
	k.hitPowBuf[0] = 1
	for i := 1; i <= t.maxLen; i++ {
		k.hitPowBuf[i] = k.hitPowBuf[i-1] * s.p.HitWeight
	}
	k.tiers = s.p.Avoid != 1 || s.p.Preferred != 1 || s.p.Critical != 1
	return k
}

// densitySunk is a sunk ship whose cells are being worked out from the
// hits (under reveal: sunk only the sinking shot is known).
type densitySunk struct {
	ship, cell int
	hits       Bits // the hits made when it sank: its cells are among them
	known      Bits // cells surely this ship's: the sinking cell at least
	done       bool // known is the whole ship
}

// densityGunner is one game's state of a density shooter. It is one
// allocation for fleets of up to densityInline ships.
type densityGunner struct {
	p   *densityParams
	t   *densityTables
	g   *Geometry
	rng *rand.Rand

	shots               int
	fired, misses, hits Bits
	resolved            Bits // cells of ships known to be sunk
	afloat              []bool
	shipHits            []Bits // reveal: ship — the hits of each ship
	pending             []densitySunk
	tiers               bool // some tier multiplier is not 1

	// Per distinct ship length (Geometry.Lengths order): the density of a
	// ship with no hits of its own, its total, and the shot it is of.
	dens  [][MaxCells]float64
	total []float64
	stamp []int // k.shots+1 when dens was computed

	hitPow           int                   // entries of hitPowBuf in use
	hitPowBuf        [MaxCells + 1]float64 // HitWeight^k
	own              [MaxCells]float64     // ownDensity's result
	q                [MaxCells]float64     // 1 - prod(1 - p), then the score
	spreadH, spreadV [2 * MaxCells]byte    // first half stays zero
	count            [MaxCells]byte

	afloatBuf   [densityInline]bool
	shipHitsBuf [densityInline]Bits
	densBuf     [densityInline][MaxCells]float64
	totalBuf    [densityInline]float64
	stampBuf    [densityInline]int
}

// Observe implements Gunner.
func (k *densityGunner) Observe(s Shot) {
	k.shots++
	k.fired = k.fired.Set(s.Cell)
	if !s.Hit {
		k.misses = k.misses.Set(s.Cell)
		return
	}
	k.hits = k.hits.Set(s.Cell)
	if !k.p.UseReveal {
		return
	}
	if s.Ship >= 0 && s.Ship < len(k.shipHits) {
		k.shipHits[s.Ship] = k.shipHits[s.Ship].Set(s.Cell)
	}
	if s.Sunk < 0 || s.Sunk >= len(k.afloat) || !k.afloat[s.Sunk] {
		return
	}
	k.afloat[s.Sunk] = false
	if k.g.Reveal == RevealShip {
		k.resolved = k.resolved.Or(k.shipHits[s.Sunk])
		return
	}
	k.pending = append(k.pending, densitySunk{ship: s.Sunk, cell: s.Cell, hits: k.hits, known: Cell(s.Cell)})
	k.resolved = k.resolved.Set(s.Cell)
	k.resolve()
}

// resolve works out the cells of sunk ships. A sunk ship of length L lies
// on a placement through its sinking cell made of hits (made by the time
// it sank) that no other sunk ship surely owns; the cells common to all
// such placements are surely its own. Each ship pinned down can narrow
// another's choices, so repeat until nothing changes.
func (k *densityGunner) resolve() {
	for changed := true; changed; {
		changed = false
		for i := range k.pending {
			ps := &k.pending[i]
			if ps.done {
				continue
			}
			L := k.g.Fleet[ps.ship]
			free := ps.hits.AndNot(k.resolved).Or(ps.known)
			common, n := k.g.All, 0
			for _, j := range k.g.Covering[L][ps.cell] {
				if pl := k.g.Placements[L][j]; pl.AndNot(free).Empty() {
					common = common.And(pl)
					n++
				}
			}
			if n == 0 { // inconsistent with the rules; keep what we know
				continue
			}
			ps.done = n == 1
			if common != ps.known {
				ps.known = common
				k.resolved = k.resolved.Or(common)
				changed = true
			}
		}
	}
}

// Fire implements Gunner.
func (k *densityGunner) Fire() int {
	k.probabilities()
	return k.choose()
}

// probabilities fills k.q with P(c) = 1 - prod_s (1 - p_s(c)).
func (k *densityGunner) probabilities() {
	q := k.q[:k.g.Cells]
	for c := range q {
		q[c] = 1
	}
	// The constraints of a ship with no hits of its own (every ship when
	// reveal information is not used or not given).
	ship := k.p.UseReveal && k.g.Reveal == RevealShip
	blocked, cover := k.misses.Or(k.resolved), k.hits.AndNot(k.resolved)
	if ship {
		blocked, cover = k.misses.Or(k.hits), Bits{}
	}
	for i, L := range k.g.Fleet {
		if !k.afloat[i] {
			continue
		}
		var dens *[MaxCells]float64
		var total float64
		if ship && !k.shipHits[i].Empty() {
			dens, total = &k.own, k.ownDensity(L, k.shipHits[i])
		} else {
			li := k.t.lenIdx[L]
			if k.stamp[li] != k.shots+1 {
				k.total[li] = k.density(&k.dens[li], L, blocked, cover)
				k.stamp[li] = k.shots + 1
			}
			dens, total = &k.dens[li], k.total[li]
		}
		if total == 0 {
			continue // no placement fits: knowledge contradicts the rules
		}
		inv := 1 / total
		d := dens[:len(q)]
		for c := range q {
			q[c] *= 1 - d[c]*inv
		}
	}
	for c := range q {
		q[c] = 1 - q[c]
	}
}

// density fills dens with the weighted count of the placements of a
// length-L ship covering each cell, among those meeting no blocked cell,
// and returns the total weight. A placement covering k cells of cover
// weighs HitWeight^k.
func (k *densityGunner) density(dens *[MaxCells]float64, L int, blocked, cover Bits) float64 {
	t, g := k.t, k.g
	free := g.All.AndNot(blocked)
	sh, sv := t.hStart[L].And(free), t.vStart[L].And(free)
	for i := 1; i < L; i++ {
		sh = sh.And(t.shr(free, i))
		sv = sv.And(t.shr(free, i*g.W))
	}
	// Spread the starts to one byte per cell, after a zero first half, and
	// sum L shifted copies eight cells at a time (at most 2L per cell, so
	// bytes never carry into each other).
	densitySpreadInto(&k.spreadH, sh, t.words)
	densitySpreadInto(&k.spreadV, sv, t.words)
	for w := range t.words {
		base := MaxCells + 8*w
		var x uint64
		for i := range L {
			x += binary.LittleEndian.Uint64(k.spreadH[base-i:])
		}
		if L > 1 {
			for i := range L {
				x += binary.LittleEndian.Uint64(k.spreadV[base-i*g.W:])
			}
		}
		binary.LittleEndian.PutUint64(k.count[8*w:], x)
	}
	cnt := k.count[:g.Cells]
	d := dens[:len(cnt)]
	for c, n := range cnt {
		d[c] = float64(n)
	}
	total := float64(sh.Count() + sv.Count())
	if cover.Empty() || k.hitPowBuf[1] == 1 {
		return total
	}
	// Placements covering hits weigh more: add HitWeight^k - 1 for each,
	// horizontal ones first, each orientation in order of first cell (the
	// order of Geometry.Placements).
	var nearH, nearV Bits
	for i := range L {
		nearH = nearH.Or(t.shr(cover, i))
		nearV = nearV.Or(t.shr(cover, i*g.W))
	}
	for o, starts := range [2]Bits{sh.And(nearH), sv.And(nearV)} {
		masks, step := t.hPl[L], 1
		if o == 1 {
			masks, step = t.vPl[L], g.W
		}
		for wi, w := range [2]uint64{starts.Lo, starts.Hi} {
			for ; w != 0; w &= w - 1 {
				s := wi<<6 | bits.TrailingZeros64(w)
				extra := k.hitPowBuf[masks[s].And(cover).Count()] - 1
				total += extra
				for c := s; c < s+L*step; c += step {
					d[c] += extra
				}
			}
		}
	}
	return total
}

// densitySpreadInto writes b, one byte per cell, to the second half of dst.
func densitySpreadInto(dst *[2 * MaxCells]byte, b Bits, words int) {
	for j := range min(words, 8) {
		binary.LittleEndian.PutUint64(dst[MaxCells+8*j:], densitySpread[byte(b.Lo>>(8*j))])
	}
	for j := 8; j < words; j++ {
		binary.LittleEndian.PutUint64(dst[MaxCells+8*j:], densitySpread[byte(b.Hi>>(8*(j-8)))])
	}
}

// ownDensity fills k.own for a ship whose hits are known (reveal: ship):
// its placements must cover all of own and none of the other hits or the
// misses. They are few, so they are walked.
func (k *densityGunner) ownDensity(L int, own Bits) float64 {
	g := k.g
	for c := range g.Cells {
		k.own[c] = 0
	}
	blocked := k.misses.Or(k.hits.AndNot(own))
	w := k.hitPowBuf[own.Count()]
	total := 0.0
	pls := g.Placements[L]
	for _, j := range g.Covering[L][own.First()] {
		pl := pls[j]
		if pl.Meets(blocked) || !own.AndNot(pl).Empty() {
			continue
		}
		total += w
		for wi, m := range [2]uint64{pl.Lo, pl.Hi} {
			for ; m != 0; m &= m - 1 {
				k.own[wi<<6|bits.TrailingZeros64(m)] += w
			}
		}
	}
	return total
}

// choose scores the unfired cells and picks the best.
func (k *densityGunner) choose() int {
	p, t := k.p, k.t
	open := k.g.All.AndNot(k.fired)
	var avoid, preferred, critical, parity Bits
	if k.tiers {
		unresolved := k.hits.AndNot(k.resolved)
		critical = t.extending(unresolved)
		preferred = t.neighbours(unresolved).AndNot(critical)
		avoid = t.neighbours(k.misses).AndNot(critical).AndNot(preferred)
	}
	hunting := p.Parity != 1 && k.hits.AndNot(k.resolved).Empty()
	if hunting {
		parity = t.parity[k.shortestAfloat()]
	}
	best, top := -1, math.Inf(-1)
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := wi<<6 | bits.TrailingZeros64(w)
			v := k.q[c]
			if p.Exponent != 1 {
				v = math.Pow(v, p.Exponent)
			}
			if p.Grid != nil {
				v *= p.Grid[c]
			}
			if k.tiers {
				switch {
				case critical.Has(c):
					v *= p.Critical
				case preferred.Has(c):
					v *= p.Preferred
				case avoid.Has(c):
					v *= p.Avoid
				}
			}
			if hunting && parity.Has(c) {
				v *= p.Parity
			}
			k.q[c] = v
			if v > top {
				best, top = c, v
			}
		}
	}
	if best < 0 { // only NaN scores: cannot happen with valid params
		return open.First()
	}
	if p.Jitter == 0 {
		return best
	}
	// Add U(0, Jitter) to every cell that could still win, in increasing
	// cell order; a cell Jitter or more below the best cannot, so it draws
	// nothing.
	best, bestVal := -1, math.Inf(-1)
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := wi<<6 | bits.TrailingZeros64(w)
			v := k.q[c]
			if v != top && v+p.Jitter <= top {
				continue
			}
			if v += k.rng.Float64() * p.Jitter; v > bestVal {
				best, bestVal = c, v
			}
		}
	}
	return best
}

// shortestAfloat is the length of the shortest ship not known to be sunk.
func (k *densityGunner) shortestAfloat() int {
	m := k.t.maxLen
	for i, L := range k.g.Fleet {
		if k.afloat[i] {
			m = min(m, L)
		}
	}
	return m
}
