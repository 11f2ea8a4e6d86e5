// Package engine owns the generation loop: it reads a config, builds the
// parameter space and the fitness settings, evaluates every generation in
// one batch of games, keeps a hall of fame and the history, checkpoints
// every generation atomically, breeds the next generation with eaopt's
// operators, and exports the best parameter sets.
//
// Every random stream is derived from (seed, generation, purpose, index),
// so no generator state is saved and a resumed run is identical to one
// that went straight through, at any worker count.
package engine
