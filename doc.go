// Package evotune documents how the house fits together; the code lives in
// the packages below it.
//
// evotune evolves the parameters of game-playing strategies. A YAML config
// names a game, a parameterised player, the range of each of its knobs, the
// opponents and the evolution settings; `evotune run` evolves them,
// checkpointing every generation, and `evotune export` writes the best
// parameter sets, which `evotune eval` loads and plays.
//
// Imports point one way, down:
//
//	cmd/evotune          the CLI: flags, subcommands, progress, exit codes
//	engine               config, generation loop on eaopt's operators,
//	                     checkpoints, resume, export, report
//	fitness/catalog      the one list of games
//	fitness/battleship   \
//	fitness/hadron        > games: rules, players, searches
//	fitness/mnk          /
//	fitness              the Game and Player contracts, seeding,
//	                     worker-independent batches, statistics
//	genome               parameter spaces and genomes; knows no game
//	fitness/search       the two-player search hadron and mnk share;
//	                     imports nothing of evotune
//	internal/cputime     thread CPU time for the benchmarks (tests only)
//
// Every random stream derives from the run's seed and its position
// (generation, purpose, index), so results do not depend on the number of
// workers or on where a run was stopped and resumed.
package evotune
