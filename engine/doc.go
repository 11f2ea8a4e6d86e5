// Package engine runs a tuning job. Prepare builds what a config
// (package config, the job as written) needs for a run, a worker or a
// reader of a run (For): the game, each species' space and baselines,
// the outside program, the config resolved for its game: a Setup. Start
// and Resume play a Setup's generations: every generation's games in
// batches through a Pool, a hall of fame, the models of package model
// told the results and asked for the next genomes, a checkpoint every
// generation written atomically with the files derived from it
// (generations.csv, best.yaml, report.svg), the best re-measured on
// fresh deals at the end. ReadRun is how a reader reads a run: the
// checkpoint, and its config prepared for a reader, which starts no
// program (package runs reads runs so).
//
// Every random stream is derived from (seed, generation, purpose, index),
// so no generator state is saved and a resumed run is identical to one
// that went straight through, at any worker count.
package engine
