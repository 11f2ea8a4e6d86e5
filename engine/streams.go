package engine

import (
	"github.com/evotune/evotune/engine/model"
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
	purposeModel                        // the model's own draws (CMA-ES's samples, one stream for the whole run)
	purposeVerdict                      // the second fresh deals, on which the recommended player is measured
	purposeRecord                       // which games' records (PGNs) a run keeps: Derive(game seed, 0, purposeRecord)
	purposeAudit                        // which engine games the audit replays: Derive(game seed, 0, purposeAudit)
)

// stream is the seed of a random stream of the run: its generation,
// purpose and index.
func (s *Setup) stream(gen int, purpose uint64, index ...uint64) uint64 {
	return fitness.Derive(s.cfg.Seed, append([]uint64{uint64(gen), purpose}, index...)...)
}

// modelStreams are species sp's streams, as its model draws them.
func (s *Setup) modelStreams(sp *species) model.Streams {
	of := func(purpose uint64) model.Stream {
		return func(gen int, index ...uint64) uint64 { return s.stream(gen, sp.offset+purpose, index...) }
	}
	return model.Streams{Init: of(purposeInit), Breed: of(purposeBreed), Fresh: of(purposeFresh), Own: of(purposeModel)}
}
