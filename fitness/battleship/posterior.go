package battleship

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

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
// which keeps the others properly weighted for the narrower posterior,
// whatever proposal they came from (see fleetPosterior.gen). The
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
// 500 solo games per second on one core (BenchmarkPosterior), and an
// exact limit at which about half a game's shots are enumerated. Past
// 65,536 each doubling of the limit costs more than it enumerates.
const (
	posteriorSamples = 256
	posteriorExact   = 65536
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
// likely to hold a ship, the lowest such cell on a tie. A tie is one of
// the sums as computed: two cells of equal probability can come out a
// last bit apart, and then the higher is fired (the exact solver of
// research/battleship/optimal meets this on 4x4 with ships 2 2 2).
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

// watch implements watcher: the posterior's shots take long.
func (k *posteriorGunner) watch(ctx context.Context) bool {
	k.post.ctx = ctx
	return true
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

// pset is a set of the placements of one ship length, by index into
// Geometry.Placements[L]: at most two per cell, so 256 fit.
type pset [4]uint64

func (a pset) or(b pset) pset {
	return pset{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]}
}

func (a pset) andNot(b pset) pset {
	return pset{a[0] &^ b[0], a[1] &^ b[1], a[2] &^ b[2], a[3] &^ b[3]}
}

func (a pset) count() int {
	return bits.OnesCount64(a[0]) + bits.OnesCount64(a[1]) + bits.OnesCount64(a[2]) + bits.OnesCount64(a[3])
}

func (a *pset) set(i int) { a[i>>6] |= 1 << uint(i&63) }

// nth returns the index of the n-th lowest member (from 0); n < count.
func (a pset) nth(n int) int {
	for wi, w := range a {
		if c := bits.OnesCount64(w); n >= c {
			n -= c
			continue
		}
		return wi<<6 | nthBit64(w, n)
	}
	panic("battleship: pset.nth past the end")
}

// nthBit64 returns the n-th lowest set bit of w (n below its count),
// skipping whole bytes by their popcounts first.
func nthBit64(w uint64, n int) int {
	base := 0
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

// postTables are the placement tables of one board and fleet's lengths,
// shared by every game on such a board (postTablesFor). Lengths are
// numbered as in Geometry.Lengths.
type postTables struct {
	nl    int
	pl    [][]Bits // by length: the placements, Geometry.Placements order
	all   []pset   // by length: every placement
	cover [][]pset // by length, by cell: the placements covering the cell
	// blk[a][j*nl+b]: the placements of length b meeting placement j of
	// length a.
	blk [][]pset
}

var postTablesCache sync.Map // postTablesKey -> *postTables

type postTablesKey struct {
	w, h    int
	lengths string
}

// postTablesFor returns the tables of g's board and lengths, built once.
func postTablesFor(g *Geometry) *postTables {
	key := postTablesKey{g.W, g.H, fmt.Sprint(g.Lengths)}
	if t, ok := postTablesCache.Load(key); ok {
		return t.(*postTables)
	}
	nl := len(g.Lengths)
	t := &postTables{nl: nl, pl: make([][]Bits, nl), all: make([]pset, nl), cover: make([][]pset, nl), blk: make([][]pset, nl)}
	for a, L := range g.Lengths {
		t.pl[a] = g.Placements[L]
		t.cover[a] = make([]pset, g.Cells)
		for j, pl := range t.pl[a] {
			t.all[a].set(j)
			for w := pl; !w.Empty(); w = w.Rest() {
				t.cover[a][w.First()].set(j)
			}
		}
	}
	for a := range nl {
		t.blk[a] = make([]pset, len(t.pl[a])*nl)
		for j, pl := range t.pl[a] {
			for b := range nl {
				var s pset
				for w := pl; !w.Empty(); w = w.Rest() {
					s = s.or(t.cover[b][w.First()])
				}
				t.blk[a][j*nl+b] = s
			}
		}
	}
	got, _ := postTablesCache.LoadOrStore(key, t)
	return got.(*postTables)
}

// fleetPosterior is one game's posterior over the enemy layout.
type fleetPosterior struct {
	g     *Geometry
	pt    *postTables
	p     posteriorParams
	rng   *rand.Rand
	k     int     // ships
	fleet []int   // ship lengths, fleet order
	lenOf []int   // ship -> its length's number in the tables
	later [][]int // ship -> the numbers of the lengths of the ships after it
	every []int   // the numbers of all lengths
	rest  []int   // ship -> the cells of it and the ships after it

	// The evidence.
	misses, hits Bits
	shipHits     []Bits // reveal: ship — the hits that named each ship; nil otherwise
	sunk         []bool
	sunkCell     []int
	sunkHits     []Bits // the hits made when the ship sank
	afloatKnown  bool   // the rules announce sinkings, so a ship not announced is afloat
	missBlk      []pset // by length: the placements meeting a miss

	// The pool: layout i is ships[i*k : (i+1)*k], occupying occ[i], with
	// importance weight w[i] = pi/q.
	n     int
	ships []Bits
	occ   []Bits
	w     []float64
	// gen[i] is the proposal layout i was drawn from: 0 for the prior,
	// r > 0 for the guided draws of the r-th refill. The draws of one
	// proposal, weighted by pi/q, estimate the posterior, and so do those
	// of them that survive later shots, which narrow the posterior: a
	// layout drawn under less evidence stays a proper sample. The estimate
	// mixes the proposals' estimates, each self-normalised, in proportion
	// to their effective sample sizes (sum w)^2 / sum w^2. Pooling the raw
	// weights instead would also be consistent, but a survivor of an
	// earlier proposal, which knew less, stands for the many draws that
	// did not survive and would outweigh the fresh ones: a handful of
	// layouts would decide.
	gen     []int32
	refills int32 // guided refills so far
	// prior: fresh draws from the prior still pass the evidence often
	// enough to refill the pool with them. It only ever turns off: the
	// evidence only grows.
	prior  bool
	exact  bool // few layouts remain: enumerate them
	broken bool // no layout fits the evidence (rules or observations inconsistent)

	dirty bool // evidence changed since prob was computed
	prob  [MaxCells]float64
	cand  [][]int32 // per ship, its candidate placements (exact enumeration, guided and seeded draws)

	// A shot can take a second on large fleets, so the sampler and the
	// enumeration look at the game's context (watch; nil: none) every
	// lookEvery steps; err is its error once seen, and from then on every
	// estimate is void.
	ctx  context.Context
	err  error
	look int // the enumeration's budget at which it looks next

	// Scratch.
	acc     []pset   // by length: the placements meeting the ships laid so far
	accs    [][]pset // acc by depth of the enumeration
	allowed []pset   // by length: the placements clear of misses and hits naming other ships
	pick    []int32  // one ship's options
	idx     []int32  // the placement numbers of the layout being drawn
	optShip []int    // the (ship, placement) options of a guided draw
	optPl   []int32
	optW    []float64 // their cumulative proposal weights
	sw, sw2 []float64 // by proposal: sum of weights and of their squares
}

func newFleetPosterior(g *Geometry, _ *densityTables, p posteriorParams, rng *rand.Rand) *fleetPosterior {
	k := len(g.Fleet)
	pt := postTablesFor(g)
	f := &fleetPosterior{
		g: g, pt: pt, p: p, rng: rng, k: k, fleet: g.Fleet, lenOf: make([]int, k),
		sunk: make([]bool, k), sunkCell: make([]int, k), sunkHits: make([]Bits, k),
		afloatKnown: g.Reveal != RevealHitsOnly,
		missBlk:     make([]pset, pt.nl),
		ships:       make([]Bits, p.Samples*k), occ: make([]Bits, p.Samples), w: make([]float64, p.Samples), gen: make([]int32, p.Samples),
		prior: true, dirty: true,
		cand: make([][]int32, k), acc: make([]pset, pt.nl), allowed: make([]pset, pt.nl), idx: make([]int32, k),
		sw: make([]float64, 1, 64), sw2: make([]float64, 1, 64),
	}
	if g.Reveal == RevealShip {
		f.shipHits = make([]Bits, k)
	}
	for i, L := range g.Fleet {
		f.lenOf[i] = slices.Index(g.Lengths, L)
	}
	f.later = make([][]int, k)
	for i := range k {
		for _, L := range g.Fleet[i+1:] {
			if a := slices.Index(g.Lengths, L); !slices.Contains(f.later[i], a) {
				f.later[i] = append(f.later[i], a)
			}
		}
	}
	for a := range pt.nl {
		f.every = append(f.every, a)
	}
	f.rest = make([]int, k)
	for i := k - 1; i >= 0; i-- {
		f.rest[i] = g.Fleet[i]
		if i+1 < k {
			f.rest[i] += f.rest[i+1]
		}
	}
	for f.n < p.Samples {
		if occ, ok := f.drawPrior(f.ships[f.n*k:(f.n+1)*k], false); ok {
			f.occ[f.n], f.w[f.n] = occ, 1
			f.n++
		}
		// else a dead end: the placer restarts too
	}
	return f
}

// lay records placement j of ship i's length in f.acc for the lengths
// listed, those of the ships still to be laid.
func (f *fleetPosterior) lay(i int, j int32, lengths []int) {
	a, nl := f.lenOf[i], f.pt.nl
	blk := f.pt.blk[a][int(j)*nl : int(j)*nl+nl]
	for _, b := range lengths {
		f.acc[b] = f.acc[b].or(blk[b])
	}
}

// drawPrior lays a fleet as the random placer does; false on a dead end,
// or (check) as soon as a ship fails the evidence about it alone or the
// fleet leaves a hit uncovered: a draw from the prior kept only if
// consistent.
func (f *fleetPosterior) drawPrior(ships []Bits, check bool) (Bits, bool) {
	pt := f.pt
	clear(f.acc)
	var occ Bits
	for i := range f.k {
		a := f.lenOf[i]
		free := pt.all[a].andNot(f.acc[a])
		n := free.count()
		if n == 0 {
			return occ, false
		}
		j := int32(free.nth(f.rng.IntN(n)))
		ships[i] = pt.pl[a][j]
		if check && !f.fits(i, ships[i]) {
			return occ, false
		}
		occ = occ.Or(ships[i])
		f.lay(i, j, f.later[i])
	}
	return occ, !check || f.hits.AndNot(occ).Empty()
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
		for a := range f.missBlk {
			f.missBlk[a] = f.missBlk[a].or(f.pt.cover[a][c])
		}
		if !f.exact {
			f.filter(func(_ []Bits, occ Bits) bool { return !occ.Has(c) })
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
	f.filter(func(ships []Bits, _ Bits) bool {
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
func (f *fleetPosterior) filter(keep func(ships []Bits, occ Bits) bool) {
	k, m := f.k, 0
	for i := range f.n {
		ships := f.ships[i*k : (i+1)*k]
		if !keep(ships, f.occ[i]) {
			continue
		}
		if m != i {
			copy(f.ships[m*k:(m+1)*k], ships)
			f.occ[m], f.w[m], f.gen[m] = f.occ[i], f.w[i], f.gen[i]
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
	f.evidence()
	if !f.exact && f.p.Exact > 0 && f.fewLeft() {
		f.exact = true
		f.n = 0
	}
	if f.exact {
		if f.enumerate() || f.err != nil {
			return &f.prob
		}
		f.exact = false // over the node budget: cannot happen, see fewLeft
	}
	if f.refill(); f.err != nil {
		return &f.prob
	}
	f.estimate()
	return &f.prob
}

// cancelled looks at the game's context, if it has one.
func (f *fleetPosterior) cancelled() bool {
	if f.err == nil && f.ctx != nil {
		f.err = f.ctx.Err()
	}
	return f.err != nil
}

// lookEvery is how many steps (draws of a layout, nodes of the
// enumeration) the posterior takes between looks at the context: at most
// a few milliseconds of work, against which a look costs nothing.
const lookEvery = 256

// estimate sets f.prob from the pool.
func (f *fleetPosterior) estimate() {
	clear(f.prob[:f.g.Cells])
	if f.n == 0 {
		return
	}
	// Each proposal's layouts count in proportion to its effective sample
	// size: layout i weighs w[i] * sw/sw2 of its proposal, and the
	// proposals' effective sizes sw^2/sw2 sum to the total.
	sw, sw2 := f.sw[:f.refills+1], f.sw2[:f.refills+1]
	clear(sw)
	clear(sw2)
	for i := range f.n {
		w := f.w[i]
		sw[f.gen[i]] += w
		sw2[f.gen[i]] += w * w
	}
	total := 0.0
	for r := range sw {
		if sw2[r] > 0 {
			total += sw[r] * sw[r] / sw2[r]
			sw[r] /= sw2[r] // now the proposal's scale
		}
	}
	for i := range f.n {
		o, w := f.occ[i], f.w[i]*sw[f.gen[i]]
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
}

// evidence sets f.allowed: by length, the placements clear of the misses
// and of the hits that name another ship (a ship with hits of its own
// has its candidates instead).
func (f *fleetPosterior) evidence() {
	var named Bits
	for _, h := range f.shipHits {
		named = named.Or(h)
	}
	for a := range f.allowed {
		f.allowed[a] = f.pt.all[a].andNot(f.missBlk[a])
		for w := named; !w.Empty(); w = w.Rest() {
			f.allowed[a] = f.allowed[a].andNot(f.pt.cover[a][w.First()])
		}
	}
}

// fewLeft reports whether the product over ships of their individually
// consistent placements is at most the exact limit. The product bounds the
// layouts left, and the nodes of their enumeration by k times. The ships
// without evidence of their own are counted first, from f.allowed, which
// settles most calls before any list is built.
func (f *fleetPosterior) fewLeft() bool {
	prod := 1.0
	for i := range f.k {
		if f.hasOwn(i) {
			continue
		}
		if prod *= float64(f.allowed[f.lenOf[i]].count()); prod > float64(f.p.Exact) {
			return false
		}
	}
	return f.fewLeftCands()
}

// fewLeftCands sets every ship's candidates for the evidence of now and
// reports whether the product of their numbers is at most the exact limit.
func (f *fleetPosterior) fewLeftCands() bool {
	prod := 1.0
	for i := range f.k {
		a := f.lenOf[i]
		c := f.cand[i][:0]
		from := f.allowed[a]
		if f.hasOwn(i) {
			from = f.pt.all[a].andNot(f.missBlk[a]) // may meet its own named hits
		}
		for wi, w := range from {
			for ; w != 0; w &= w - 1 {
				j := int32(wi<<6 | bits.TrailingZeros64(w))
				if f.fits(i, f.pt.pl[a][j]) {
					c = append(c, j)
				}
			}
		}
		f.cand[i] = c
		prod *= float64(len(c))
	}
	return prod <= float64(f.p.Exact)
}

// enumerate sets f.prob exactly from every consistent layout, weighted by
// pi. It returns false if the enumeration ran over its node budget.
func (f *fleetPosterior) enumerate() bool {
	if !f.fewLeftCands() {
		return false
	}
	clear(f.prob[:f.g.Cells])
	if f.accs == nil {
		f.accs = make([][]pset, f.k)
		for j := range f.accs {
			f.accs[j] = make([]pset, f.pt.nl)
		}
	}
	clear(f.accs[0])
	total := 0.0
	budget := (f.k + 1) * max(f.p.Exact, 1) * 4
	f.look = max(budget-lookEvery, 0)
	if !f.dfs(0, Bits{}, 1, &budget, &total) {
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

// dfs walks the consistent layouts in fleet order from ship j on, with
// the earlier ships on occ (and f.accs[j] the placements meeting them)
// and prior weight w so far, adding each to f.prob and *total. The last
// ship's placements all weigh the same, so the cells of the ships before
// it are added once for all of them. It returns false when the node
// budget runs out.
func (f *fleetPosterior) dfs(j int, occ Bits, w float64, budget *int, total *float64) bool {
	// One comparison serves the budget and the looks at the context: look
	// stays at 0 once the budget is nearly spent.
	if *budget--; *budget < f.look {
		if *budget < 0 || f.cancelled() {
			return false
		}
		f.look = max(*budget-lookEvery, 0)
	}
	u := f.hits.AndNot(occ)
	if u.Count() > f.rest[j] {
		return true
	}
	a := f.lenOf[j]
	acc := f.accs[j]
	w /= float64(f.pt.all[a].andNot(acc[a]).count())
	pls := f.pt.pl[a]
	if j == f.k-1 {
		n := 0
		for _, pj := range f.cand[j] {
			pl := pls[pj]
			if pl.Meets(occ) || !u.AndNot(pl).Empty() {
				continue
			}
			n++
			for wi, m := range [2]uint64{pl.Lo, pl.Hi} {
				for ; m != 0; m &= m - 1 {
					f.prob[wi<<6|bits.TrailingZeros64(m)] += w
				}
			}
		}
		*budget -= len(f.cand[j])
		if n > 0 {
			wn := w * float64(n)
			*total += wn
			for wi, m := range [2]uint64{occ.Lo, occ.Hi} {
				for ; m != 0; m &= m - 1 {
					f.prob[wi<<6|bits.TrailingZeros64(m)] += wn
				}
			}
		}
		return *budget >= 0
	}
	next, nl := f.accs[j+1], f.pt.nl
	for _, pj := range f.cand[j] {
		pl := pls[pj]
		if pl.Meets(occ) {
			continue
		}
		blk := f.pt.blk[a][int(pj)*nl : int(pj)*nl+nl]
		for _, b := range f.later[j] {
			next[b] = acc[b].or(blk[b])
		}
		if !f.dfs(j+1, occ.Or(pl), w, budget, total) {
			return false
		}
	}
	return true
}

// refill brings the pool back to its size: draws from the prior while
// they pass the evidence often enough, then draws led by the evidence.
// The layouts that survived the shot stay: about half the pool, so a
// shot costs about half a pool of draws.
func (f *fleetPosterior) refill() {
	k, size := f.k, f.p.Samples
	if f.n >= size {
		return
	}
	if f.prior {
		tries, kept := 0, 0
		for f.n < size {
			if tries%lookEvery == lookEvery-1 && f.cancelled() {
				return
			}
			ships := f.ships[f.n*k : (f.n+1)*k]
			occ, ok := f.drawPrior(ships, true)
			tries++
			if ok {
				f.occ[f.n], f.w[f.n], f.gen[f.n] = occ, 1, 0
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
	if f.n >= size {
		return
	}
	f.refills++
	f.sw, f.sw2 = append(f.sw, 0), append(f.sw2, 0)
	f.ownCands()
	// A guided draw fails only when an early choice leaves no room for a
	// later ship; the bound guards against evidence no layout fits.
	for tries := 0; f.n < size && tries < 16*size; tries++ {
		if tries%lookEvery == lookEvery-1 && f.cancelled() {
			return
		}
		ships := f.ships[f.n*k : (f.n+1)*k]
		if occ, w := f.drawGuided(ships); w > 0 {
			f.occ[f.n], f.w[f.n], f.gen[f.n] = occ, w, f.refills
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
			if f.fits(i, f.g.Placements[L][j]) {
				f.cand[i] = append(f.cand[i], j)
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
// a choice left no room for a later ship. f.allowed and f.cand (ownCands)
// must be of the evidence of now.
func (f *fleetPosterior) drawGuided(ships []Bits) (Bits, float64) {
	pt := f.pt
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
		a := f.lenOf[i]
		c := f.pick[:0]
		for _, j := range f.cand[i] {
			if !pt.pl[a][j].Meets(occ) {
				c = append(c, j)
			}
		}
		f.pick = c
		if len(c) == 0 {
			return occ, 0
		}
		j := c[f.rng.IntN(len(c))]
		f.idx[i], ships[i] = j, pt.pl[a][j]
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
			pls := pt.pl[f.lenOf[i]]
			for _, j := range f.g.Covering[f.fleet[i]][cell] {
				pl := pls[j]
				if pl.Meets(block) || (f.afloatKnown && pl.AndNot(f.hits).Empty()) {
					continue
				}
				w := guidedHitWeight[min(pl.And(u).Count(), len(guidedHitWeight)-1)]
				sum += w
				optShip, optPl, optW = append(optShip, i), append(optPl, j), append(optW, sum)
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
		f.idx[i] = optPl[o]
		ships[i] = pt.pl[f.lenOf[i]][optPl[o]]
		prev := 0.0
		if o > 0 {
			prev = optW[o-1]
		}
		q *= (optW[o] - prev) / sum
		occ = occ.Or(ships[i])
		placed |= 1 << uint(i)
	}
	// Every hit is covered, so a placement clear of occ is clear of the
	// hits, and of the afloat rule with them. When no ship was laid yet
	// the rest go down in fleet order, as the placer lays them, and the
	// prior's n_j come with the draw.
	inOrder := placed == 0
	pi := 1.0
	clear(f.acc)
	for i := range f.k {
		if placed>>uint(i)&1 != 0 {
			f.lay(i, f.idx[i], f.every)
		}
	}
	for i := range f.k {
		if placed>>uint(i)&1 != 0 {
			continue
		}
		a := f.lenOf[i]
		free := f.allowed[a].andNot(f.acc[a])
		n := free.count()
		if n == 0 {
			return occ, 0
		}
		if inOrder {
			pi /= float64(pt.all[a].andNot(f.acc[a]).count())
		}
		j := int32(free.nth(f.rng.IntN(n)))
		f.idx[i], ships[i] = j, pt.pl[a][j]
		q /= float64(n)
		occ = occ.Or(ships[i])
		f.lay(i, j, f.later[i]) // the rest of phase 3 comes after i
	}
	if !inOrder {
		// pi(x): the placer's choices, in fleet order.
		clear(f.acc)
		for i := range f.k {
			a := f.lenOf[i]
			pi /= float64(pt.all[a].andNot(f.acc[a]).count())
			f.lay(i, f.idx[i], f.later[i])
		}
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
				f.occ[0], f.w[0], f.gen[0] = occ, 1, 0
				return true
			}
			return false
		}
		for i := range k {
			if !placed[i] && f.hasOwn(i) {
				for _, j := range f.cand[i] {
					if pl := f.pt.pl[f.lenOf[i]][j]; !pl.Meets(occ) && try(i, pl, occ, left) {
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
			for _, j := range f.cand[i] {
				if pl := f.pt.pl[f.lenOf[i]][j]; !pl.Meets(occ) && (u.Empty() || pl.Has(u.First())) && try(i, pl, occ, left) {
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
