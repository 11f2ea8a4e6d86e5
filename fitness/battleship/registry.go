package battleship

import (
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// registry is the one table of Battleship's players, shooters first.
var registry = []playerDef{
	{name: "random", role: ShooterRole, summary: "fires at a uniformly random unfired cell",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return randomShooter{}, nil }},
	{name: "tierlist", role: ShooterRole, summary: "seed 000: five tiers (explored, avoid, normal, preferred, critical), random in the highest",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return tierListShooter{}, nil }},
	{name: "mediocre", role: ShooterRole, summary: "seed 002: random hunt, then random in the cross up to 4 cells around a hit",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return mediocreShooter{}, nil }},
	{name: "good", role: ShooterRole, summary: "seed 002: parity hunt (step: shortest ship afloat), then cross and line stacks, closest first",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return goodShooter{}, nil }},
	{name: "bob", role: ShooterRole, summary: "seed 001: placement density per ship, hits weighted, 1-prod(1-p); hits and misses only, ignores sunk notices",
		build: func(g *Geometry, _ genome.Values) (fitness.Player, error) { return newBob(g) }},
	{name: "over9000", role: ShooterRole, summary: "seed 001: bob plus sunk ships and ship names, edge-favouring weight grid, small jitter",
		build: func(g *Geometry, _ genome.Values) (fitness.Player, error) { return newOver9000(g) }},
	{name: "tuned", role: ShooterRole, summary: "parameterised density shooter: exponent, hit weight, weight grid, tiers, parity, jitter (defaults = over9000)",
		schema: tunedSchema,
		build:  func(g *Geometry, v genome.Values) (fitness.Player, error) { return newTunedShooter(g, v) }},
	{name: "posterior", role: ShooterRole, summary: "whole-fleet posterior under the random placer's model: sampled layouts, exact once few remain; fires at the likeliest cell",
		schema: posteriorSchema,
		build:  newPosteriorShooter},
	{name: "learner", role: ShooterRole, summary: "tuned plus a memory across a series against one placer: the weight grid shifts toward where it found ships (seed 001)",
		schema: learnerSchema,
		build:  newLearner},
	// shooters: add rows above this line

	{name: "random", role: PlacerRole, summary: "each ship in turn uniform over its legal positions",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return randomPlacer{}, nil }},
	{name: "blockhalf", role: PlacerRole, summary: "seed 002: block a random half of the board, first fit by backtracking, up to 50 tries",
		build: func(*Geometry, genome.Values) (fitness.Player, error) { return blockHalfPlacer{}, nil }},
	{name: "tuned", role: PlacerRole, summary: "parameterised: edge affinity, touching aversion, horizontal bias, temperature",
		schema: tunedPlacerSchema,
		build:  func(g *Geometry, v genome.Values) (fitness.Player, error) { return newTunedPlacer(g, v) }},
	// placers: add rows above this line
}
