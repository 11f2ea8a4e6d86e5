// Package external plays games in an outside program, written in any
// language, that speaks evotune's player protocol (docs/protocol.md):
// newline-delimited JSON over the stdin and stdout of a long-lived child
// process.
//
// Describe starts the program once and returns what it offers (the game,
// its rule options, roles and players with their parameter schemas);
// Description.Info turns that into a fitness.GameInfo, so the catalog, the
// engine and the CLI take the same path as for a built-in game. The Game
// it builds keeps one child process per concurrent caller, pipelines many
// requests per process (replies are matched by id), kills and restarts a
// program that crashes, hangs or writes garbage and replays its games, and
// can replay a seeded sample of games on processes of their own to check that the
// program is a pure function of (players, seed). Close kills every child
// process group and waits for it, so no process outlives the Game.
//
// The program side for Go bots is the package
// github.com/evotune/evotune/fitness/external/program.
package external
