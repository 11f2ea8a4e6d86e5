package battleship

// densityHitWeight is the factor by which bob and over9000 weight up a
// placement for each unresolved hit it covers. Chosen by measurement
// against random placement on the classic rules (see the report of
// issue 2); with an integral value every placement count stays an exact
// integer.
const densityHitWeight = 20

// newBob returns bob (seed 001): for each ship, count its placements that
// cover no miss, weighting those that cover hits by densityHitWeight per
// hit; combine ships as P = 1 - prod(1 - p); fire at the unfired cell of
// highest P, ties to the lowest cell. Bob uses hits and misses only: it
// ignores sunk notices and ship names, so every ship always stays in the
// count and the hits of sunk ships keep counting as hits. It has no
// weight grid and no jitter, so it is deterministic.
func newBob(g *Geometry) (*densityShooter, error) {
	return newDensityShooter("bob", g, densityParams{
		UseReveal: false,
		HitWeight: densityHitWeight,
		Exponent:  1,
		Avoid:     1, Preferred: 1, Critical: 1,
		Parity: 1,
	})
}
