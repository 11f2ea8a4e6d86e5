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
//	cmd/evotune          main: one line calling cmd/evotune/cli
//	cmd/evotune/cli      the CLI: flags, subcommands, progress, exit codes;
//	                     a Go module with games of its own calls it too
//	natspool             the engine's Pool over the NATS work queue: the
//	                     one package that knows both
//	engine               configs (decode, defaults, checks, then prepare),
//	                     the generation loop, checkpoints, resume, export,
//	                     report, batch descriptions for workers, Inspect
//	                     (a run read from outside), Compare
//	engine/model         the optimisation models, one file and one table
//	                     row each, behind one Ask/Tell interface
//	rundir               the run directory: its files, atomic writes, lock,
//	                     journal
//	natsqueue            the NATS JetStream work queue; knows no game
//	internal/ui          the dashboard (evotune ui): read-only HTTP
//	internal/quality     quality at a fixed budget: models run on a config a
//	                     quarter of the budget at a time, recommendations on
//	                     fresh deals (evotune bench, the quality benchmark)
//	internal/plot        the figures as SVG, for report.svg and the dashboard
//	fitness/catalog      the one list of games; Register adds others
//	fitness/battleship   \
//	fitness/hadron        > games: rules, players, searches
//	fitness/mnk          /
//	fitness/chess        chess refereed by evotune: the seat contract every
//	                     chess player plays through (built-in or a UCI
//	                     engine), the referee, openings, adjudication,
//	                     records and PGN, perft; rules from
//	                     github.com/corentings/chess/v2
//	fitness/chess/tiny   the small search of the built-in player tiny and
//	                     the fixture UCI engine
//	fitness/external     games played by outside programs over the
//	                     player protocol (docs/protocol.md)
//	fitness/chess/uci    UCI engines as chess players: evotune's own UCI
//	                     client, engine definitions, a process pool,
//	                     faults (docs/engines.md)
//	fitness/conformance  the game contract as a test suite
//	fitness              the Game and Player contracts (roles, solo
//	                     measures, errors), seeding, worker-independent
//	                     batches, statistics, the player file (ParamsFile),
//	                     rule options
//	genome               parameter spaces and genomes; knows no game
//	fitness/search       the two-player search hadron and mnk share;
//	                     imports nothing of evotune
//	internal/spsa        SPSA as fishtest runs it, in genome units; imports
//	                     nothing of evotune
//	internal/gp          Gaussian-process regression for the bayes model;
//	                     imports nothing of evotune
//	fitness/stats        paired and pentanomial figures with intervals,
//	                     the sequential tests (SPRT); imports nothing of
//	                     evotune (docs/statistics.md)
//	internal/...         shared pieces: bits128 (the 128-bit cell set of
//	                     the bitboards), yamlcheck (the one YAML checker,
//	                     every problem as file:line: key: message), fileio,
//	                     english, enum, cputime, buildinfo (which build
//	                     runs: version, commit, Go, platform), printable
//	                     (the one escaping of text from programs and the
//	                     network), childproc (a child process in its own
//	                     process group, killed with it); golden and
//	                     ctxtest for tests
//	research/            experiments, run on demand (build tag research)
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
