package battleship

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
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
// Counting uses bitboards, never a walk over every placement. The valid
// starts of a length-L ship are two bitboards (horizontal, vertical). The
// blocked cells only grow during a game, so each shot the starts whose
// window meets a newly blocked cell (the starts ANDed with the OR of L
// shifted copies of those cells) are dropped, and only the cells of those
// dropped placements are counted down: every placement is dropped at most
// once a game. A length's total is the popcount of its starts. The
// placements covering unresolved hits are found the same way and walked
// to add their extra weight. Ships of one length without hits of their
// own share one density. Scratch memory lives in the gunner: one
// allocation a game for fleets like the classic one (see densityInline)
// plus, under reveal: ship, one buffer for the densities of ships with
// known hits, allocated once; shots reuse it.
//
// Floating-point order is fixed, and mirrored by the naive reference in
// density_test.go: a cell's density is its integer placement count plus
// the extras HitWeight^k - 1 of the placements covering hits, horizontal
// ones first, each orientation by first cell (Geometry.Placements order);
// p = density * (1/total); ships are folded into the product in fleet
// order; the score multiplies P^Exponent (math.Pow skipped at 1) by the
// grid, tier and parity factors in that order (with an exponent other
// than 1, only for the cells where it matters: see densitybound.go, which
// picks the same cells). With an integral
// HitWeight every density and total is an exact integer, so the reference
// agrees bit for bit and picks the very same cells.

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
	// Model is where the combined probability P(c) comes from:
	// modelDensity (steps 1 and 2), or modelPosterior, the whole-fleet
	// posterior (posterior.go) drawing Samples layouts a shot, where
	// HitWeight plays no part. Samples is kept under either model, so
	// that each knob of the tuned shooter has its own setting.
	Model   probModel
	Samples int
}

// posterior is the sampler budget of the posterior model.
func (p *densityParams) posterior() posteriorParams {
	return posteriorParams{Samples: p.Samples, Exact: posteriorExact}
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
	switch p.Model {
	case modelDensity:
	case modelPosterior:
		if err := p.posterior().validate(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("battleship: density shooter: bad model %v", p.Model)
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
	maxLen int      // longest ship
	lenIdx []int    // ship length -> index into the per-length scratch
	hStart []Bits   // by length: cells where a horizontal ship may start
	vStart []Bits   // by length: cells where a vertical ship may start
	hPl    [][]Bits // by length and start cell: the horizontal placement
	vPl    [][]Bits // by length and start cell: the vertical placement
	// base[i][c] counts the placements of a ship of length Lengths[i]
	// covering cell c on an empty board.
	base [][MaxCells]float64
	// notWest/notEast: every cell but the first/last column.
	notWest, notEast Bits
	parity           []Bits // by m: cells with (row+col) % m == 0
}

func newDensityTables(g *Geometry) *densityTables {
	t := &densityTables{g: g}
	for _, L := range g.Fleet {
		t.maxLen = max(t.maxLen, L)
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
	t.base = make([][MaxCells]float64, len(g.Lengths))
	for i, L := range g.Lengths {
		for c := range g.Cells {
			t.base[i][c] = float64(len(g.Covering[L][c]))
		}
	}
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

// densityShooter is bob, over9000 or tuned: a name and kernel settings.
type densityShooter struct {
	name string
	p    densityParams
	t    *densityTables
	rt   *densityRoots // nil: every score is computed exactly
	// gunners holds the gunners of finished games (see recycle): a
	// gunner is some 17 KB, and allocating one a game made the
	// collector's work a tenth of a tuning run's CPU.
	gunners sync.Pool
}

var _ Shooter = (*densityShooter)(nil)

func newDensityShooter(name string, g *Geometry, p densityParams) (*densityShooter, error) {
	if err := p.validate(g); err != nil {
		return nil, err
	}
	return &densityShooter{name: name, p: p, t: newDensityTables(g), rt: newDensityRoots(&p)}, nil
}

func (s *densityShooter) Name() string { return s.name }

// The registry's constructors: the shooters as players, nil on error.
func newBob(g *Geometry) (fitness.Player, error)      { return densityPlayer(bobShooter(g)) }
func newOver9000(g *Geometry) (fitness.Player, error) { return densityPlayer(over9000Shooter(g)) }
func newTunedShooter(g *Geometry, v genome.Values) (fitness.Player, error) {
	return densityPlayer(tunedShooter(g, v))
}

func densityPlayer(s *densityShooter, err error) (fitness.Player, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

// A gunner holds up to densityInline ships and densityInlineLengths
// distinct ship lengths (the classic fleet has 5 and 4) without a second
// allocation.
const (
	densityInline        = 6
	densityInlineLengths = 4
)

// Start implements Shooter.
func (s *densityShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	t := s.t
	if g != t.g {
		if len(s.p.Grid) != 0 && len(s.p.Grid) != g.Cells {
			panic(fmt.Sprintf("battleship: %s built for %d cells started on %d", s.name, len(s.p.Grid), g.Cells))
		}
		t = newDensityTables(g)
	}
	k, _ := s.gunners.Get().(*densityGunner)
	if k == nil {
		k = new(densityGunner)
	}
	// Everything a finished game left is cleared, as a new gunner's
	// memory would be: only the scratch's memory is kept.
	bound := k.bound
	*k = densityGunner{p: &s.p, t: t, g: g, rng: rng, roots: s.rt, home: &s.gunners}
	if s.rt != nil {
		if bound == nil {
			bound = new(scoreBounds)
		}
		bound.reset(s.rt)
		k.bound = bound
	}
	if n := len(g.Fleet); n <= densityInline {
		k.afloat, k.shipHits = k.afloatBuf[:n], k.shipHitsBuf[:n]
	} else {
		k.afloat, k.shipHits = make([]bool, n), make([]Bits, n)
	}
	for i := range k.afloat {
		k.afloat[i] = true
	}
	k.live, k.pending = k.liveBuf[:0], k.pendingBuf[:0]
	if n := len(g.Lengths); n <= densityInlineLengths {
		k.dens, k.total, k.stamp = k.densBuf[:n], k.totalBuf[:n], k.stampBuf[:n]
		k.count, k.startH, k.startV = k.countBuf[:n], k.startBuf[:n], k.startBuf[n:2*n]
	} else {
		k.dens, k.total, k.stamp = make([][MaxCells]float64, n), make([]float64, n), make([]int, n)
		k.count, k.startH, k.startV = make([][MaxCells]float64, n), make([]Bits, n), make([]Bits, n)
	}
	k.reset()
	k.hitPowBuf[0] = 1
	for i := 1; i <= t.maxLen; i++ {
		k.hitPowBuf[i] = k.hitPowBuf[i-1] * s.p.HitWeight
	}
	k.tiers = s.p.Avoid != 1 || s.p.Preferred != 1 || s.p.Critical != 1
	if s.p.Model == modelPosterior {
		k.post = newFleetPosterior(g, t, s.p.posterior(), fitness.NewRand(rng.Uint64()))
	}
	return k
}

// densityShip is one ship in play, p_s(c) = dens[c] * inv, or several
// consecutive ones (in fleet order) with the same density.
type densityShip struct {
	dens  *[MaxCells]float64
	inv   float64
	times int
}

// densitySunk is a sunk ship whose cells are being worked out from the
// hits (under reveal: sunk only the sinking shot is known).
type densitySunk struct {
	ship, cell int
	hits       Bits // the hits made when it sank: its cells are among them
	known      Bits // cells surely this ship's: the sinking cell at least
	done       bool // known is the whole ship
}

// densityGunner is one game's state of a density shooter; see
// densityInline for its allocations.
type densityGunner struct {
	p     *densityParams
	t     *densityTables
	g     *Geometry
	rng   *rand.Rand
	roots *densityRoots

	shots               int
	fired, misses, hits Bits
	resolved            Bits // cells of ships known to be sunk
	afloat              []bool
	shipHits            []Bits // reveal: ship — the hits of each ship
	pending             []densitySunk
	tiers               bool            // some tier multiplier is not 1
	post                *fleetPosterior // the posterior model, if chosen

	// Per distinct ship length (Geometry.Lengths order), for a ship with no
	// hits of its own: the starts of its placements that meet no blocked
	// cell, the number of them covering each cell, and the weighted
	// density with the total weight as of shot stamp-1.
	blocked        Bits // the blocked cells the starts and counts are of
	startH, startV []Bits
	count          [][MaxCells]float64
	dens           [][MaxCells]float64
	total          []float64
	stamp          []int // k.shots+1 when dens and total were computed

	hitPowBuf [MaxCells/2 + 1]float64 // HitWeight^k; ships are at most 64 long
	own       [][MaxCells]float64     // reveal: ship — by ship, the density of one with hits
	live      []densityShip           // the ships in play this shot
	score     [MaxCells]float64       // prod_s (1 - p_s), then each unfired cell's score
	bound     *scoreBounds            // chooseBounded's scratch; Start sets it when roots is set
	home      *sync.Pool              // the shooter's finished gunners, for recycle

	liveBuf     [densityInline]densityShip
	pendingBuf  [densityInline]densitySunk
	afloatBuf   [densityInline]bool
	shipHitsBuf [densityInline]Bits
	densBuf     [densityInlineLengths][MaxCells]float64
	countBuf    [densityInlineLengths][MaxCells]float64
	startBuf    [2 * densityInlineLengths]Bits
	totalBuf    [densityInlineLengths]float64
	stampBuf    [densityInlineLengths]int
}

// recycle hands k back to its shooter for another game; k is not used
// again by its caller.
func (k *densityGunner) recycle() {
	if h := k.home; h != nil {
		k.home, k.rng, k.post = nil, nil, nil // nothing of this game is kept alive
		h.Put(k)
	}
}

// watch implements watcher: under the posterior model shots take long.
func (k *densityGunner) watch(ctx context.Context) bool {
	if k.post == nil {
		return false
	}
	k.post.ctx = ctx
	return true
}

// Observe implements Gunner.
func (k *densityGunner) Observe(s Shot) {
	if k.post != nil {
		k.post.observe(s)
	}
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

// probabilities sets k.live from the shooter's model: the ships in play
// (see ships), or under the posterior model one "ship" whose probability
// is the posterior's P(c), so that 1 - prod_s (1 - p_s) is P(c) itself.
func (k *densityGunner) probabilities() {
	if k.post == nil {
		k.ships()
		return
	}
	k.live = append(k.live[:0], densityShip{dens: k.post.probs(), inv: 1, times: 1})
}

// ships sets k.live to the ships still in play, in fleet order, each with
// its density and the inverse of its total weight, so that its probability
// at cell c is p_s(c) = dens[c] * inv.
func (k *densityGunner) ships() {
	k.live = k.live[:0]
	// The constraints of a ship with no hits of its own (every ship when
	// reveal information is not used or not given).
	ship := k.p.UseReveal && k.g.Reveal == RevealShip
	blocked, cover := k.misses.Or(k.resolved), k.hits.AndNot(k.resolved)
	if ship {
		blocked, cover = k.misses.Or(k.hits), Bits{}
	}
	k.block(blocked)
	for i, L := range k.g.Fleet {
		if !k.afloat[i] {
			continue
		}
		var dens *[MaxCells]float64
		var total float64
		if ship && !k.shipHits[i].Empty() {
			if k.own == nil {
				k.own = make([][MaxCells]float64, len(k.g.Fleet))
			}
			dens, total = &k.own[i], k.ownDensity(&k.own[i], L, k.shipHits[i])
		} else {
			li := k.t.lenIdx[L]
			if k.stamp[li] != k.shots+1 {
				k.total[li] = k.density(li, L, cover)
				k.stamp[li] = k.shots + 1
			}
			dens, total = &k.dens[li], k.total[li]
			if cover.Empty() || k.hitPowBuf[1] == 1 {
				dens = &k.count[li]
			}
		}
		if total == 0 {
			continue // no placement fits: knowledge contradicts the rules
		}
		if n := len(k.live); n > 0 && k.live[n-1].dens == dens {
			k.live[n-1].times++ // the same length, constraints and so density
			continue
		}
		k.live = append(k.live, densityShip{dens: dens, inv: 1 / total, times: 1})
	}
}

// reset makes every placement of every length valid again.
func (k *densityGunner) reset() {
	t := k.t
	k.blocked = Bits{}
	for li, L := range k.g.Lengths {
		k.startH[li], k.startV[li] = t.hStart[L], t.vStart[L]
		k.count[li] = t.base[li]
	}
}

// block brings the starts and counts up to date with the blocked cells.
// Blocked cells only ever grow during a game, so the placements that have
// just become invalid are found with bit operations — the starts whose
// window now meets a blocked cell — and only their cells are counted
// down: each placement is visited at most once per game.
func (k *densityGunner) block(blocked Bits) {
	if blocked == k.blocked {
		return
	}
	if !k.blocked.AndNot(blocked).Empty() {
		k.reset() // cannot happen: knowledge only grows
	}
	t, g := k.t, k.g
	fresh := blocked.AndNot(k.blocked)
	k.blocked = blocked
	for li, L := range g.Lengths {
		var hitH, hitV Bits // starts whose placement meets a fresh cell
		for i := range L {
			hitH = hitH.Or(t.shr(fresh, i))
			hitV = hitV.Or(t.shr(fresh, i*g.W))
		}
		hitH, hitV = hitH.And(k.startH[li]), hitV.And(k.startV[li])
		k.startH[li] = k.startH[li].AndNot(hitH)
		k.startV[li] = k.startV[li].AndNot(hitV)
		cnt := &k.count[li]
		for wi, w := range [2]uint64{hitH.Lo, hitH.Hi} {
			for ; w != 0; w &= w - 1 {
				s := wi<<6 | bits.TrailingZeros64(w)
				for c := s; c < s+L; c++ {
					cnt[c]--
				}
			}
		}
		for wi, w := range [2]uint64{hitV.Lo, hitV.Hi} {
			for ; w != 0; w &= w - 1 {
				s := wi<<6 | bits.TrailingZeros64(w)
				for c := s; c < s+L*g.W; c += g.W {
					cnt[c]--
				}
			}
		}
	}
}

// density sets k.dens[li] to the weighted count of the valid placements of
// a length-L ship covering each cell, where a placement covering k cells
// of cover weighs HitWeight^k, and returns the total weight. With nothing
// to weigh, k.count[li] is the density and k.dens[li] is left alone.
func (k *densityGunner) density(li, L int, cover Bits) float64 {
	t, g := k.t, k.g
	sh, sv := k.startH[li], k.startV[li]
	total := float64(sh.Count() + sv.Count())
	if cover.Empty() || k.hitPowBuf[1] == 1 {
		return total
	}
	d := &k.dens[li]
	copy(d[:g.Cells], k.count[li][:g.Cells])
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

// ownDensity fills dens for a ship whose hits are known (reveal: ship):
// its placements must cover all of own and none of the other hits or the
// misses. They are few, so they are walked.
func (k *densityGunner) ownDensity(dens *[MaxCells]float64, L int, own Bits) float64 {
	g := k.g
	for c := range g.Cells {
		dens[c] = 0
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
				dens[wi<<6|bits.TrailingZeros64(m)] += w
			}
		}
	}
	return total
}

// choose scores the unfired cells and picks the best: the score of cell c
// is (1 - prod_s (1 - p_s(c)))^Exponent times its grid weight, its tier
// multiplier and, while hunting, its parity multiplier. With an exponent
// other than 1 the scores are bounded first (see chooseBounded) and
// math.Pow runs only where a bound cannot settle the choice.
func (k *densityGunner) choose() int {
	if k.p.Exponent != 1 && k.roots != nil {
		open := k.g.All.AndNot(k.fired)
		m := k.masks()
		return k.chooseBounded(open, &m) // folds the product itself
	}
	return k.chooseExact()
}

// chooseExact is choose with every open cell scored exactly (value), each
// score left in k.score: the path of exponent 1 (over9000 and bob take it
// every shot), and the reference the bounded choice is tested against.
func (k *densityGunner) chooseExact() int {
	p := k.p
	open := k.g.All.AndNot(k.fired)
	k.product()
	m := k.masks() // copied into locals, which the loop keeps in registers
	critical, preferred, avoid, parity, hunting := m.critical, m.preferred, m.avoid, m.parity, m.hunting
	// The loop body is value, inlined: a call per cell costs over9000 and
	// bob a tenth of their time (value is too large to inline).
	best, top := -1, math.Inf(-1)
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := wi<<6 | bits.TrailingZeros64(w)
			v := 1 - k.score[c]
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
			k.score[c] = v
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
			v := k.score[c]
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

// scoreMasks are the cells each multiplier of this shot applies to.
type scoreMasks struct {
	avoid, preferred, critical, parity Bits
	hunting                            bool
}

// masks works out which cells take a tier or the parity multiplier.
func (k *densityGunner) masks() scoreMasks {
	p, t := k.p, k.t
	var m scoreMasks
	if k.tiers {
		unresolved := k.hits.AndNot(k.resolved)
		m.critical = t.extending(unresolved)
		m.preferred = t.neighbours(unresolved).AndNot(m.critical)
		m.avoid = t.neighbours(k.misses).AndNot(m.critical).AndNot(m.preferred)
	}
	m.hunting = p.Parity != 1 && k.hits.AndNot(k.resolved).Empty()
	if m.hunting {
		m.parity = t.parity[k.shortestAfloat()]
	}
	return m
}

// value is the score of cell c whose combined probability is P: the one
// definition of a score, in the documented order of operations.
func (k *densityGunner) value(c int, P float64, m *scoreMasks) float64 {
	v := P
	if k.p.Exponent != 1 {
		v = math.Pow(v, k.p.Exponent)
	}
	return k.multiplied(c, v, m)
}

// multiplied is value's second half: the power v of cell c's P times the
// cell's multipliers.
func (k *densityGunner) multiplied(c int, v float64, m *scoreMasks) float64 {
	p := k.p
	if p.Grid != nil {
		v *= p.Grid[c]
	}
	if k.tiers {
		switch {
		case m.critical.Has(c):
			v *= p.Critical
		case m.preferred.Has(c):
			v *= p.Preferred
		case m.avoid.Has(c):
			v *= p.Avoid
		}
	}
	if m.hunting && m.parity.Has(c) {
		v *= p.Parity
	}
	return v
}

// product sets k.score[c] to prod_s (1 - p_s(c)) for every cell, folding
// the ships in ship by ship over the whole board: independent cells
// pipeline, where a per-cell chain would not. The first ship writes its
// factor (1 * f is f); ships sharing one density multiply its factor in
// as many times, left to right.
func (k *densityGunner) product() { k.fold(k.live) }

// fold is product over the ships live.
func (k *densityGunner) fold(live []densityShip) {
	score := k.score[:k.g.Cells]
	fresh := true
	for _, s := range live {
		d, inv := s.dens[:len(score)], s.inv
		switch {
		case fresh && s.times == 1:
			for c := range score {
				score[c] = 1 - d[c]*inv
			}
		case fresh && s.times == 2:
			for c := range score {
				f := 1 - d[c]*inv
				score[c] = f * f
			}
		case fresh:
			for c := range score {
				f := 1 - d[c]*inv
				q := f
				for range s.times - 1 {
					q *= f
				}
				score[c] = q
			}
		case s.times == 1:
			for c, q := range score {
				score[c] = q * (1 - d[c]*inv)
			}
		case s.times == 2:
			for c, q := range score {
				f := 1 - d[c]*inv
				score[c] = q * f * f
			}
		default:
			for c, q := range score {
				f := 1 - d[c]*inv
				for range s.times {
					q *= f
				}
				score[c] = q
			}
		}
		fresh = false
	}
	if fresh {
		for c := range score {
			score[c] = 1
		}
	}
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
