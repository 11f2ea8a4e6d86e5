package battleship

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// This file is the whole-fleet posterior (seed 001's "consider layouts of
// all ships at once"): the probability that a cell holds a ship, given
// everything the rules revealed, under the placement model of the random
// placer.
//
// The model. The random placer lays ship 0, 1, ... in fleet order, each
// uniformly over the placements that do not overlap the ships already laid,
// and restarts on a dead end. A complete layout x = (x_0, ..., x_{k-1})
// therefore has probability proportional to
//
//	pi(x) = prod_j 1 / n_j(x_0 .. x_{j-1}),
//
// n_j being the number of placements of ship j's length that meet none of
// the ships before it. That is not uniform over layouts: a layout whose
// early ships leave fewer spots to later ones weighs more. The posterior is
// pi restricted to the layouts consistent with what the shooter saw:
//
//   - no ship covers a miss, and the ships together cover every hit;
//   - under reveal: ship, ship s covers every hit that named s;
//   - a ship announced sunk by the shot at cell c covers c and lies within
//     the hits made by then; under sunk and ship reveal, a ship not yet
//     announced sunk is not made of hits only.
//
// Estimating it. The posterior is estimated from a pool of weighted
// layouts, each an importance sample: drawn from some proposal q and
// weighted pi(x)/q(x), so that the share of weight on layouts covering a
// cell estimates the cell's probability whatever mix of proposals the pool
// holds. The pool starts as draws from the placer's own process (q = pi,
// weight 1). After each shot the layouts the shot contradicts are dropped,
// which keeps the others properly weighted for the narrower posterior. The
// pool is refilled to its size by more draws from the prior while they
// still pass the evidence often enough, and after that by draws led by the
// evidence (drawGuided): the ships with hits of their own first, then for
// the lowest hit still uncovered a ship and placement covering it, then
// the rest of the fleet clear of everything known, each choice uniform
// among those that fit, q(x) the product of the choices' probabilities.
// Each layout has exactly one such path, so q(x) is exact. Once the
// product over ships of their individually consistent placements is at
// most the exact limit, the layouts are few and are enumerated instead,
// each weighted by pi: the probabilities are then exact.
//
// (Markov-chain moves of one ship at a time were tried first and dropped:
// with hits and sunk ships pinning the fleet, single-ship moves cannot get
// from one consistent layout to another, and a pool regrown from a few
// survivors by them stays where it was; TestPosteriorSampledMatchesExact
// holds the guided draws to the exact posterior in such positions.)

// posteriorParams are the sampler's budget.
type posteriorParams struct {
	Samples int // layouts in the pool
	Exact   int // enumerate once the product of candidate counts is at most this
}

// The posterior shooter's defaults: the largest pool that keeps it above
// 500 solo games per second on one core (BenchmarkPosterior).
const (
	posteriorSamples = 96
	posteriorExact   = 4096
)

// The parameter names of the posterior shooter.
const (
	posteriorSamplesKey = "samples"
	posteriorExactKey   = "exact"
)

func posteriorSchema(Rules) genome.Schema {
	return genome.Schema{
		{Name: posteriorSamplesKey, Kind: genome.Int, Min: 8, Max: 8192, Log: true, Default: genome.Value{Num: posteriorSamples},
			Summary: "layouts sampled to estimate the posterior (the sample budget)"},
		{Name: posteriorExactKey, Kind: genome.Int, Min: 0, Max: 1 << 20, Default: genome.Value{Num: posteriorExact},
			Summary: "enumerate the layouts exactly once at most this many candidate combinations remain (0 = never)"},
	}
}

func posteriorParamsOf(v genome.Values) posteriorParams {
	return posteriorParams{
		Samples: v.Int(posteriorSamplesKey),
		Exact:   v.Int(posteriorExactKey),
	}
}

func (p posteriorParams) validate() error {
	if p.Samples < 1 || p.Exact < 0 {
		return fmt.Errorf("battleship: posterior: samples %d, exact %d: want samples >= 1 and exact >= 0", p.Samples, p.Exact)
	}
	return nil
}

// posteriorShooter fires at the unfired cell the posterior rates most
// likely to hold a ship, the lowest such cell on a tie.
type posteriorShooter struct {
	p posteriorParams
	t *densityTables
}

var _ Shooter = (*posteriorShooter)(nil)

func newPosteriorShooter(g *Geometry, v genome.Values) (fitness.Player, error) {
	p := posteriorParamsOf(v)
	if err := p.validate(); err != nil {
		return nil, err
	}
	return &posteriorShooter{p: p, t: newDensityTables(g)}, nil
}

func (s *posteriorShooter) Name() string { return "posterior" }

// Start implements Shooter.
func (s *posteriorShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	t := s.t
	if g != t.g {
		t = newDensityTables(g)
	}
	// The sampler's stream is drawn from the game's, as the tuned shooter
	// on the posterior model draws it, so that the two agree shot for shot
	// at neutral knobs.
	return &posteriorGunner{post: newFleetPosterior(g, t, s.p, fitness.NewRand(rng.Uint64()))}
}

type posteriorGunner struct {
	post  *fleetPosterior
	fired Bits
}

func (k *posteriorGunner) Observe(s Shot) {
	k.fired = k.fired.Set(s.Cell)
	k.post.observe(s)
}

func (k *posteriorGunner) Fire() int {
	prob := k.post.probs()
	open := k.post.g.All.AndNot(k.fired)
	best, top := open.First(), -1.0
	for wi, w := range [2]uint64{open.Lo, open.Hi} {
		for ; w != 0; w &= w - 1 {
			c := wi<<6 | bits.TrailingZeros64(w)
			if prob[c] > top {
				best, top = c, prob[c]
			}
		}
	}
	return best
}

// fleetPosterior is one game's posterior over the enemy layout.
type fleetPosterior struct {
	g     *Geometry
	t     *densityTables
	p     posteriorParams
	rng   *rand.Rand
	k     int   // ships
	fleet []int // ship lengths, fleet order

	// The evidence.
	misses, hits Bits
	shipHits     []Bits // reveal: ship — the hits that named each ship; nil otherwise
	sunk         []bool
	sunkCell     []int
	sunkHits     []Bits // the hits made when the ship sank
	afloatKnown  bool   // the rules announce sinkings, so a ship not announced is afloat

	// The pool: layout i is ships[i*k : (i+1)*k], occupying occ[i].
	n     int
	ships []Bits
	occ   []Bits
	w     []float64 // importance weights pi/q
	// guided: layout i is a guided draw. The draws from the prior and the
	// guided ones each estimate the posterior; the estimate mixes the two
	// in proportion to their numbers. Pooling their raw weights instead
	// would also be consistent, but the prior draws that survive late in
	// a game stand for the many that did not and outweigh all the guided
	// ones: a handful of layouts would decide.
	guided []bool
	// prior: fresh draws from the prior still pass the evidence often
	// enough to refill the pool with them. It only ever turns off: the
	// evidence only grows.
	prior  bool
	exact  bool // few layouts remain: enumerate them
	broken bool // no layout fits the evidence (rules or observations inconsistent)

	dirty bool // evidence changed since prob was computed
	prob  [MaxCells]float64
	cand  [][]Bits // per ship, its candidates (exact enumeration)
	buf   []Bits   // scratch for one ship's candidates
	// pls[i] and cover[i] are the geometry's placements of ship i's
	// length and their index by cell.
	pls     [][]Bits
	cover   [][][]int32
	optShip []int // scratch: the (ship, placement) options of a guided draw
	optPl   []Bits
	optW    []float64 // their cumulative proposal weights
}

func newFleetPosterior(g *Geometry, t *densityTables, p posteriorParams, rng *rand.Rand) *fleetPosterior {
	k := len(g.Fleet)
	f := &fleetPosterior{
		g: g, t: t, p: p, rng: rng, k: k, fleet: g.Fleet,
		sunk: make([]bool, k), sunkCell: make([]int, k), sunkHits: make([]Bits, k),
		afloatKnown: g.Reveal != RevealHitsOnly,
		ships:       make([]Bits, p.Samples*k), occ: make([]Bits, p.Samples), w: make([]float64, p.Samples), guided: make([]bool, p.Samples),
		prior: true, dirty: true,
		buf: make([]Bits, 0, 2*t.maxLen),
	}
	if g.Reveal == RevealShip {
		f.shipHits = make([]Bits, k)
	}
	f.pls, f.cover = make([][]Bits, k), make([][][]int32, k)
	for i, L := range g.Fleet {
		f.pls[i], f.cover[i] = g.Placements[L], g.Covering[L]
	}
	for f.n < p.Samples {
		occ, ok := f.drawPrior(f.ships[f.n*k : (f.n+1)*k])
		if !ok {
			continue // dead end: the placer restarts too
		}
		f.occ[f.n], f.w[f.n] = occ, 1
		f.n++
	}
	return f
}

// winH returns the horizontal starts of a length-L ship whose window meets b.
func (f *fleetPosterior) winH(b Bits, L int) Bits {
	w := b
	for i := 1; i < L; i++ {
		w = w.Or(f.t.shr(b, i))
	}
	return w
}

func (f *fleetPosterior) winV(b Bits, L int) Bits {
	w := b
	for i := 1; i < L; i++ {
		w = w.Or(f.t.shr(b, i*f.g.W))
	}
	return w
}

// free returns the starts of length-L placements meeting no cell of b.
func (f *fleetPosterior) free(b Bits, L int) (h, v Bits) {
	return f.t.hStart[L].AndNot(f.winH(b, L)), f.t.vStart[L].AndNot(f.winV(b, L))
}

// nFree is the placer's n_j: the placements of length L meeting no cell of b.
func (f *fleetPosterior) nFree(b Bits, L int) int {
	h, v := f.free(b, L)
	return h.Count() + v.Count()
}

// pick returns a uniformly drawn placement among the starts h (horizontal)
// and v (vertical), of which there are n > 0.
func (f *fleetPosterior) pick(h, v Bits, L int) Bits {
	nh := h.Count()
	r := f.rng.IntN(nh + v.Count())
	if r < nh {
		return f.t.hPl[L][nthBit(h, r)]
	}
	return f.t.vPl[L][nthBit(v, r-nh)]
}

// nthBit is Bits.Nth in a few steps instead of one per skipped cell: it
// skips whole bytes by their popcounts first.
func nthBit(b Bits, n int) int {
	w, base := b.Lo, 0
	if lo := bits.OnesCount64(b.Lo); n >= lo {
		w, base, n = b.Hi, 64, n-lo
	}
	for {
		if c := bits.OnesCount8(uint8(w)); n >= c {
			n -= c
			w >>= 8
			base += 8
			continue
		}
		for ; n > 0; n-- {
			w &= w - 1
		}
		return base + bits.TrailingZeros64(w)
	}
}

// drawPrior lays a fleet as the random placer does; false on a dead end.
func (f *fleetPosterior) drawPrior(ships []Bits) (Bits, bool) {
	var occ Bits
	for i, L := range f.fleet {
		h, v := f.free(occ, L)
		if h.Empty() && v.Empty() {
			return occ, false
		}
		ships[i] = f.pick(h, v, L)
		occ = occ.Or(ships[i])
	}
	return occ, true
}

// consistent reports whether a whole layout fits all the evidence.
func (f *fleetPosterior) consistent(ships []Bits, occ Bits) bool {
	if occ.Meets(f.misses) || !f.hits.AndNot(occ).Empty() {
		return false
	}
	for i, s := range ships {
		if !f.fits(i, s) {
			return false
		}
	}
	return true
}

// fits reports whether placement s of ship i fits the evidence about ship i
// alone (not its overlap with others or the hits others must cover).
func (f *fleetPosterior) fits(i int, s Bits) bool {
	if s.Meets(f.misses) {
		return false
	}
	if f.shipHits != nil {
		if !f.shipHits[i].AndNot(s).Empty() {
			return false
		}
		for j, h := range f.shipHits {
			if j != i && s.Meets(h) {
				return false
			}
		}
	}
	if f.sunk[i] {
		return s.Has(f.sunkCell[i]) && s.AndNot(f.sunkHits[i]).Empty()
	}
	return !f.afloatKnown || !s.AndNot(f.hits).Empty()
}

// observe takes in one shot's result and drops the layouts it contradicts.
func (f *fleetPosterior) observe(s Shot) {
	f.dirty = true
	c := s.Cell
	if !s.Hit {
		f.misses = f.misses.Set(c)
		if !f.exact {
			f.filter(func(_ int, _ []Bits, occ Bits) bool { return !occ.Has(c) })
		}
		return
	}
	f.hits = f.hits.Set(c)
	if f.shipHits != nil && s.Ship >= 0 && s.Ship < f.k {
		f.shipHits[s.Ship] = f.shipHits[s.Ship].Set(c)
	}
	sunk := -1
	if s.Sunk >= 0 && s.Sunk < f.k && !f.sunk[s.Sunk] {
		sunk = s.Sunk
		f.sunk[sunk], f.sunkCell[sunk], f.sunkHits[sunk] = true, c, f.hits
	}
	if f.exact {
		return
	}
	named := -1
	if f.shipHits != nil {
		named = s.Ship
	}
	f.filter(func(_ int, ships []Bits, _ Bits) bool {
		for i, sh := range ships {
			if !sh.Has(c) {
				continue
			}
			switch {
			case named >= 0 && i != named:
				return false
			case sunk >= 0:
				return i == sunk && sh.AndNot(f.hits).Empty()
			default:
				return !f.afloatKnown || !sh.AndNot(f.hits).Empty()
			}
		}
		return false
	})
}

// filter keeps the layouts for which keep holds, in order.
func (f *fleetPosterior) filter(keep func(i int, ships []Bits, occ Bits) bool) {
	k, m := f.k, 0
	for i := range f.n {
		ships := f.ships[i*k : (i+1)*k]
		if !keep(i, ships, f.occ[i]) {
			continue
		}
		if m != i {
			copy(f.ships[m*k:(m+1)*k], ships)
			f.occ[m], f.w[m], f.guided[m] = f.occ[i], f.w[i], f.guided[i]
		}
		m++
	}
	f.n = m
}

// probs returns each cell's posterior probability of holding a ship.
func (f *fleetPosterior) probs() *[MaxCells]float64 {
	if !f.dirty {
		return &f.prob
	}
	f.dirty = false
	if f.broken {
		clear(f.prob[:f.g.Cells])
		return &f.prob
	}
	if !f.exact && f.p.Exact > 0 && f.fewLeft() {
		f.exact = true
		f.n = 0
	}
	if f.exact {
		if f.enumerate() {
			return &f.prob
		}
		f.exact = false // over the node budget: cannot happen, see fewLeft
	}
	f.refill()
	clear(f.prob[:f.g.Cells])
	if f.n == 0 {
		return &f.prob
	}
	nGuided, sumGuided := 0, 0.0
	for i := range f.n {
		if f.guided[i] {
			nGuided++
			sumGuided += f.w[i]
		}
	}
	scale := 1.0
	if nGuided > 0 {
		scale = float64(nGuided) / sumGuided
	}
	total := 0.0
	for i := range f.n {
		o, w := f.occ[i], f.w[i]
		if f.guided[i] {
			w *= scale
		}
		total += w
		for wi, m := range [2]uint64{o.Lo, o.Hi} {
			for ; m != 0; m &= m - 1 {
				f.prob[wi<<6|bits.TrailingZeros64(m)] += w
			}
		}
	}
	inv := 1 / total
	for c := range f.g.Cells {
		f.prob[c] *= inv
	}
	return &f.prob
}

// fewLeft reports whether the product over ships of their individually
// consistent placements is at most the exact limit. The product bounds the
// layouts left, and the nodes of their enumeration by k times. The ships
// without evidence of their own are counted first, from bitboards, which
// settles most calls before any list is built.
func (f *fleetPosterior) fewLeft() bool {
	block := f.misses
	for _, h := range f.shipHits {
		block = block.Or(h)
	}
	prod := 1.0
	for i, L := range f.fleet {
		if f.sunk[i] || (f.shipHits != nil && !f.shipHits[i].Empty()) {
			continue
		}
		if prod *= float64(f.nFree(block, L)); prod > float64(f.p.Exact) {
			return false
		}
	}
	return f.fewLeftCands()
}

// enumerate sets f.prob exactly from every consistent layout, weighted by
// pi. It returns false if the enumeration ran over its node budget.
func (f *fleetPosterior) enumerate() bool {
	if !f.fewLeftCands() {
		return false
	}
	clear(f.prob[:f.g.Cells])
	total := 0.0
	budget := (f.k + 1) * max(f.p.Exact, 1) * 4
	ok := f.dfs(0, Bits{}, 1, &budget, func(occ Bits, w float64) {
		total += w
		for wi, m := range [2]uint64{occ.Lo, occ.Hi} {
			for ; m != 0; m &= m - 1 {
				f.prob[wi<<6|bits.TrailingZeros64(m)] += w
			}
		}
	})
	if !ok {
		return false
	}
	if total == 0 {
		f.broken = true
		return true
	}
	inv := 1 / total
	for c := range f.g.Cells {
		f.prob[c] *= inv
	}
	return true
}

// fewLeftCands refreshes the candidate lists for the evidence of now.
func (f *fleetPosterior) fewLeftCands() bool {
	if f.cand == nil {
		f.cand = make([][]Bits, f.k)
	}
	prod := 1.0
	for i, L := range f.fleet {
		f.cand[i] = f.cand[i][:0]
		for _, pl := range f.g.Placements[L] {
			if f.fits(i, pl) {
				f.cand[i] = append(f.cand[i], pl)
			}
		}
		prod *= float64(len(f.cand[i]))
	}
	return prod <= float64(f.p.Exact)
}

// dfs walks the consistent layouts in fleet order from ship j on, with
// the earlier ships on occ and prior weight w so far, calling leaf for
// each. It returns false when the node budget runs out.
func (f *fleetPosterior) dfs(j int, occ Bits, w float64, budget *int, leaf func(occ Bits, w float64)) bool {
	if *budget--; *budget < 0 {
		return false
	}
	if j == f.k {
		if f.hits.AndNot(occ).Empty() {
			leaf(occ, w)
		}
		return true
	}
	rest := 0
	for _, L := range f.fleet[j:] {
		rest += L
	}
	if f.hits.AndNot(occ).Count() > rest {
		return true
	}
	w /= float64(f.nFree(occ, f.fleet[j]))
	for _, pl := range f.cand[j] {
		if pl.Meets(occ) {
			continue
		}
		if !f.dfs(j+1, occ.Or(pl), w, budget, leaf) {
			return false
		}
	}
	return true
}

// refill brings the pool back to its size: draws from the prior while
// they pass the evidence often enough, then draws led by the evidence.
func (f *fleetPosterior) refill() {
	k, size := f.k, f.p.Samples
	if f.n >= size {
		return
	}
	if f.prior {
		tries, kept := 0, 0
		for f.n < size {
			ships := f.ships[f.n*k : (f.n+1)*k]
			occ, ok := f.drawPrior(ships)
			tries++
			if ok && f.consistent(ships, occ) {
				f.occ[f.n], f.w[f.n], f.guided[f.n] = occ, 1, false
				f.n++
				kept++
			}
			// Below one in four, guided draws are cheaper.
			if tries >= 16 && kept*4 < tries {
				f.prior = false
				break
			}
		}
	}
	// Guided draws that survived are dropped and drawn afresh: a survivor
	// from an earlier proposal, which knew less, carries a weight that stands
	// for the draws that did not survive, and a few such weights would
	// decide the estimate.
	f.filter(func(i int, _ []Bits, _ Bits) bool { return !f.guided[i] })
	if f.n >= size {
		return
	}
	f.ownCands()
	// A guided draw fails only when an early choice leaves no room for a
	// later ship; the bound guards against evidence no layout fits.
	for tries := 0; f.n < size && tries < 16*size; tries++ {
		ships := f.ships[f.n*k : (f.n+1)*k]
		if occ, w := f.drawGuided(ships); w > 0 {
			f.occ[f.n], f.w[f.n], f.guided[f.n] = occ, w, true
			f.n++
		}
	}
	if f.n == 0 {
		// No draw fitted: take any consistent layout found by search, at
		// weight 1. Only reachable when almost nothing fits.
		if !f.seed() {
			f.broken = true
		}
	}
}

// hasOwn reports whether ship i has evidence of its own: it was announced
// sunk, or (reveal: ship) hits named it.
func (f *fleetPosterior) hasOwn(i int) bool {
	return f.sunk[i] || (f.shipHits != nil && !f.shipHits[i].Empty())
}

// ownCands sets f.cand[i], for each ship with evidence of its own, to its
// placements that fit that evidence.
func (f *fleetPosterior) ownCands() {
	if f.cand == nil {
		f.cand = make([][]Bits, f.k)
	}
	for i, L := range f.fleet {
		f.cand[i] = f.cand[i][:0]
		if !f.hasOwn(i) {
			continue
		}
		var from Bits
		if f.sunk[i] {
			from = Cell(f.sunkCell[i])
		} else {
			from = f.shipHits[i]
		}
		for _, j := range f.g.Covering[L][from.First()] {
			if pl := f.g.Placements[L][j]; f.fits(i, pl) {
				f.cand[i] = append(f.cand[i], pl)
			}
		}
	}
}

// guidedHitWeight[k] is the proposal weight of a placement covering k of
// the uncovered hits in a guided draw. Layouts in which one ship explains
// several hits are far likelier than those needing a ship per hit, so
// proposing them more keeps the importance weights even; any positive
// weights give a correct estimate, these a better one.
var guidedHitWeight = [...]float64{1, 1, 8, 64, 512, 4096}

// drawGuided lays a fleet that fits the evidence (see the top of the file)
// and returns it with its importance weight pi(x)/q(x), or weight 0 when
// a choice left no room for a later ship.
func (f *fleetPosterior) drawGuided(ships []Bits) (Bits, float64) {
	var occ, named Bits
	for _, h := range f.shipHits {
		named = named.Or(h)
	}
	var placed uint64 // bit i: ship i is laid (fleets of at most 64)
	q := 1.0
	for i := range f.k {
		if !f.hasOwn(i) {
			continue
		}
		c := f.buf[:0]
		for _, pl := range f.cand[i] {
			if !pl.Meets(occ) {
				c = append(c, pl)
			}
		}
		if len(c) == 0 {
			return occ, 0
		}
		ships[i] = c[f.rng.IntN(len(c))]
		q /= float64(len(c))
		occ = occ.Or(ships[i])
		placed |= 1 << uint(i)
	}
	// The ships left have no evidence of their own: a placement fits if it
	// is clear of the misses, the hits naming other ships and the ships
	// laid, and (when sinkings are announced) not made of hits only.
	for u := f.hits.AndNot(occ); !u.Empty(); u = f.hits.AndNot(occ) {
		cell := u.First()
		block := occ.Or(f.misses).Or(named)
		optShip, optPl, optW := f.optShip[:0], f.optPl[:0], f.optW[:0]
		sum := 0.0
		for i := range f.k {
			if placed>>uint(i)&1 != 0 {
				continue
			}
			pls := f.pls[i]
			for _, j := range f.cover[i][cell] {
				pl := pls[j]
				if pl.Meets(block) || (f.afloatKnown && pl.AndNot(f.hits).Empty()) {
					continue
				}
				w := guidedHitWeight[min(pl.And(u).Count(), len(guidedHitWeight)-1)]
				sum += w
				optShip, optPl, optW = append(optShip, i), append(optPl, pl), append(optW, sum)
			}
		}
		f.optShip, f.optPl, f.optW = optShip, optPl, optW
		if len(optPl) == 0 {
			return occ, 0
		}
		r := f.rng.Float64() * sum
		o := 0
		for o < len(optW)-1 && optW[o] <= r {
			o++
		}
		i := optShip[o]
		ships[i] = optPl[o]
		prev := 0.0
		if o > 0 {
			prev = optW[o-1]
		}
		q *= (optW[o] - prev) / sum
		occ = occ.Or(optPl[o])
		placed |= 1 << uint(i)
	}
	// Every hit is covered, so a placement clear of occ is clear of the
	// hits, and of the afloat rule with them.
	for i, L := range f.fleet {
		if placed>>uint(i)&1 != 0 {
			continue
		}
		h, v := f.free(occ.Or(f.misses).Or(named), L)
		n := h.Count() + v.Count()
		if n == 0 {
			return occ, 0
		}
		ships[i] = f.pick(h, v, L)
		q /= float64(n)
		occ = occ.Or(ships[i])
	}
	// pi(x): the placer's choices, in fleet order.
	pi := 1.0
	var prefix Bits
	for i, L := range f.fleet {
		pi /= float64(f.nFree(prefix, L))
		prefix = prefix.Or(ships[i])
	}
	return occ, pi / q
}

// seed finds one consistent layout by a depth-first search led by the
// evidence, in the order of drawGuided, when no draw fitted. Each ship's
// candidates are walked from a random offset, so the layout found varies
// with the stream.
func (f *fleetPosterior) seed() bool {
	f.fewLeftCands()
	for i := range f.cand {
		if n := len(f.cand[i]); n > 1 {
			r := f.rng.IntN(n)
			c := f.cand[i]
			slices.Reverse(c[:r])
			slices.Reverse(c[r:])
			slices.Reverse(c)
		}
	}
	k := f.k
	chosen := f.ships[:k]
	placed := make([]bool, k)
	budget := 1 << 16
	var walk func(occ Bits, left int) bool
	try := func(i int, pl, occ Bits, left int) bool {
		chosen[i], placed[i] = pl, true
		if walk(occ.Or(pl), left-1) {
			return true
		}
		placed[i] = false
		return false
	}
	// next is the ship to lay: one with evidence of its own first, then
	// (cover >= 0) any ship covering the lowest uncovered hit, then any.
	walk = func(occ Bits, left int) bool {
		if budget--; budget < 0 {
			return false
		}
		if left == 0 {
			if f.hits.AndNot(occ).Empty() {
				f.occ[0], f.w[0], f.guided[0] = occ, 1, false
				return true
			}
			return false
		}
		for i := range k {
			if !placed[i] && f.hasOwn(i) {
				for _, pl := range f.cand[i] {
					if !pl.Meets(occ) && try(i, pl, occ, left) {
						return true
					}
				}
				return false
			}
		}
		u := f.hits.AndNot(occ)
		for i := range k {
			if placed[i] {
				continue
			}
			for _, pl := range f.cand[i] {
				if !pl.Meets(occ) && (u.Empty() || pl.Has(u.First())) && try(i, pl, occ, left) {
					return true
				}
			}
			if u.Empty() {
				return false // the rest of the fleet in order
			}
		}
		return false
	}
	if !walk(Bits{}, k) {
		return false
	}
	f.n = 1
	return true
}
