package battleship

import (
	"fmt"
	"math/rand/v2"
)

// randomShooter fires at a uniformly random unfired cell.
type randomShooter struct{}

func (randomShooter) Name() string { return "random" }

func (randomShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	return &randomGunner{left: g.All, rng: rng}
}

type randomGunner struct {
	left Bits
	rng  *rand.Rand
}

func (r *randomGunner) Fire() int {
	c := r.left.Nth(r.rng.IntN(r.left.Count()))
	r.left = r.left.AndNot(Cell(c))
	return c
}

func (r *randomGunner) Observe(Shot) {}

// randomPlacer places each ship in turn uniformly over its legal positions
// given the ships already placed.
type randomPlacer struct{}

func (randomPlacer) Name() string { return "random" }

func (randomPlacer) Place(g *Geometry, rng *rand.Rand) Layout {
	return placeUniform(g, rng)
}

// placeUniform is the random placer's algorithm; other placers fall back
// on it. A dead end (no room for the next ship) restarts the layout; with
// the fleet at most half the board that is rare, and the bound only
// guards against rule sets with no layout at all.
func placeUniform(g *Geometry, rng *rand.Rand) Layout {
	ships := make([]Bits, len(g.Fleet))
	var buf [2 * MaxCells]int32 // on the stack: a game used to allocate it
	legal := buf[:0]
	for range 10000 {
		var occupied Bits
		ok := true
		for i, L := range g.Fleet {
			legal = legal[:0]
			for j, p := range g.Placements[L] {
				if !p.Meets(occupied) {
					legal = append(legal, int32(j))
				}
			}
			if len(legal) == 0 {
				ok = false
				break
			}
			ships[i] = g.Placements[L][legal[rng.IntN(len(legal))]]
			occupied = occupied.Or(ships[i])
		}
		if ok {
			return Layout{Ships: ships}
		}
	}
	panic(fmt.Sprintf("battleship: no layout of fleet %v found on %dx%d", g.Fleet, g.W, g.H))
}
