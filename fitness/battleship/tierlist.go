package battleship

import (
	"math/rand/v2"
	"strconv"
)

// The Tier List player (seed 000) sorts every cell into one of five tiers
// and fires at a uniformly random cell of the highest non-empty tier.
//
//   - A fired cell goes to the explored tier and is never picked again.
//   - After a miss, the unexplored orthogonal neighbours of the cell go to
//     the avoid tier.
//   - After a hit, they go to the preferred tier; and if a neighbour of the
//     hit is itself a hit of a ship not known to be sunk (a "consecutive
//     hit"), the cell on the opposite side of the new hit goes to the
//     critical tier, extending the line.
//
// Faithful details of the original code kept here:
//
//   - Tier moves are unconditional: a miss demotes unexplored neighbours
//     even from preferred or critical, and a hit (also a sinking one)
//     moves them to preferred even from critical.
//   - The four directions are checked in the order left, right, below,
//     above, and only the last one with a consecutive hit names the
//     opposite cell. If that cell is off the board or explored, nothing
//     becomes critical, even if an earlier direction had a usable one.
//
// Which hits belong to sunk ships is learned from the rules' notices. Under
// reveal: ship every hit names its ship, so a sinking marks exactly that
// ship's hits. Under reveal: sunk only the ship and the sinking cell are
// named; the sunk cells are then those common to every placement of that
// ship's length through the sinking cell made only of hits not already
// known sunk (always at least the sinking cell itself). Under hits-only no
// ship is ever known sunk, so every neighbouring hit is consecutive.

// tier is a priority class of cells; higher tiers are fired at first.
type tier uint8

// The tiers, lowest priority first.
const (
	tierExplored tier = iota
	tierAvoid
	tierNormal
	tierPreferred
	tierCritical
	numTiers
)

// tiers is the one table of tiers, indexed by tier.
var tiers = [numTiers]struct {
	name    string
	summary string
}{
	tierExplored:  {"explored", "already fired at; never picked"},
	tierAvoid:     {"avoid", "next to a miss"},
	tierNormal:    {"normal", "nothing known"},
	tierPreferred: {"preferred", "next to a hit"},
	tierCritical:  {"critical", "continues a line of two hits"},
}

func (t tier) String() string {
	if t < numTiers {
		return tiers[t].name
	}
	return "tier(" + strconv.Itoa(int(t)) + ")"
}

// tierListShooter is the seed-000 Tier List player.
type tierListShooter struct{}

func (tierListShooter) Name() string { return "tierlist" }

func (tierListShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	t := &tierListGunner{g: g, rng: rng, of: make([]tier, g.Cells), sunk: newHitLedger(g)}
	for c := range t.of {
		t.of[c] = tierNormal
	}
	t.sets[tierNormal] = g.All
	return t
}

type tierListGunner struct {
	g    *Geometry
	rng  *rand.Rand
	sets [numTiers]Bits // the cells of each tier
	of   []tier         // the tier of each cell
	sunk hitLedger
}

func (t *tierListGunner) Fire() int {
	for k := tierCritical; k > tierExplored; k-- {
		if s := t.sets[k]; !s.Empty() {
			return s.Nth(t.rng.IntN(s.Count()))
		}
	}
	panic("battleship: tierlist: no cell left to fire at")
}

func (t *tierListGunner) move(c int, k tier) {
	t.sets[t.of[c]] = t.sets[t.of[c]].AndNot(Cell(c))
	t.sets[k] = t.sets[k].Set(c)
	t.of[c] = k
}

// tierDirs are the directions in the order the original checks them for a
// consecutive hit: left, right, below, above.
var tierDirs = [4][2]int{{0, -1}, {0, 1}, {1, 0}, {-1, 0}}

// neighbourAt returns the cell dr rows and dc columns from c, or -1 off the board.
func neighbourAt(g *Geometry, c, dr, dc int) int {
	r, col := c/g.W+dr, c%g.W+dc
	if r < 0 || r >= g.H || col < 0 || col >= g.W {
		return -1
	}
	return r*g.W + col
}

func (t *tierListGunner) Observe(s Shot) {
	t.sunk.observe(s)
	c := s.Cell
	t.move(c, tierExplored)
	to := tierAvoid
	if s.Hit {
		to = tierPreferred
	}
	for _, d := range tierDirs {
		if n := neighbourAt(t.g, c, d[0], d[1]); n >= 0 && t.of[n] != tierExplored {
			t.move(n, to)
		}
	}
	if !s.Hit {
		return
	}
	opposite, found := -1, false
	for _, d := range tierDirs {
		if n := neighbourAt(t.g, c, d[0], d[1]); n >= 0 && t.sunk.live(n) {
			opposite, found = neighbourAt(t.g, c, -d[0], -d[1]), true
		}
	}
	if found && opposite >= 0 && t.of[opposite] != tierExplored {
		t.move(opposite, tierCritical)
	}
}

// hitLedger records the hits of one game and which of them are known to
// belong to sunk ships, from whatever the reveal rule tells.
type hitLedger struct {
	g      *Geometry
	hits   Bits
	sunk   Bits
	shipOf [MaxCells]int8 // under RevealShip: the ship hit at each hit cell
}

func newHitLedger(g *Geometry) hitLedger { return hitLedger{g: g} }

// live reports whether c is a hit not known to belong to a sunk ship.
func (k *hitLedger) live(c int) bool { return k.hits.Has(c) && !k.sunk.Has(c) }

func (k *hitLedger) observe(s Shot) {
	if !s.Hit {
		return
	}
	c := s.Cell
	k.hits = k.hits.Set(c)
	if s.Ship >= 0 {
		k.shipOf[c] = int8(s.Ship)
	}
	if s.Sunk < 0 {
		return
	}
	if s.Ship >= 0 {
		for w := k.hits.AndNot(k.sunk); !w.Empty(); {
			h := w.First()
			w = w.AndNot(Cell(h))
			if int(k.shipOf[h]) == s.Sunk {
				k.sunk = k.sunk.Set(h)
			}
		}
		return
	}
	// Only the ship and the cell are known: the sunk cells are those shared
	// by every placement of its length through c made of live hits.
	L := k.g.Fleet[s.Sunk]
	live := k.hits.AndNot(k.sunk)
	common, found := Bits{}, false
	for _, j := range k.g.Covering[L][c] {
		p := k.g.Placements[L][j]
		if p.AndNot(live).Empty() {
			if !found {
				common, found = p, true
			} else {
				common = common.And(p)
			}
		}
	}
	k.sunk = k.sunk.Or(common).Set(c)
}
