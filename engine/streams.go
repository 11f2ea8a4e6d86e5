package engine

import (
	mrand "math/rand"
	"math/rand/v2"

	"github.com/evotune/evotune/fitness"
)

// Purposes name the random streams of a run. Every stream is
// fitness.Derive(seed, generation, purpose, index...), so nothing about a
// generator has to be saved for a resumed run to draw the same numbers.
const (
	purposeInit       uint64 = iota + 1 // random genomes of generation 0
	purposeBreed                        // eaopt's population RNG
	purposeFresh                        // natural selection's fresh genomes
	purposeBaselines                    // deals of baseline games
	purposePairing                      // who meets whom in population games
	purposePopulation                   // deals of population games
	purposeHallOfFame                   // deals of hall-of-fame games
	purposeRemeasure                    // fresh deals of the end-of-run remeasure of the best
	purposeCMAES                        // CMA-ES's samples, one stream for the whole run
	purposeVerdict                      // the second fresh deals, on which the recommended player is measured
)

func (r *runner) stream(gen int, purpose uint64, index ...uint64) uint64 {
	return fitness.Derive(r.cfg.Seed, append([]uint64{uint64(gen), purpose}, index...)...)
}

// pcgSource adapts a math/rand/v2 PCG to the math/rand.Source64 eaopt
// needs.
type pcgSource struct{ *rand.PCG }

func (s pcgSource) Int63() int64 { return int64(s.Uint64() >> 1) }

// Seed is never called by eaopt; reseeding would break derivation.
func (s pcgSource) Seed(int64) { panic("engine: eaopt generator must not be reseeded") }

func newEaoptRand(seed uint64) *mrand.Rand {
	return mrand.New(pcgSource{rand.NewPCG(seed, fitness.Mix(seed))})
}

// v2From draws a math/rand/v2 generator from an eaopt one, for genome's
// operators, deterministically.
func v2From(rng *mrand.Rand) *rand.Rand {
	return rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
}
