package battleship

import (
	"math/rand/v2"

	"github.com/evotune/evotune/fitness"
)

// Shot is what a shooter learns from one shot. Which fields are filled
// depends on the rules' Reveal.
type Shot struct {
	Cell int
	Hit  bool
	Ship int // the ship hit, under RevealShip only; otherwise -1
	Sunk int // the ship this shot sank, under RevealSunk and RevealShip; otherwise -1
}

// A Shooter is a firing strategy with its parameters fixed. It is
// immutable and safe for concurrent use; Start makes the state of one game.
type Shooter interface {
	fitness.Player
	// Start returns a gunner for one game on g; every random choice it
	// makes must come from rng.
	Start(g *Geometry, rng *rand.Rand) Gunner
}

// A Gunner is one shooter's state in one game.
type Gunner interface {
	// Fire returns the next cell to shoot: in the board, never shot before.
	Fire() int
	// Observe is told the result of the shot just fired.
	Observe(s Shot)
}

// recycler is a Gunner whose memory can serve its shooter's next game.
type recycler interface{ recycle() }

// recycle gives g's memory back to its shooter once its game is over:
// nothing may use g afterwards.
func recycle(g Gunner) {
	if r, ok := g.(recycler); ok {
		r.recycle()
	}
}

// A Placer lays out a fleet. It is immutable and safe for concurrent use.
type Placer interface {
	fitness.Player
	// Place returns a legal layout of g's fleet; every random choice must
	// come from rng.
	Place(g *Geometry, rng *rand.Rand) Layout
}
