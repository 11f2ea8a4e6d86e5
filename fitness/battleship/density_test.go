package battleship

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// densRef is a slow, naive reference of the density kernel: every shot it
// rebuilds what it knows from the shot history, walks every placement of
// every ship cell by cell, and scores the cells with the kernel's
// documented arithmetic. The kernel must agree with it.
type densRef struct {
	g     *Geometry
	p     densityParams
	rng   *rand.Rand
	shots []Shot
	cells map[int][][]int // by length: the cells of each placement
}

// placements lists the cells of every placement of a length-L ship.
func (r *densRef) placements(L int) [][]int {
	if r.cells == nil {
		r.cells = map[int][][]int{}
	}
	if _, ok := r.cells[L]; !ok {
		for _, pl := range r.g.Placements[L] {
			r.cells[L] = append(r.cells[L], pl.Cells(nil))
		}
	}
	return r.cells[L]
}

func (r *densRef) Observe(s Shot) { r.shots = append(r.shots, s) }

func (r *densRef) Fire() int {
	val, open := r.values()
	best, top := -1, math.Inf(-1)
	for c := range r.g.Cells {
		if open[c] && val[c] > top {
			best, top = c, val[c]
		}
	}
	if r.p.Jitter == 0 {
		return best
	}
	best, bestVal := -1, math.Inf(-1)
	for c := range r.g.Cells {
		if !open[c] || (val[c] != top && val[c]+r.p.Jitter <= top) {
			continue
		}
		if v := val[c] + r.rng.Float64()*r.p.Jitter; v > bestVal {
			best, bestVal = c, v
		}
	}
	return best
}

// values returns the score of every cell and which cells are unfired.
func (r *densRef) values() (val []float64, open []bool) {
	g, p := r.g, r.p
	n := g.Cells
	open = make([]bool, n)
	miss, hit := make([]bool, n), make([]bool, n)
	owner := make([]int, n) // reveal: ship
	for c := range open {
		open[c], owner[c] = true, -1
	}
	afloat := make([]bool, len(g.Fleet))
	for i := range afloat {
		afloat[i] = true
	}
	type sinking struct{ ship, cell, at int }
	var sunk []sinking
	hitAt := make([]int, n) // index of the shot that hit a cell
	for i, s := range r.shots {
		hitAt[s.Cell] = i
		open[s.Cell] = false
		if !s.Hit {
			miss[s.Cell] = true
			continue
		}
		hit[s.Cell] = true
		if !p.UseReveal {
			continue
		}
		owner[s.Cell] = s.Ship
		if s.Sunk >= 0 && afloat[s.Sunk] {
			afloat[s.Sunk] = false
			sunk = append(sunk, sinking{s.Sunk, s.Cell, i})
		}
	}
	shipRule := p.UseReveal && g.Reveal == RevealShip
	resolved := make([]bool, n)
	switch {
	case shipRule:
		for c := range n {
			resolved[c] = hit[c] && owner[c] >= 0 && !afloat[owner[c]]
		}
	default:
		// Least fixpoint: a sunk ship surely owns the cells common to
		// every placement of its length through its sinking cell made of
		// hits (made by the time it sank) that no other sunk ship surely
		// owns.
		known := make([][]bool, len(sunk))
		for i, s := range sunk {
			known[i] = make([]bool, n)
			known[i][s.cell] = true
		}
		for changed := true; changed; {
			changed = false
			for i, s := range sunk {
				L := g.Fleet[s.ship]
				covered := make([]int, n) // by how many candidates
				found := 0
				for _, cells := range r.placements(L) {
					if !slices.Contains(cells, s.cell) {
						continue
					}
					ok := true
					for _, c := range cells {
						other := false
						for j := range sunk {
							other = other || (j != i && known[j][c])
						}
						ok = ok && hit[c] && hitAt[c] <= s.at && !other
					}
					if !ok {
						continue
					}
					found++
					for _, c := range cells {
						covered[c]++
					}
				}
				if found == 0 {
					continue
				}
				for c := range n {
					if covered[c] == found && !known[i][c] {
						known[i][c], changed = true, true
					}
				}
			}
		}
		for i := range sunk {
			for c := range n {
				resolved[c] = resolved[c] || known[i][c]
			}
		}
	}
	unresolved := make([]bool, n)
	anyUnresolved := false
	for c := range n {
		unresolved[c] = hit[c] && !resolved[c]
		anyUnresolved = anyUnresolved || unresolved[c]
	}

	q := make([]float64, n)
	for c := range q {
		q[c] = 1
	}
	for i, L := range g.Fleet {
		if !afloat[i] {
			continue
		}
		ownHits := 0
		for c := range n {
			if shipRule && owner[c] == i {
				ownHits++
			}
		}
		own := ownHits > 0
		dens := make([]float64, n)
		total := 0.0
		for _, cells := range r.placements(L) {
			ok, k := true, 0
			for _, c := range cells {
				switch {
				case own:
					ok = ok && !miss[c] && !(hit[c] && owner[c] != i)
					if hit[c] && owner[c] == i {
						k++
					}
				case shipRule:
					ok = ok && !miss[c] && !hit[c]
				default:
					ok = ok && !miss[c] && !resolved[c]
					if unresolved[c] {
						k++
					}
				}
			}
			if own && k != ownHits {
				ok = false // it must cover all the ship's hits
			}
			if !ok {
				continue
			}
			w := 1.0
			for range k {
				w *= p.HitWeight
			}
			total += w
			for _, c := range cells {
				dens[c] += w
			}
		}
		if total == 0 {
			continue
		}
		inv := 1 / total
		for c := range n {
			q[c] *= 1 - dens[c]*inv
		}
	}

	shortest := math.MaxInt
	for i, L := range g.Fleet {
		if afloat[i] {
			shortest = min(shortest, L)
		}
	}
	near := func(set []bool, c int) bool {
		row, col := c/g.W, c%g.W
		return (col > 0 && set[c-1]) || (col < g.W-1 && set[c+1]) ||
			(row > 0 && set[c-g.W]) || (row < g.H-1 && set[c+g.W])
	}
	extends := func(c int) bool {
		row, col := c/g.W, c%g.W
		for _, d := range [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}} {
			r1, c1, r2, c2 := row+d[0], col+d[1], row+2*d[0], col+2*d[1]
			if r2 >= 0 && r2 < g.H && c2 >= 0 && c2 < g.W && unresolved[r1*g.W+c1] && unresolved[r2*g.W+c2] {
				return true
			}
		}
		return false
	}
	val = make([]float64, n)
	for c := range n {
		v := 1 - q[c]
		if p.Exponent != 1 {
			v = math.Pow(v, p.Exponent)
		}
		if p.Grid != nil {
			v *= p.Grid[c]
		}
		switch {
		case extends(c):
			v *= p.Critical
		case near(unresolved, c):
			v *= p.Preferred
		case near(miss, c):
			v *= p.Avoid
		}
		if !anyUnresolved && (c/g.W+c%g.W)%shortest == 0 {
			v *= p.Parity
		}
		val[c] = v
	}
	return val, open
}

// densGame plays a solo game of gun against p's fleet, laid as in
// Geometry.Solo, and returns the shots; if twin is not nil it is fed the
// same results and must choose the same cell every time. A repeated or
// off-board shot panics in fleet.shoot.
func densGame(t testing.TB, g *Geometry, gun, twin Gunner, p Placer, seed uint64) []int {
	t.Helper()
	f := newFleet(g, p.Place(g, fitness.NewRand(fitness.Derive(seed, streamFleet, 0))))
	var shots []int
	for f.afloat > 0 {
		c := gun.Fire()
		if twin != nil {
			if tc := twin.Fire(); tc != c {
				t.Fatalf("seed %d shot %d: %s, then %s", seed, len(shots)+1, g.Name(c), g.Name(tc))
			}
		}
		s := f.shoot("density", c)
		gun.Observe(s)
		if twin != nil {
			twin.Observe(s)
		}
		shots = append(shots, c)
	}
	for i, ship := range f.ships {
		for _, c := range ship.Cells(nil) {
			if !slices.Contains(shots, c) {
				t.Fatalf("seed %d: the game ended with %s of ship %d not hit", seed, g.Name(c), i)
			}
		}
	}
	return shots
}

func densShooterRng(seed uint64) *rand.Rand {
	return fitness.NewRand(fitness.Derive(seed, streamShooter, 0))
}

// densRules are the classic rules under each reveal rule, plus three odd
// boards: a length-1 ship and more distinct lengths than a gunner holds
// inline, a board narrower than 8 columns, a wide one with a long ship;
// and then the large boards.
func densRules() []Rules {
	sunk, hits, ship := Classic(), Classic(), Classic()
	hits.Reveal, ship.Reveal = RevealHitsOnly, RevealShip
	return append([]Rules{sunk, hits, ship,
		{W: 11, H: 11, Fleet: []int{5, 4, 3, 3, 2, 1}, Reveal: RevealSunk},
		{W: 7, H: 12, Fleet: []int{4, 4, 3, 2}, Reveal: RevealShip},
		{W: 12, H: 10, Fleet: []int{6, 2, 2}, Reveal: RevealHitsOnly},
	}, densLargeRules()...)
}

// densLargeRules are boards where a vertical ship spans more than 64
// cells of the bitboard ((L-1)*W >= 64), so the kernel's shifts by 64 or
// more are exercised: 16x8 (all 128 cells) with a ship as long as the
// board is high, 8x16 with a length-10 ship, 11x11 with a length-7 ship,
// and 64x2, whose rows are a word each (a cell's southern neighbour is 64
// bits on).
func densLargeRules() []Rules {
	return []Rules{
		{W: 16, H: 8, Fleet: []int{8, 5, 3, 2}, Reveal: RevealSunk},
		{W: 8, H: 16, Fleet: []int{10, 4, 2}, Reveal: RevealShip},
		{W: 11, H: 11, Fleet: []int{7, 3, 3}, Reveal: RevealHitsOnly},
		{W: 64, H: 2, Fleet: []int{6, 2, 2}, Reveal: RevealSunk},
	}
}

// TestDensityLargeBoardsSpanTheWordBoundary makes sure the large boards
// are what they claim: some vertical placement crosses from the low word
// into the high one with a span of at least 64 cells.
func TestDensityLargeBoardsSpanTheWordBoundary(t *testing.T) {
	for _, r := range densLargeRules() {
		longest := slices.Max(r.Fleet)
		if (longest-1)*r.W < 64 || r.W*r.H <= 64 {
			t.Errorf("%dx%d %v: the longest ship spans %d cells, want at least 64", r.W, r.H, r.Fleet, (longest-1)*r.W+1)
		}
	}
}

// TestDensityMatchesNaiveReference plays bob, over9000 and tuned (at its
// defaults) in lockstep with the naive reference: with the integral
// default hit weight they must fire at the very same cells.
func TestDensityMatchesNaiveReference(t *testing.T) {
	games := densScale(25)
	for _, r := range densRules() {
		g := mustGeometry(t, r)
		for _, b := range densBuilders() {
			t.Run(fmt.Sprintf("%s/%v/%dx%d", b.name, r.Reveal, r.W, r.H), func(t *testing.T) {
				s, err := b.build(g)
				if err != nil {
					t.Fatal(err)
				}
				for seed := range uint64(games) {
					ref := &densRef{g: g, p: s.p, rng: densShooterRng(seed)}
					densGame(t, g, s.Start(g, densShooterRng(seed)), ref, randomPlacer{}, seed)
				}
			})
		}
	}
}

// densScale shrinks a test's workload under -short and -race.
func densScale(n int) int {
	switch {
	case densRace:
		return max(1, n/50)
	case testing.Short():
		return max(1, n/16)
	}
	return n
}

// TestDensityRandomPositions compares the kernel's scores of every unfired
// cell with the naive reference's along games played by random parameter
// values (non-integral hit weights, so only up to rounding).
func TestDensityRandomPositions(t *testing.T) {
	for _, r := range densRules() {
		g := mustGeometry(t, r)
		t.Run(fmt.Sprintf("%v/%dx%d", r.Reveal, r.W, r.H), func(t *testing.T) {
			for seed := range uint64(densScale(30)) {
				rng := fitness.NewRand(seed)
				v, err := densRandomValues(t, tunedSchema(r), rng).With(tunedModel, genome.Value{Str: modelDensity.String()})
				if err != nil {
					t.Fatal(err)
				}
				s, err := tunedShooter(g, v)
				if err != nil {
					t.Fatal(err)
				}
				ref := &densRef{g: g, p: s.p}
				k := s.Start(g, densShooterRng(seed)).(*densityGunner)
				f := newFleet(g, placeUniform(g, rng))
				for f.afloat > 0 {
					c := exactGunner{k}.Fire() // every score exact, in k.score
					want, open := ref.values()
					for cell, o := range open {
						if got := k.score[cell]; o && math.Abs(got-want[cell]) > 1e-9*max(1, math.Abs(want[cell])) {
							t.Fatalf("seed %d shot %d cell %s: kernel %v, reference %v (params %v)",
								seed, len(ref.shots)+1, g.Name(cell), got, want[cell], v.Map())
						}
					}
					shot := f.shoot("tuned", c)
					k.Observe(shot)
					ref.Observe(shot)
				}
			}
		})
	}
}

func TestDensityShootersFinishWithoutRepeats(t *testing.T) {
	for _, r := range densRules() {
		g := mustGeometry(t, r)
		for _, b := range densBuilders() {
			t.Run(fmt.Sprintf("%s/%v/%dx%d", b.name, r.Reveal, r.W, r.H), func(t *testing.T) {
				s, err := b.build(g)
				if err != nil {
					t.Fatal(err)
				}
				// densGame fails on a repeated or off-board shot and on a
				// game that ends before every ship cell is hit.
				for seed := range uint64(densScale(300)) {
					densGame(t, g, s.Start(g, densShooterRng(seed)), nil, randomPlacer{}, seed)
				}
			})
		}
	}
}

func densBuilders() []struct {
	name  string
	build func(*Geometry) (*densityShooter, error)
} {
	return []struct {
		name  string
		build func(*Geometry) (*densityShooter, error)
	}{
		{"bob", bobShooter},
		{"over9000", over9000Shooter},
		{"tuned", func(g *Geometry) (*densityShooter, error) { return tunedShooter(g, tunedSchema(g.Rules).Defaults()) }},
	}
}

// densCells turns cell names ("B2 C2") into cells.
func densCells(t testing.TB, g *Geometry, names string) []int {
	t.Helper()
	var out []int
	for _, name := range strings.Fields(names) {
		c := -1
		for i := range g.Cells {
			if g.Name(i) == name {
				c = i
			}
		}
		if c < 0 {
			t.Fatalf("no cell %q", name)
		}
		out = append(out, c)
	}
	return out
}

func TestDensityResolvesSunkShips(t *testing.T) {
	// Ships 0 and 1, both of length 2, on a 4x4 board:
	//   A B C D
	// 1 . 1 1 .
	// 2 0 0 . .
	// (the last case puts ship 1 at B2 C2 instead).
	type step struct {
		cell       string
		ship, sunk int
	}
	tests := []struct {
		name     string
		reveal   Reveal
		shots    []step
		resolved string // cells known to belong to sunk ships
	}{
		{"sunk/pinned by its last cell", RevealSunk,
			[]step{{"A2", 0, -1}, {"B2", 0, 0}}, "A2 B2"},
		{"sunk/ambiguous keeps the sinking cell", RevealSunk,
			[]step{{"A2", 0, -1}, {"B1", 1, -1}, {"B2", 0, 0}}, "B2"},
		{"sunk/a later sinking settles the first", RevealSunk,
			[]step{{"A2", 0, -1}, {"B1", 1, -1}, {"B2", 0, 0}, {"C1", 1, 1}}, "A2 B2 B1 C1"},
		{"sunk/a line of three hits", RevealSunk,
			[]step{{"A2", 0, -1}, {"B2", 1, -1}, {"C2", 1, 1}}, "B2 C2"},
		{"hits-only/nothing is known", RevealHitsOnly,
			[]step{{"A2", 0, -1}, {"B1", 1, -1}, {"B2", 0, 0}, {"C1", 1, 1}}, ""},
		{"ship/named hits", RevealShip,
			[]step{{"A2", 0, -1}, {"B1", 1, -1}, {"B2", 0, 0}}, "A2 B2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeometry(t, Rules{W: 4, H: 4, Fleet: []int{2, 2}, Reveal: tc.reveal})
			s, err := over9000Shooter(g)
			if err != nil {
				t.Fatal(err)
			}
			k := s.Start(g, densShooterRng(1)).(*densityGunner)
			for _, st := range tc.shots {
				shot := Shot{Cell: densCells(t, g, st.cell)[0], Hit: true, Ship: -1, Sunk: -1}
				if tc.reveal == RevealShip {
					shot.Ship = st.ship
				}
				if tc.reveal != RevealHitsOnly {
					shot.Sunk = st.sunk
				}
				k.Observe(shot)
			}
			var want Bits
			for _, c := range densCells(t, g, tc.resolved) {
				want = want.Set(c)
			}
			if k.resolved != want {
				t.Fatalf("resolved %v, want %v", k.resolved.Cells(nil), want.Cells(nil))
			}
		})
	}
}

// densRandomValues draws every parameter of schema uniformly in its range
// (a grid cell by cell).
func densRandomValues(t testing.TB, schema genome.Schema, rng *rand.Rand) genome.Values {
	t.Helper()
	v := schema.Defaults()
	for _, p := range schema {
		draw := func() float64 { return p.Min + rng.Float64()*(p.Max-p.Min) }
		var x genome.Value
		switch p.Kind {
		case genome.Float:
			x.Num = draw()
		case genome.Grid:
			x.Cells = make([]float64, p.Rows*p.Cols)
			for i := range x.Cells {
				x.Cells[i] = draw()
			}
		case genome.Int:
			x.Num = math.Round(draw())
			if p.Log {
				// The posterior's sample budget: what these tests check
				// does not depend on it, and its cost grows with it, so
				// it is drawn small (posterior_test.go plays the default
				// budget and larger).
				x.Num = math.Round(p.Min + rng.Float64()*min(p.Max-p.Min, 3*p.Min))
			}
		case genome.Choice:
			x.Str = p.Choices[rng.IntN(len(p.Choices))]
		default:
			t.Fatalf("%s: no drawing of %v parameters", p.Name, p.Kind)
		}
		var err error
		if v, err = v.With(p.Name, x); err != nil {
			t.Fatal(err)
		}
	}
	return v
}
