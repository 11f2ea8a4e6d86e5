package battleship

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
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
				common := make([]bool, n)
				for c := range common {
					common[c] = true
				}
				found := 0
				for _, pl := range g.Placements[L] {
					cells := pl.Cells(nil)
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
					for c := range common {
						common[c] = common[c] && slices.Contains(cells, c)
					}
				}
				if found == 0 {
					continue
				}
				for c := range n {
					if common[c] && !known[i][c] {
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
		own := false
		for c := range n {
			own = own || (shipRule && owner[c] == i)
		}
		dens := make([]float64, n)
		total := 0.0
		for _, pl := range g.Placements[L] {
			cells := pl.Cells(nil)
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
			if own {
				for c := range n {
					if owner[c] == i && !slices.Contains(cells, c) {
						ok = false
					}
				}
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

// densGame plays a solo game of gun against p's fleet and returns the
// shots; if ref is not nil it is fed the same results and must choose the
// same cell every time.
func densGame(t testing.TB, g *Geometry, gun, ref Gunner, p Placer, seed uint64) []int {
	t.Helper()
	f := newFleet(g, p.Place(g, fitness.NewRand(fitness.Derive(seed, streamFleet, 0))))
	var shots []int
	for f.afloat > 0 {
		c := gun.Fire()
		if ref != nil {
			if rc := ref.Fire(); rc != c {
				t.Fatalf("seed %d shot %d: kernel fires at %s, reference at %s", seed, len(shots)+1, g.Name(c), g.Name(rc))
			}
		}
		s := f.shoot("density", c)
		gun.Observe(s)
		if ref != nil {
			ref.Observe(s)
		}
		shots = append(shots, c)
		if len(shots) > g.Cells {
			t.Fatalf("seed %d: more shots than cells", seed)
		}
	}
	return shots
}

func densShooterRng(seed uint64) *rand.Rand {
	return fitness.NewRand(fitness.Derive(seed, streamShooter, 0))
}

// densRules are classic rules under each reveal rule, plus two odd
// boards (a length-1 ship, a board spanning both bitboard words unevenly).
func densRules() []Rules {
	sunk, hits, ship := Classic(), Classic(), Classic()
	hits.Reveal, ship.Reveal = RevealHitsOnly, RevealShip
	return []Rules{sunk, hits, ship,
		{W: 11, H: 11, Fleet: []int{5, 4, 3, 3, 2, 1}, Reveal: RevealSunk},
		{W: 7, H: 12, Fleet: []int{4, 4, 3, 2}, Reveal: RevealShip},
		{W: 12, H: 10, Fleet: []int{6, 2, 2}, Reveal: RevealHitsOnly},
	}
}

func TestDensityMatchesNaiveReference(t *testing.T) {
	builders := []struct {
		name  string
		build func(*Geometry) (*densityShooter, error)
	}{
		{"bob", newBob},
		{"over9000", newOver9000},
		{"tuned-defaults", func(g *Geometry) (*densityShooter, error) {
			return newTunedShooter(g, tunedSchema(g.Rules).Defaults())
		}},
	}
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, r := range densRules() {
		g := mustGeometry(t, r)
		for _, b := range builders {
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
