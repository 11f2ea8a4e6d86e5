//go:build research

// Package optimal is an experiment, not a player: how much could any
// Battleship shooter gain over greedy firing on the exact posterior? On
// boards small enough, the optimal policy against the random placer can
// be computed exactly (dynamic programming over what the shooter has
// seen, as Audinot, Bonnet and Viennot did for Battleship in 2014) and
// set beside greedy firing, greedy hunting with ships finished by search,
// and the bare density kernel. It runs on demand (research/README.md):
//
//	go test -tags research ./research/battleship/optimal -v
package optimal
