// Package mnk is the tic-tac-toe family for evotune: m,n,k-games, in which
// X and O take turns to mark an empty cell of an m-wide, n-high board and
// the first to get k or more in a row (across, down or diagonally) wins. A
// full board without a line is a draw. 3,3,3 is tic-tac-toe; 9,9,5 is
// free-style gomoku on a small board.
//
// The gravity rule makes them drop-the-chip games: a move names a column
// and the chip falls to the lowest empty cell of it. 3,3,3 with gravity is
// the game of seed 003, 7,6,4 with gravity is Connect Four. Every player
// and count works under both rules; under gravity the tuned player also
// prices threats (cells that would complete a line): those playable now,
// and those waiting for their column to fill, by owner and row parity.
//
// Small boards can be solved, large ones cannot, and the players reflect
// both: perfect plays exact minimax, while classic and tuned play a bounded
// alpha-beta search over an evaluation of open and half-open runs, tuned
// with weights that evotune evolves.
//
// The package is laid out one job to a file:
//
//	rules.go     Rules, Limits and the rule options
//	geom.go      board layout, line and threat detection on bitboards
//	position.go  a position, making and taking back moves
//	perft.go     perft and the full game-tree count (TreeCount)
//	perft64.go   the one-word perft with bulk counting, for boards of 64 bits
//	game.go      Info, Game: players, Play, Perft
//	players.go   the player table, random and greedy
//	perfect.go   the exact solver
//	weights.go   the tuned schema and the classic weights
//	eval.go      the incremental run evaluation
//	search.go    classic and tuned as a position of the shared search
//	             (fitness/search): wins, forced blocks, candidates, order
package mnk
