// Package evotune documents how the house fits together; the code lives in
// the packages below it.
//
// evotune evolves the parameters of game-playing strategies. A YAML config
// names a game, a parameterised player, the range of each of its knobs, the
// opponents and the evolution settings; `evotune run` evolves them,
// checkpointing every generation, and `evotune export` writes the best
// parameter sets, which `evotune eval` loads and plays.
//
// The house, every package with what it is for and how the packages
// import one another (one way, down: cmd -> engine -> fitness -> genome),
// is mapped once, in docs/architecture.md ("The house"). In short: the
// CLI (cmd/evotune/cli) and its dashboard stand on the readers of a run
// (engine/runs), which stand on the engine (engine: a config prepared
// for a run, the generation loop, checkpoints); the engine stands on the
// config as written (engine/config), the models (engine/model), the
// games (fitness and its packages) and the parameter spaces (genome);
// internal/ holds ground-floor helpers.
//
// The engine and the CLI know games only through the fitness contracts:
// a game declares its roles, its solo measure and its default solo
// opponent, so built-in games, games of other Go modules and outside
// programs take exactly the same path.
//
// Every random stream derives from the run's seed and its position
// (generation, purpose, index), so results do not depend on the number of
// workers or on where a run was stopped and resumed.
//
// README.md is the user's guide and docs/ the rest of the documentation;
// docs/architecture.md is the design. evotune is free software under the
// MIT licence (LICENSE), copyright the evotune authors.
package evotune
