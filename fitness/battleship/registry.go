package battleship

import (
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// registry is the one table of Battleship's players, shooters first.
var registry = []playerDef{
	{name: "random", role: fitness.Shooter, summary: "fires at a uniformly random unfired cell",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return randomShooter{}, nil }},
	// shooters: add rows above this line

	{name: "random", role: fitness.Placer, summary: "each ship in turn uniform over its legal positions",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return randomPlacer{}, nil }},
	// placers: add rows above this line
}
