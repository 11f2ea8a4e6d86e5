package battleship

import (
	"fmt"

	"github.com/evotune/evotune/fitness"
)

// Random streams of a match, derived from its seed, so that seat i's fleet
// is the same whoever sits there (common random numbers for swapped pairs).
const (
	streamFleet uint64 = iota + 1
	streamShooter
)

// fleet is one side's ships under fire.
type fleet struct {
	g      *Geometry
	ships  []Bits
	left   []Bits // cells of each ship not yet hit
	afloat int
	fired  Bits
}

func newFleet(g *Geometry, l Layout) *fleet {
	f := &fleet{g: g, ships: l.Ships, left: make([]Bits, len(l.Ships)), afloat: len(l.Ships)}
	copy(f.left, l.Ships)
	return f
}

// shoot resolves a shot at cell c. A shooter firing off the board or twice
// at a cell breaks the Gunner contract: that is a bug in the shooter, not
// bad input, so it panics with the shooter's name.
func (f *fleet) shoot(name string, c int) Shot {
	if c < 0 || c >= f.g.Cells || f.fired.Has(c) {
		panic(fmt.Sprintf("battleship: shooter %s fired at cell %d (board %d cells, already fired: %v)",
			name, c, f.g.Cells, c >= 0 && c < f.g.Cells && f.fired.Has(c)))
	}
	f.fired = f.fired.Set(c)
	s := Shot{Cell: c, Ship: -1, Sunk: -1}
	for i := range f.ships {
		if !f.ships[i].Has(c) {
			continue
		}
		s.Hit = true
		f.left[i] = f.left[i].AndNot(Cell(c))
		if f.g.Reveal == RevealShip {
			s.Ship = i
		}
		if f.left[i].Empty() {
			f.afloat--
			if f.g.Reveal != RevealHitsOnly {
				s.Sunk = i
			}
		}
		break
	}
	return s
}

func (g *Geometry) place(p Placer, seed uint64, seat uint64) *fleet {
	l := p.Place(g, fitness.NewRand(fitness.Derive(seed, streamFleet, seat)))
	if err := g.Check(l); err != nil {
		panic(fmt.Sprintf("battleship: placer %s: %v", p.Name(), err))
	}
	return newFleet(g, l)
}

// Solo lets shooter s fire at a fleet laid by p until it is sunk and
// returns the number of shots. The result is a pure function of (s, p,
// seed).
func (g *Geometry) Solo(s Shooter, p Placer, seed uint64) int {
	target := g.place(p, seed, 0)
	gun := s.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 0)))
	shots := 0
	for target.afloat > 0 {
		gun.Observe(target.shoot(s.Name(), gun.Fire()))
		shots++
	}
	recycle(gun)
	return shots
}

// HeadToHead plays a against b: both fleets are laid by p, both sides fire
// one shot per round, a first. The first to sink the whole enemy fleet
// wins; if both finish in the same round it is a draw, so moving first is
// no advantage. The outcome is seen from a.
func (g *Geometry) HeadToHead(a, b Shooter, p Placer, seed uint64) fitness.Outcome {
	fleetA, fleetB := g.place(p, seed, 0), g.place(p, seed, 1)
	gunA := a.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 0)))
	gunB := b.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 1)))
	defer recycle(gunA)
	defer recycle(gunB)
	for {
		gunA.Observe(fleetB.shoot(a.Name(), gunA.Fire()))
		gunB.Observe(fleetA.shoot(b.Name(), gunB.Fire()))
		switch {
		case fleetA.afloat == 0 && fleetB.afloat == 0:
			return fitness.Draw
		case fleetB.afloat == 0:
			return fitness.Win
		case fleetA.afloat == 0:
			return fitness.Loss
		}
	}
}
