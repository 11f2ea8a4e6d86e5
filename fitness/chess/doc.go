// Package chess is chess for evotune, refereed by evotune: the rules come
// from github.com/corentings/chess/v2 (legal moves, check, mate,
// stalemate, FEN, PGN), and this package holds the game together around
// them: the referee that asks each side's seat for its moves and checks
// them, the draw rules a match runner applies at once (threefold
// repetition, the fifty-move rule, insufficient material), openings
// (EPD and PGN books, random plies), adjudication as fishtest's match
// runners do it, the record of a game and its PGN, perft, and the
// built-in players random and tiny.
//
// # Seats
//
// Every player plays through seats (Seat, SeatPlayer): the referee opens
// one per side for each game, tells it the game so far as a UCI engine
// is told it (a start position and the moves since) and takes a move in
// UCI notation with what the player said of it (a score, a depth, nodes,
// the time it took). An illegal or missing move, and a seat's
// *fitness.FaultError (a crashed or stalled engine, a move past the
// clock), is that side's loss, recorded with its kind; any other error
// stops the run. The built-in players and UCI engines (fitness/chess/uci)
// are alike to the referee.
//
// # Openings
//
// A game's opening is a function of its seed alone, so both games of a
// seat-swapped pair start from it with the colours swapped: a book line
// drawn from the seed (book), then random legal moves drawn from it
// (random-plies), never one that ends the game. The players see the
// opening's moves as moves of the game.
//
// # Files
//
//	seat.go        the seat contract: Position, Reply, Seat, SeatPlayer, clocks
//	position.go    FEN and EPD read and checked, UCI moves, Replay
//	state.go       a game in progress: draws by repetition, fifty moves, material
//	book.go        EPD and PGN books
//	rules.go       the rule options
//	adjudicate.go  resign, draw and max-moves adjudication
//	referee.go     Play and PlayRecord: the referee loop, Record, Termination
//	pgn.go         a Record's PGN
//	game.go        Info, Game, openings, perft
//	players.go     the built-in players random and tiny (fitness/chess/tiny)
//
// Tablebases are out of scope: no game is adjudicated by one.
package chess
