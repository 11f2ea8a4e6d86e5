package battleship

import (
	"fmt"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/enum"
)

// The parameter names of the tuned shooter.
const (
	tunedExponent  = "exponent"
	tunedHitWeight = "hit_weight"
	tunedWeights   = "weights"
	tunedAvoid     = "tier_avoid"
	tunedPreferred = "tier_preferred"
	tunedCritical  = "tier_critical"
	tunedParity    = "parity"
	tunedJitter    = "jitter"
	tunedModel     = "model"
	tunedSamples   = "samples"
)

// probModel is where the tuned shooter takes its hit probabilities from.
type probModel uint8

const (
	// modelDensity: per-ship placement densities combined as if the ships
	// were independent (seed 001).
	modelDensity probModel = iota
	// modelPosterior: the whole-fleet posterior (posterior.go).
	modelPosterior
)

var probModelNames = [...]string{modelDensity: "density", modelPosterior: "posterior"}

func (m probModel) String() string { return enum.Name(probModelNames[:], m, "probModel") }

func parseProbModel(s string) (probModel, error) {
	if m, ok := enum.Parse[probModel](probModelNames[:], s); ok {
		return m, nil
	}
	return 0, fmt.Errorf("battleship: tuned shooter: model %q: want density or posterior", s)
}

// tunedSchema declares the knobs of the tuned shooter, a density shooter
// (see density.go) whose knobs span the ideas of every seed strategy:
// the placement density and hit weighting of bob and over9000, the weight
// grid of over9000, the avoid/preferred/critical tiers of the Tier List,
// and the parity hunt of Good. Its defaults are over9000's values, with
// which it plays exactly like over9000.
func tunedSchema(r Rules) genome.Schema {
	return genome.Schema{
		{Name: tunedExponent, Kind: genome.Float, Min: 0.25, Max: 4, Log: true, Default: genome.Value{Num: 1},
			Summary: "exponent on the combined hit probability before the multipliers (1 = none)"},
		{Name: tunedHitWeight, Kind: genome.Float, Min: 1, Max: 1000, Log: true, Default: genome.Value{Num: densityHitWeight},
			Summary: "weight factor of a placement per unresolved hit it covers"},
		{Name: tunedWeights, Kind: genome.Grid, Rows: r.H, Cols: r.W, Symmetry: genome.Ring, Min: 0.1, Max: 4,
			Default: genome.Value{Cells: edgeGrid(r.H, r.W, over9000Rings)},
			Summary: "per-cell score multiplier"},
		{Name: tunedAvoid, Kind: genome.Float, Min: 0.1, Max: 10, Log: true, Default: genome.Value{Num: 1},
			Summary: "score multiplier of unfired neighbours of misses (Tier List 'avoid')"},
		{Name: tunedPreferred, Kind: genome.Float, Min: 0.1, Max: 10, Log: true, Default: genome.Value{Num: 1},
			Summary: "score multiplier of unfired neighbours of unresolved hits (Tier List 'preferred')"},
		{Name: tunedCritical, Kind: genome.Float, Min: 0.1, Max: 10, Log: true, Default: genome.Value{Num: 1},
			Summary: "score multiplier of a cell extending two unresolved hits in a line (Tier List 'critical')"},
		{Name: tunedParity, Kind: genome.Float, Min: 0.25, Max: 4, Log: true, Default: genome.Value{Num: 1},
			Summary: "while hunting, score multiplier of the cells with (row+col) % (shortest ship afloat) == 0"},
		{Name: tunedJitter, Kind: genome.Float, Min: 0, Max: 0.25, Default: genome.Value{Num: over9000Jitter},
			Summary: "amplitude of the uniform noise added to every score"},
		// model and samples came after runs of the knobs above existed:
		// opt-in, so that those runs resume and their configs still mean
		// what they meant (see genome.Param.OptIn).
		{Name: tunedModel, Kind: genome.Choice, Choices: probModelNames[:], Default: genome.Value{Str: modelDensity.String()}, OptIn: true,
			Summary: "hit probabilities: density (per ship, as if independent) or posterior (whole fleet, sampled)"},
		{Name: tunedSamples, Kind: genome.Int, Min: 8, Max: 1024, Log: true, Default: genome.Value{Num: posteriorSamples}, OptIn: true,
			Summary: "model posterior: layouts sampled per shot (the sample budget)"},
	}
}

// tunedShooter builds the tuned shooter from values of tunedSchema.
func tunedShooter(g *Geometry, v genome.Values) (*densityShooter, error) {
	grid := v.Grid(tunedWeights)
	if len(grid) != g.Cells {
		return nil, fmt.Errorf("battleship: tuned shooter: %s has %d cells, the %dx%d board %d", tunedWeights, len(grid), g.W, g.H, g.Cells)
	}
	model, err := parseProbModel(v.Choice(tunedModel))
	if err != nil {
		return nil, err
	}
	return newDensityShooter("tuned", g, densityParams{
		Model:     model,
		Samples:   v.Int(tunedSamples),
		UseReveal: true,
		HitWeight: v.Float(tunedHitWeight),
		Exponent:  v.Float(tunedExponent),
		Grid:      grid,
		Avoid:     v.Float(tunedAvoid),
		Preferred: v.Float(tunedPreferred),
		Critical:  v.Float(tunedCritical),
		Parity:    v.Float(tunedParity),
		Jitter:    v.Float(tunedJitter),
	})
}
