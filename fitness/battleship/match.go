package battleship

import (
	"context"
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

// A watcher is a gunner whose shots can take long: the whole-fleet
// posterior's take up to a second each on large fleets, and a game
// minutes. It looks at the game's context while it works and cuts a shot
// short once the context is cancelled; the game is then void.
type watcher interface {
	// watch makes the gunner look at ctx for the rest of its game. It
	// reports whether it will: only then does the game look at ctx after
	// each shot, so games of quick gunners pay nothing.
	watch(ctx context.Context) bool
}

// watch makes gun look at ctx if it is a watcher; it reports whether it
// does.
func watch(gun Gunner, ctx context.Context) bool {
	w, ok := gun.(watcher)
	return ok && w.watch(ctx)
}

// Solo lets shooter s fire at a fleet laid by p until it is sunk and
// returns the number of shots. The result is a pure function of (s, p,
// seed).
func (g *Geometry) Solo(s Shooter, p Placer, seed uint64) int {
	shots, _ := g.SoloContext(context.Background(), s, p, seed)
	return shots
}

// SoloContext is Solo that gives up when ctx is cancelled, returning
// ctx.Err(). Only a shooter whose shots take long (the posterior) looks
// at ctx, within each shot; a quick one plays its game out.
func (g *Geometry) SoloContext(ctx context.Context, s Shooter, p Placer, seed uint64) (int, error) {
	target := g.place(p, seed, 0)
	gun := s.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 0)))
	shots := 0
	if watch(gun, ctx) {
		for target.afloat > 0 {
			c := gun.Fire()
			if err := ctx.Err(); err != nil {
				return 0, err // c may come from a shot cut short; gun is not recycled
			}
			gun.Observe(target.shoot(s.Name(), c))
			shots++
		}
	} else {
		// A loop of its own, without the look: the quickest games take a
		// few hundred nanoseconds a shot.
		for target.afloat > 0 {
			gun.Observe(target.shoot(s.Name(), gun.Fire()))
			shots++
		}
	}
	recycle(gun)
	return shots, nil
}

// HeadToHead plays a against b: both fleets are laid by p, both sides fire
// one shot per round, a first. The first to sink the whole enemy fleet
// wins; if both finish in the same round it is a draw, so moving first is
// no advantage. The outcome is seen from a.
func (g *Geometry) HeadToHead(a, b Shooter, p Placer, seed uint64) fitness.Outcome {
	o, _ := g.HeadToHeadContext(context.Background(), a, b, p, seed)
	return o
}

// HeadToHeadContext is HeadToHead that gives up when ctx is cancelled, as
// SoloContext does.
func (g *Geometry) HeadToHeadContext(ctx context.Context, a, b Shooter, p Placer, seed uint64) (fitness.Outcome, error) {
	fleetA, fleetB := g.place(p, seed, 0), g.place(p, seed, 1)
	gunA := a.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 0)))
	gunB := b.Start(g, fitness.NewRand(fitness.Derive(seed, streamShooter, 1)))
	watchedA := watch(gunA, ctx)
	if watch(gunB, ctx) || watchedA {
		return headToHeadWatched(ctx, a, b, gunA, gunB, fleetA, fleetB)
	}
	for {
		gunA.Observe(fleetB.shoot(a.Name(), gunA.Fire()))
		gunB.Observe(fleetA.shoot(b.Name(), gunB.Fire()))
		if o, over := outcome(fleetA, fleetB); over {
			recycle(gunB)
			recycle(gunA)
			return o, nil
		}
	}
}

// headToHeadWatched is the loop of HeadToHeadContext when a gunner looks
// at ctx: after each shot, which a cancellation may have cut short, it
// looks too, and a cancelled game ends with ctx's error, its guns not
// recycled.
func headToHeadWatched(ctx context.Context, a, b Shooter, gunA, gunB Gunner, fleetA, fleetB *fleet) (fitness.Outcome, error) {
	for {
		c := gunA.Fire()
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		gunA.Observe(fleetB.shoot(a.Name(), c))
		c = gunB.Fire()
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		gunB.Observe(fleetA.shoot(b.Name(), c))
		if o, over := outcome(fleetA, fleetB); over {
			recycle(gunB)
			recycle(gunA)
			return o, nil
		}
	}
}

// outcome reports whether a round of a head-to-head game ended it, and
// how, seen from the side firing at fleetB.
func outcome(fleetA, fleetB *fleet) (fitness.Outcome, bool) {
	switch {
	case fleetA.afloat == 0 && fleetB.afloat == 0:
		return fitness.Draw, true
	case fleetB.afloat == 0:
		return fitness.Win, true
	case fleetA.afloat == 0:
		return fitness.Loss, true
	}
	return 0, false
}
