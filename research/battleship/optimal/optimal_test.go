//go:build research

package optimal

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"iter"
	"maps"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/battleship"
	"github.com/evotune/evotune/genome"
)

// weighted is one layout of the fleet with its probability under the
// random placer.
type weighted struct {
	ships []battleship.Bits
	occ   battleship.Bits
	w     float64
}

// randomLayouts lists every layout the random placer can make on g, with
// its probability: the placer lays the ships in fleet order, each
// uniformly over the spots left, and starts again at a dead end, so a
// layout's probability is the product of 1/n over its ships, renormalised
// over the layouts that complete.
func randomLayouts(g *battleship.Geometry) []weighted {
	var out []weighted
	ships := make([]battleship.Bits, len(g.Fleet))
	var lay func(i int, occ battleship.Bits, w float64)
	lay = func(i int, occ battleship.Bits, w float64) {
		if i == len(g.Fleet) {
			out = append(out, weighted{ships: slices.Clone(ships), occ: occ, w: w})
			return
		}
		var legal []battleship.Bits
		for _, p := range g.Placements[g.Fleet[i]] {
			if !p.Meets(occ) {
				legal = append(legal, p)
			}
		}
		for _, p := range legal {
			ships[i] = p
			lay(i+1, occ.Or(p), w/float64(len(legal)))
		}
	}
	lay(0, battleship.Bits{}, 1)
	total := 0.0
	for _, l := range out {
		total += l.w
	}
	for i := range out {
		out[i].w /= total
	}
	return out
}

// policy says which cells a solver may fire at in a state.
type policy int

const (
	optimalPolicy    policy = iota // every cell that can hold a ship
	greedyLowest                   // the likeliest cell, the lowest on a tie (the posterior shooter)
	greedyBestOfTies               // the best of the likeliest cells
	finishPolicy                   // greedy while hunting; while a ship is hit and afloat, the fewest misses until it sinks
)

func (p policy) String() string {
	return [...]string{"optimal", "greedy (lowest on a tie)", "greedy (best of the ties)", "finish"}[p]
}

// solver computes the expected number of shots a policy needs from a
// state: the cells fired so far and the set of layouts consistent with
// what they showed.
type solver struct {
	g       *battleship.Geometry
	layouts []weighted
	words   int
	pol     policy
	memo    map[stateKey]bound
	buf     []byte
	// syms are the board's symmetries (the identity first): a state and
	// its mirror image cost the same, so they share one entry of memo.
	syms []symmetry
	// seen, when not nil, keeps the state behind each entry of memo, for
	// the test that checks them.
	seen map[stateKey]state
	seed [2]maphash.Seed
}

// stateKey names a state: the cells fired, and a 128-bit hash of the
// layouts left (a collision is as likely as two random 128-bit numbers
// meeting; a key of the set itself took three times the memory). The
// hash's seeds are random, but only a collision could make a result
// depend on them.
type stateKey struct {
	fired  battleship.Bits
	h1, h2 uint64
}

type state struct {
	fired battleship.Bits
	set   []uint64
}

// symmetry is a mirror or rotation of the board that maps it onto
// itself: where each cell goes and where each layout goes.
type symmetry struct {
	cell   []int
	layout []int32
}

// boardSymmetries lists the symmetries of g's board, with the layouts of
// ls they map onto each other. A symmetry keeps each ship's place in the
// fleet and the random placer's probabilities (it maps the spots left
// for a ship onto the spots left for it in the image).
func boardSymmetries(g *battleship.Geometry, ls []weighted) []symmetry {
	W, H := g.W, g.H
	maps := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return r, W - 1 - c },
		func(r, c int) (int, int) { return H - 1 - r, c },
		func(r, c int) (int, int) { return H - 1 - r, W - 1 - c },
	}
	if W == H {
		maps = append(maps,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return W - 1 - c, H - 1 - r },
			func(r, c int) (int, int) { return c, H - 1 - r },
			func(r, c int) (int, int) { return W - 1 - c, r })
	}
	index := map[string]int32{}
	name := func(ships []battleship.Bits) string { return fmt.Sprint(ships) }
	for i, l := range ls {
		index[name(l.ships)] = int32(i)
	}
	var out []symmetry
	for _, m := range maps {
		sym := symmetry{cell: make([]int, g.Cells), layout: make([]int32, len(ls))}
		for r := range H {
			for c := range W {
				r2, c2 := m(r, c)
				sym.cell[r*W+c] = r2*W + c2
			}
		}
		img := make([]battleship.Bits, len(g.Fleet))
		for i, l := range ls {
			for j, ship := range l.ships {
				img[j] = sym.apply(ship)
			}
			k, ok := index[name(img)]
			if !ok || math.Abs(ls[k].w-l.w) > 1e-12 {
				panic("battleship: a symmetry maps a layout off the list or changes its probability")
			}
			sym.layout[i] = k
		}
		out = append(out, sym)
	}
	return out
}

func (m symmetry) apply(b battleship.Bits) battleship.Bits {
	var out battleship.Bits
	for _, c := range b.Cells(nil) {
		out = out.Set(m.cell[c])
	}
	return out
}

// canonical returns the least image of a state under the board's
// symmetries (fired cells first, then the layouts as words).
func (s *solver) canonical(fired battleship.Bits, set []uint64) (battleship.Bits, []uint64) {
	bestF, bestS := fired, set
	img := make([]uint64, s.words)
	for _, m := range s.syms[1:] {
		f := m.apply(fired)
		if less(bestF, f) {
			continue
		}
		clear(img)
		for wi, w := range set {
			for ; w != 0; w &= w - 1 {
				k := m.layout[wi<<6|bits.TrailingZeros64(w)]
				img[k>>6] |= 1 << uint(k&63)
			}
		}
		if f == bestF && slices.Compare(bestS, img) <= 0 {
			continue
		}
		bestF, bestS = f, slices.Clone(img)
	}
	return bestF, bestS
}

func less(a, b battleship.Bits) bool { return a.Hi < b.Hi || a.Hi == b.Hi && a.Lo < b.Lo }

func (s *solver) key(fired battleship.Bits, set []uint64) stateKey {
	fired, set = s.canonical(fired, set)
	s.buf = s.buf[:0]
	for _, w := range set {
		s.buf = binary.LittleEndian.AppendUint64(s.buf, w)
	}
	k := stateKey{fired: fired, h1: maphash.Bytes(s.seed[0], s.buf), h2: maphash.Bytes(s.seed[1], s.buf)}
	if s.seen != nil {
		s.seen[k] = state{fired, slices.Clone(set)}
	}
	return k
}

// bound is what the solver knows of a state's cost: the cost itself, or
// (exact false) only that it is at least v.
type bound struct {
	v     float64
	exact bool
}

func newSolver(g *battleship.Geometry, pol policy) *solver {
	ls := randomLayouts(g)
	syms := boardSymmetries(g, ls)
	if pol == greedyLowest || pol == finishPolicy {
		// Breaking ties by the lowest cell does not commute with
		// mirroring the board: a state and its image may cost apart.
		syms = syms[:1]
	}
	return &solver{g: g, layouts: ls, words: (len(ls) + 63) / 64, pol: pol, memo: map[stateKey]bound{},
		syms: syms, seed: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// everyLayout is the set of all the layouts, the state before the first
// shot.
func (s *solver) everyLayout() []uint64 {
	all := make([]uint64, s.words)
	for i := range s.layouts {
		all[i>>6] |= 1 << uint(i&63)
	}
	return all
}

// expected is the expected number of shots a game takes under the
// solver's policy, from the first shot.
func (s *solver) expected() float64 {
	all := s.everyLayout()
	v, _ := s.cost(battleship.Bits{}, all, math.Inf(1))
	return v
}

// choices returns the cells the policy may fire at in a state, best
// first, with each cell's summed weight of layouts holding a ship there,
// the summed weight of the layouts and their summed unhit ship cells.
func (s *solver) choices(fired battleship.Bits, set []uint64) (cands []int, hitW *[battleship.MaxCells]float64, total, rest float64) {
	hitW = new([battleship.MaxCells]float64)
	for i := range members(set) {
		l := &s.layouts[i]
		total += l.w
		left := l.occ.AndNot(fired)
		rest += l.w * float64(left.Count())
		for wi, w := range [2]uint64{left.Lo, left.Hi} {
			for ; w != 0; w &= w - 1 {
				hitW[wi<<6|bits.TrailingZeros64(w)] += l.w
			}
		}
	}
	const eps = 1e-12
	top := 0.0
	for c := range s.g.Cells {
		if hitW[c] > top {
			top = hitW[c]
		}
	}
	for c := range s.g.Cells {
		if hitW[c] <= eps*total {
			continue // no layout left puts a ship here
		}
		switch s.pol {
		case optimalPolicy:
			cands = append(cands, c)
		case greedyLowest, greedyBestOfTies, finishPolicy:
			if hitW[c] >= top*(1-eps) {
				cands = append(cands, c)
			}
		}
	}
	if s.pol == greedyLowest {
		cands = cands[:1]
	}
	if s.pol == finishPolicy {
		if c, ok := s.finishChoice(fired, set); ok {
			cands = []int{c}
		} else {
			cands = cands[:1]
		}
	}
	slices.SortStableFunc(cands, func(a, b int) int { return cmp.Compare(hitW[b], hitW[a]) })
	return cands, hitW, total, rest
}

// cost is the probability-weighted sum, over the layouts in set, of the
// shots still to fire; set holds only layouts not yet sunk. There is no
// shortcut for a cell every layout left puts a ship on: firing it at once
// looks free and is not, as when it is fired decides which shot sinks a
// ship, and so what the sunk notice tells. It is exact
// when below limit; otherwise it may return any bound at least limit,
// and says so (branch and bound: a caller that cannot use a cost of limit
// or more need not know it). Exactness is returned, not inferred from the
// value, as limit minus sums plus sums need not give back limit.
func (s *solver) cost(fired battleship.Bits, set []uint64, limit float64) (float64, bool) {
	key := s.key(fired, set)
	if b, ok := s.memo[key]; ok && (b.exact || b.v >= limit) {
		return b.v, b.exact
	}
	cands, hitW, total, rest := s.choices(fired, set)
	// Each shot costs one for every layout still afloat, and every ship
	// cell not yet hit needs a shot of its own.
	best, found := limit, false
	for _, c := range cands {
		if total+rest-hitW[c] >= best {
			continue
		}
		children, rests := s.split(fired, set, c)
		v, later, whole := total, 0.0, true
		for _, r := range rests {
			later += r
		}
		for k, child := range children {
			later -= rests[k]
			cv, exact := s.cost(fired.Set(c), child, best-v-later)
			v += cv
			if !exact || v+later >= best {
				whole = false
				break
			}
		}
		if whole && v < best {
			best, found = v, true
		}
	}
	s.memo[key] = bound{best, found}
	return best, found
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// members yields the indices set holds, in increasing order.
func members(set []uint64) iter.Seq[int] {
	return func(yield func(int) bool) {
		for wi, w := range set {
			for ; w != 0; w &= w - 1 {
				if !yield(wi<<6 | bits.TrailingZeros64(w)) {
					return
				}
			}
		}
	}
}

// split partitions set by what a shot at c tells the shooter, dropping
// the layouts the shot sinks entirely (their games are over), and gives
// each part's lower bound: the ship cells its layouts still need hit.
func (s *solver) split(fired battleship.Bits, set []uint64, c int) (parts [][]uint64, rests []float64) {
	after := fired.Set(c)
	type part struct {
		set  []uint64
		rest float64
	}
	// A part is what the shooter is told: the battleship.Shot the game would
	// return for this layout.
	groups := map[battleship.Shot]*part{}
	for i := range members(set) {
		l := &s.layouts[i]
		left := l.occ.AndNot(after)
		if left.Empty() {
			continue // the last ship sank: this game is over
		}
		heard := battleship.Shot{Cell: c, Ship: -1, Sunk: -1}
		for j, ship := range l.ships {
			if !ship.Has(c) {
				continue
			}
			heard.Hit = true
			if s.g.Reveal == battleship.RevealShip {
				heard.Ship = j
			}
			if ship.AndNot(after).Empty() && s.g.Reveal != battleship.RevealHitsOnly {
				heard.Sunk = j
			}
		}
		g := groups[heard]
		if g == nil {
			g = &part{set: make([]uint64, s.words)}
			groups[heard] = g
		}
		g.set[i>>6] |= 1 << uint(i&63)
		g.rest += l.w * float64(left.Count())
	}
	keys := slices.SortedFunc(maps.Keys(groups), func(a, b battleship.Shot) int {
		return cmp.Or(cmp.Compare(a.Ship, b.Ship), cmp.Compare(a.Sunk, b.Sunk), boolCompare(a.Hit, b.Hit))
	})
	for _, k := range keys {
		parts = append(parts, groups[k].set)
		rests = append(rests, groups[k].rest)
	}
	return parts, rests
}

// exhaustive is the optimal cost from a state by plain recursion over
// every unfired cell (with ties, over the likeliest cells only), with none
// of the solver's pruning: the reference the solver is held to.
func (s *solver) exhaustive(fired battleship.Bits, set []uint64, ties bool, memo map[string]float64) float64 {
	var key []byte
	key = binary.LittleEndian.AppendUint64(key, fired.Lo)
	key = binary.LittleEndian.AppendUint64(key, fired.Hi)
	for _, w := range set {
		key = binary.LittleEndian.AppendUint64(key, w)
	}
	if v, ok := memo[string(key)]; ok {
		return v
	}
	total := 0.0
	var ships [battleship.MaxCells]float64
	for i := range members(set) {
		total += s.layouts[i].w
		for _, c := range s.layouts[i].occ.AndNot(fired).Cells(nil) {
			ships[c] += s.layouts[i].w
		}
	}
	top := slices.Max(ships[:])
	best := math.Inf(1)
	for c := range s.g.Cells {
		if fired.Has(c) || ties && ships[c] < top*(1-1e-12) {
			continue
		}
		v := total
		parts, _ := s.split(fired, set, c)
		for _, p := range parts {
			v += s.exhaustive(fired.Set(c), p, ties, memo)
		}
		best = min(best, v)
	}
	memo[string(key)] = best
	return best
}

// TestFinishChoiceIsTheFewestMisses holds finishChoice to plain
// recursion over every choice: in each state greedy play reaches while a
// ship is hit and afloat, the cell it picks has the fewest expected misses
// until the ships hit then have sunk; while hunting it has no choice.
func TestFinishChoiceIsTheFewestMisses(t *testing.T) {
	for _, r := range []battleship.Rules{
		{W: 4, H: 3, Fleet: []int{3, 2}, Reveal: battleship.RevealSunk},
		{W: 4, H: 3, Fleet: []int{2, 2}, Reveal: battleship.RevealHitsOnly},
	} {
		g := mustGeometry(t, r)
		s := newSolver(g, greedyLowest)
		checked := 0
		for i := range s.layouts {
			set, fired := s.everyLayout(), battleship.Bits{}
			for set != nil {
				var target []battleship.Bits
				hunting := false
				for j := range s.layouts {
					var hit battleship.Bits
					for _, ship := range s.layouts[j].ships {
						if ship.Meets(fired) && !ship.AndNot(fired).Empty() {
							hit = hit.Or(ship)
						}
					}
					target = append(target, hit)
					hunting = hunting || set[j>>6]&(1<<uint(j&63)) != 0 && hit.Empty()
				}
				c, ok := s.finishChoice(fired, set)
				switch {
				case hunting && ok:
					t.Fatalf("%v, fired %v: hunting, finishChoice chose %d", r, fired.Cells(nil), c)
				case !hunting && !ok:
					t.Fatalf("%v, fired %v: a ship is hit, finishChoice chose nothing", r, fired.Cells(nil))
				case ok:
					checked++
					best := math.Inf(1)
					for _, d := range targetCells(s, target, fired, set).Cells(nil) {
						best = min(best, fewestMisses(s, target, fired, set, d))
					}
					if got := fewestMisses(s, target, fired, set, c); got > best+1e-12 {
						t.Fatalf("%v, fired %v: finishChoice chose %d, %.6f misses expected; the best is %.6f", r, fired.Cells(nil), c, got, best)
					}
				}
				cands, _, _, _ := s.choices(fired, set)
				parts, _ := s.split(fired, set, cands[0])
				fired, set = fired.Set(cands[0]), partOf(parts, i)
			}
		}
		if checked == 0 {
			t.Errorf("%v: no state with a ship hit was checked", r)
		}
	}
}

// targetCells are the cells of the ships in target not yet sunk, over the
// layouts in set, and not fired at.
func targetCells(s *solver, target []battleship.Bits, fired battleship.Bits, set []uint64) battleship.Bits {
	var cells battleship.Bits
	for i := range members(set) {
		if !target[i].AndNot(fired).Empty() {
			cells = cells.Or(target[i])
		}
	}
	return cells.AndNot(fired)
}

// fewestMisses is the expected misses of firing at c, then as well as
// possible, until the ships in target have sunk: plain recursion.
func fewestMisses(s *solver, target []battleship.Bits, fired battleship.Bits, set []uint64, c int) float64 {
	v := 0.0
	for i := range members(set) {
		if !s.layouts[i].occ.Has(c) {
			v += s.layouts[i].w
		}
	}
	parts, _ := s.split(fired, set, c)
	for _, p := range parts {
		best := 0.0
		if cells := targetCells(s, target, fired.Set(c), p); !cells.Empty() {
			best = math.Inf(1)
			for _, d := range cells.Cells(nil) {
				best = min(best, fewestMisses(s, target, fired.Set(c), p, d))
			}
		}
		v += best
	}
	return v
}

// smallRules are boards the solver's tests search whole in seconds, with
// each reveal rule.
var smallRules = []battleship.Rules{
	{W: 3, H: 3, Fleet: []int{2, 2}, Reveal: battleship.RevealSunk},
	{W: 4, H: 3, Fleet: []int{3, 2}, Reveal: battleship.RevealSunk},
	{W: 4, H: 3, Fleet: []int{3, 2}, Reveal: battleship.RevealShip},
	{W: 4, H: 3, Fleet: []int{2, 2}, Reveal: battleship.RevealHitsOnly},
}

// TestOptimalSolverMatchesExhaustiveSearch holds the solver's pruning to
// plain recursion, on the whole game and on every state it stored as
// exact. (Firing at once at a cell every layout left puts a ship on
// looks free, and is not: it changes which shot sinks a ship, and so
// what the sunk notice tells. This test caught that.)
func TestOptimalSolverMatchesExhaustiveSearch(t *testing.T) {
	for _, r := range smallRules {
		g := mustGeometry(t, r)
		s := newSolver(g, optimalPolicy)
		s.seen = map[stateKey]state{}
		got := s.expected()
		memo := map[string]float64{}
		all := s.everyLayout()
		if want := s.exhaustive(battleship.Bits{}, all, false, memo); math.Abs(got-want) > 1e-9 {
			t.Errorf("%dx%d %v reveal %v: solver %.6f shots, exhaustive search %.6f", r.W, r.H, r.Fleet, r.Reveal, got, want)
		}
		bad := 0
		for key, b := range s.memo {
			st := s.seen[key]
			want := s.exhaustive(st.fired, st.set, false, memo)
			if b.exact && math.Abs(b.v-want) > 1e-9 || !b.exact && b.v > want+1e-9 {
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%dx%d %v reveal %v: %d of %d stored states disagree with exhaustive search", r.W, r.H, r.Fleet, r.Reveal, bad, len(s.memo))
		}
		ties := newSolver(g, greedyBestOfTies)
		if got, want := ties.expected(), ties.exhaustive(battleship.Bits{}, all, true, map[string]float64{}); math.Abs(got-want) > 1e-9 {
			t.Errorf("%dx%d %v reveal %v: greedy with the best of ties %.6f shots, exhaustive search over the ties %.6f", r.W, r.H, r.Fleet, r.Reveal, got, want)
		}
	}
}

// TestOptimalSolverMergesMirrorImages checks that states share a memo key
// exactly when one is a mirror image of the other, on the states after
// the first two shots of a 4x4 board. (Two shots make states whose fired
// cells are their own mirror image while their layouts are not: a hit on
// b2 and a miss on c1 beside a miss on b2 and a hit on c1.)
func TestOptimalSolverMergesMirrorImages(t *testing.T) {
	g := mustGeometry(t, battleship.Rules{W: 4, H: 4, Fleet: []int{3, 2}, Reveal: battleship.RevealSunk})
	s := newSolver(g, optimalPolicy)
	keys, kinds := map[stateKey]bool{}, map[string]stateKey{}
	look := func(fired battleship.Bits, set []uint64) {
		key := s.key(fired, set)
		keys[key] = true
		// The state's kind: the least of its images, written out.
		kind := ""
		for _, m := range s.syms {
			img := make([]uint64, s.words)
			for i := range members(set) {
				j := m.layout[i]
				img[j>>6] |= 1 << uint(j&63)
			}
			if k := fmt.Sprint(m.apply(fired), img); kind == "" || k < kind {
				kind = k
			}
		}
		if other, ok := kinds[kind]; ok && other != key {
			t.Errorf("fired %v: a mirror image of a state seen before has another key", fired.Cells(nil))
		}
		kinds[kind] = key
	}
	for c := range g.Cells {
		first, _ := s.split(battleship.Bits{}, s.everyLayout(), c)
		for _, p := range first {
			for d := c + 1; d < g.Cells; d++ {
				second, _ := s.split(battleship.Cell(c), p, d)
				for _, q := range second {
					look(battleship.Cell(c).Set(d), q)
				}
			}
		}
	}
	if len(keys) != len(kinds) {
		t.Errorf("%d keys for %d kinds of state", len(keys), len(kinds))
	}
}

// finishChoice is finishPolicy's choice while some ship is hit and
// afloat (ok false while hunting): the cell, among those the hit ships
// may cover, from which the fewest misses are expected until they sink,
// by exact search over the layouts left. Misses, not shots: every hit
// was needed anyway. It asks whether greedy firing loses its shots by
// finishing ships clumsily.
func (s *solver) finishChoice(fired battleship.Bits, set []uint64) (int, bool) {
	f := finisher{s: s, target: make([]battleship.Bits, len(s.layouts)), memo: map[stateKey]float64{}}
	var cells battleship.Bits
	for i := range members(set) {
		for _, ship := range s.layouts[i].ships {
			if ship.Meets(fired) && !ship.AndNot(fired).Empty() {
				f.target[i] = f.target[i].Or(ship)
			}
		}
		if f.target[i].Empty() {
			return 0, false // hunting
		}
		cells = cells.Or(f.target[i])
	}
	best, bestV := -1, math.Inf(1)
	for _, c := range cells.AndNot(fired).Cells(nil) {
		if v := f.after(fired, set, c); v < bestV-1e-12 {
			best, bestV = c, v
		}
	}
	return best, true
}

// finisher searches how to sink the ships hit in the state finishChoice
// was asked about: target[i] holds the cells of layout i's hit ships.
type finisher struct {
	s      *solver
	target []battleship.Bits
	memo   map[stateKey]float64
	buf    []byte
}

// after is the probability-weighted misses of firing at c, then on as
// well as possible, until the hit ships sink.
func (f *finisher) after(fired battleship.Bits, set []uint64, c int) float64 {
	v := 0.0
	parts, _ := f.s.split(fired, set, c)
	for _, p := range parts {
		for wi, w := range p {
			for ; w != 0; w &= w - 1 {
				if i := wi<<6 | bits.TrailingZeros64(w); !f.s.layouts[i].occ.Has(c) {
					v += f.s.layouts[i].w
				}
			}
		}
		v += f.cost(fired.Set(c), p)
	}
	return v
}

func (f *finisher) cost(fired battleship.Bits, set []uint64) float64 {
	f.buf = f.buf[:0]
	var cells battleship.Bits
	for wi, w := range set {
		f.buf = binary.LittleEndian.AppendUint64(f.buf, w)
		for ; w != 0; w &= w - 1 {
			if t := f.target[wi<<6|bits.TrailingZeros64(w)]; !t.AndNot(fired).Empty() {
				cells = cells.Or(t)
			}
		}
	}
	if cells.AndNot(fired).Empty() {
		return 0 // the hit ships have sunk in every layout left
	}
	key := stateKey{fired: fired, h1: maphash.Bytes(f.s.seed[0], f.buf), h2: maphash.Bytes(f.s.seed[1], f.buf)}
	if v, ok := f.memo[key]; ok {
		return v
	}
	best := math.Inf(1)
	for _, c := range cells.AndNot(fired).Cells(nil) {
		best = min(best, f.after(fired, set, c))
	}
	f.memo[key] = best
	return best
}

// TestOptimalSolverSmallCases checks the solver against games worked out
// by hand.
func TestOptimalSolverSmallCases(t *testing.T) {
	for _, tc := range []struct {
		rules battleship.Rules
		want  map[policy]float64
	}{
		// A 2x2 board with one ship of 2: four placements, equally
		// likely, two through each cell. The first shot hits with
		// chance 1/2. A hit leaves the two placements through it: one
		// more shot if the next guess is right, two if not (1.5). A miss
		// leaves the two placements through the opposite cell, which
		// both hold: 1.5 after it, 2.5 in all. Expected: 1 + 1.5/2 +
		// 2.5/2 = 3.
		{battleship.Rules{W: 2, H: 2, Fleet: []int{2}, Reveal: battleship.RevealSunk},
			map[policy]float64{optimalPolicy: 3, greedyLowest: 3, greedyBestOfTies: 3}},
	} {
		g := mustGeometry(t, tc.rules)
		for pol, want := range tc.want {
			if got := newSolver(g, pol).expected(); math.Abs(got-want) > 1e-9 {
				t.Errorf("%dx%d %v, %v: %v shots, want %v", tc.rules.W, tc.rules.H, tc.rules.Fleet, pol, got, want)
			}
		}
	}
}

// walked is the expected number of shots of a policy that has one
// choice in each state, found by walking every layout through it: no
// memo, no mirror images merged.
func (s *solver) walked() float64 {
	mean := 0.0
	for i, l := range s.layouts {
		mean += l.w * float64(s.walk(i))
	}
	return mean
}

// partOf returns the part that holds layout i, or nil when its game is
// over.
func partOf(parts [][]uint64, i int) []uint64 {
	for _, p := range parts {
		if p[i>>6]&(1<<uint(i&63)) != 0 {
			return p
		}
	}
	return nil
}

// walk returns the shots a policy with one choice a state needs against
// layout i.
func (s *solver) walk(i int) int {
	set, fired, shots := s.everyLayout(), battleship.Bits{}, 0
	for set != nil {
		cands, _, _, _ := s.choices(fired, set)
		parts, _ := s.split(fired, set, cands[0])
		fired, shots, set = fired.Set(cands[0]), shots+1, partOf(parts, i)
	}
	return shots
}

// TestOptimalSolverMergesOnlyWhatItMay holds the solver's figures for the
// policies with one choice a state to a walk of every layout through
// them. Breaking ties by the lowest cell does not commute with mirroring
// the board, so for these policies mirror images must not share a memo
// entry: merging them moves greedy's figure on the first board below
// from 8.4322 to 8.4411 shots, and finishing's on the second from 9.3528
// to 9.3410.
func TestOptimalSolverMergesOnlyWhatItMay(t *testing.T) {
	for _, tc := range []struct {
		r   battleship.Rules
		pol policy
	}{
		{battleship.Rules{W: 5, H: 3, Fleet: []int{3, 2}, Reveal: battleship.RevealShip}, greedyLowest},
		{battleship.Rules{W: 4, H: 4, Fleet: []int{3, 2}, Reveal: battleship.RevealHitsOnly}, finishPolicy},
	} {
		g := mustGeometry(t, tc.r)
		s := newSolver(g, tc.pol)
		if got, want := s.expected(), s.walked(); math.Abs(got-want) > 1e-9 {
			t.Errorf("%dx%d %v, %v: solver %.6f shots, walk %.6f", tc.r.W, tc.r.H, tc.r.Fleet, tc.pol, got, want)
		}
	}
}

func distinctLengths(fleet []int) bool {
	sorted := slices.Sorted(slices.Values(fleet))
	return len(slices.Compact(sorted)) == len(fleet)
}

// TestOptimalSolverPlaysThePosterior checks the solver's model of the
// game against the real one: on a board the posterior shooter enumerates
// from its first shot, it fires at the likeliest cell, the lowest on a
// tie, so its mean over every layout, weighted by the random placer's
// probabilities, must be the solver's greedy figure, and with ships of
// lengths all different it must need the same shots on every layout.
// (With two ships of a length, cells of equal probability can come out
// of the shooter's sums a last bit apart, 0.5 against 0.49999999999999994
// on 3x3, and on some layouts it fires another of the likeliest cells;
// on these boards that leaves the mean as it is.)
func TestOptimalSolverPlaysThePosterior(t *testing.T) {
	// Not 4x4 with ships 2 2 2: there some cells of equal probability
	// come out of the shooter's sums a last bit apart, and it fires the
	// higher, not the lower (10.5526 shots against the solver's 10.5517).
	for _, r := range smallRules {
		g := mustGeometry(t, r)
		s := newSolver(g, greedyLowest)
		want := s.expected()
		// Exact from the first shot on these boards: the shots do not
		// depend on the seed.
		shooter := newShooter(t, r, "posterior", map[string]genome.Value{"exact": {Num: 1 << 20}})
		got, apart := 0.0, 0
		for i, l := range s.layouts {
			shots := play(g, shooter, battleship.Layout{Ships: l.ships}, uint64(i))
			got += l.w * float64(shots)
			if distinctLengths(r.Fleet) && shots != s.walk(i) {
				apart++
			}
		}
		if apart > 0 {
			t.Errorf("%dx%d %v reveal %v: on %d of %d layouts the posterior shooter and the solver's greedy policy need other numbers of shots", r.W, r.H, r.Fleet, r.Reveal, apart, len(s.layouts))
		}
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%dx%d %v reveal %v: the posterior shooter needs %.6f shots, the solver's greedy %.6f", r.W, r.H, r.Fleet, r.Reveal, got, want)
		}
	}
}

// TestOptimalBeatsGreedy reports, on small boards, the exact expected
// shots of the best possible shooter, of greedy firing on the exact
// posterior (the lowest of tied cells, and the best of them), of greedy
// hunting with ships finished by search (finishPolicy) and of the bare
// density kernel (over9000 without its grid and jitter, played on every
// layout), and checks that none does better than the best possible and
// the best of ties no worse than the lowest. OPTIMAL_BOARDS=WxH:fleet;...
// (fleet as 3-2) chooses the boards; the README's table is
//
//	OPTIMAL_BOARDS='3x3:2-2;4x3:3-2;4x4:3-2;5x4:3-2;4x4:2-2-2' go test ./fitness/battleship -run OptimalBeatsGreedy -v -timeout 90m
func TestOptimalBeatsGreedy(t *testing.T) {
	boards := "3x3:2-2;4x3:3-2"
	if b := os.Getenv("OPTIMAL_BOARDS"); b != "" {
		boards = b
	}
	for _, spec := range strings.Split(boards, ";") {
		var r battleship.Rules
		var fleet string
		if _, err := fmt.Sscanf(spec, "%dx%d:%s", &r.W, &r.H, &fleet); err != nil {
			t.Fatalf("OPTIMAL_BOARDS %q: %v", spec, err)
		}
		for _, f := range strings.Split(fleet, "-") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("OPTIMAL_BOARDS %q: %v", spec, err)
			}
			r.Fleet = append(r.Fleet, n)
		}
		r.Reveal = battleship.RevealSunk
		g := mustGeometry(t, r)
		v := map[policy]float64{}
		var states int
		for _, pol := range []policy{optimalPolicy, greedyLowest, greedyBestOfTies, finishPolicy} {
			s := newSolver(g, pol)
			v[pol] = s.expected()
			if pol == optimalPolicy {
				states = len(s.memo)
			}
		}
		kernel := newShooter(t, r, "tuned", kernelValues(g))
		k := 0.0
		layouts := randomLayouts(g)
		for i, l := range layouts {
			k += l.w * float64(play(g, kernel, battleship.Layout{Ships: l.ships}, uint64(i)))
		}
		opt := v[optimalPolicy]
		more := func(x float64) string { return fmt.Sprintf("%.4f (+%.2f%%)", x, 100*(x/opt-1)) }
		t.Logf("%s: %d layouts; optimal %.4f (%d states); greedy on the posterior %s, with the best of ties %s; finishing ships by search %s; kernel %s",
			spec, len(layouts), opt, states, more(v[greedyLowest]), more(v[greedyBestOfTies]), more(v[finishPolicy]), more(k))
		if opt > v[greedyBestOfTies]+1e-9 || v[greedyBestOfTies] > v[greedyLowest]+1e-9 || opt > v[finishPolicy]+1e-9 || opt > k+1e-9 {
			t.Errorf("%s: optimal %.6f, greedy best of ties %.6f, greedy lowest %.6f, finish %.6f, kernel %.6f: want the optimal least and the best of ties no worse than the lowest",
				spec, opt, v[greedyBestOfTies], v[greedyLowest], v[finishPolicy], k)
		}
	}
}

// mustGeometry is the geometry of rules r.
func mustGeometry(t testing.TB, r battleship.Rules) *battleship.Geometry {
	t.Helper()
	g, err := battleship.NewGeometry(r)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// newShooter is the game's shooter name under rules r, at its defaults
// but for set.
func newShooter(t testing.TB, r battleship.Rules, name string, set map[string]genome.Value) battleship.Shooter {
	t.Helper()
	fleet := make([]string, len(r.Fleet))
	for i, n := range r.Fleet {
		fleet[i] = strconv.Itoa(n)
	}
	game, err := battleship.New(map[string]string{"width": strconv.Itoa(r.W), "height": strconv.Itoa(r.H),
		"fleet": strings.Join(fleet, " "), "reveal": r.Reveal.String()})
	if err != nil {
		t.Fatal(err)
	}
	var values genome.Values
	for _, p := range game.Players() {
		if p.Role == battleship.ShooterRole && p.Name == name {
			values = p.Schema.Defaults()
		}
	}
	for k, v := range set {
		if values, err = values.With(k, v); err != nil {
			t.Fatal(err)
		}
	}
	p, err := game.NewPlayer(battleship.ShooterRole, name, values)
	if err != nil {
		t.Fatal(err)
	}
	return p.(battleship.Shooter)
}

// kernelValues are the tuned shooter's values that make it the bare
// density kernel: over9000 without its grid (all ones) and jitter.
func kernelValues(g *battleship.Geometry) map[string]genome.Value {
	ones := make([]float64, g.Cells)
	for i := range ones {
		ones[i] = 1
	}
	return map[string]genome.Value{"exponent": {Num: 1}, "hit_weight": {Num: 20}, "weights": {Cells: ones},
		"tier_avoid": {Num: 1}, "tier_preferred": {Num: 1}, "tier_critical": {Num: 1}, "parity": {Num: 1}, "jitter": {Num: 0}}
}

// fixed lays one layout.
type fixed struct{ l battleship.Layout }

func (fixed) Name() string                                               { return "fixed" }
func (f fixed) Place(*battleship.Geometry, *rand.Rand) battleship.Layout { return f.l }

// play is the shots s needs against layout l: the game as it is played,
// which refuses a shot off the board or fired before.
func play(g *battleship.Geometry, s battleship.Shooter, l battleship.Layout, seed uint64) int {
	return g.Solo(s, fixed{l}, seed)
}
