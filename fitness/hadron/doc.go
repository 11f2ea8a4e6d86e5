// Package hadron is the game Hadron as played in the 2022/2023 AI
// tournament of the University of Calabria, with the players evotune tunes
// and measures against.
//
// # Rules
//
// A square board, 9x9 unless the size option says otherwise (MinSize to
// MaxSize). White moves first; the players alternate placing one stone of
// their colour on an empty cell whose orthogonal neighbours hold as many
// white as black stones (0-0, 1-1 or 2-2; off the board counts as
// nothing). Both sides therefore have the same legal cells. There is no
// passing: the side to move with no legal cell loses, so there are no
// draws. Cells are written as in the tournament, row letter then column
// number: A1 top left, I9 bottom right on 9x9.
//
// The opening option starts every game with that many plies drawn at
// random from a stream of the match seed, never one that leaves the next
// player without a move; both games of a seat-swapped pair share it, so
// players meet in varied positions rather than replaying the game that
// starts from the empty board.
//
// # Board
//
// Board keeps the stones in 128-bit bitboards (two words, cell = row*size
// + col) and the legal cells incrementally: every cell carries its
// white-minus-black neighbour balance, and a move updates at most four.
// Board.Perft counts move sequences; its last two plies are counted in
// bulk with shifts and popcounts, so 9x9 perft(5) takes tens of
// milliseconds.
//
// # Heuristic
//
// Aenigma's heuristic (the tournament winner's), in its published weak
// form: a legal cell R is a special move when an orthogonal neighbour P of
// R is empty, not legal, and every other neighbour of P is occupied by a
// stone or "no longer unlockable", which the write-up (section 1.3) checks
// at the first level only: an empty neighbour that is not legal now counts
// as settled, with no look at chains of moves that could unlock it. So P's
// only legal neighbour is R, and whoever plays R settles P, as far as the
// first level can tell. P's balance is one stone off zero (a balance of
// two or more stays unplayable whoever plays R), so the colour P leans to
// keeps it dead by playing R and the other colour unlocks it. R belongs to
// that leaning colour (to both, if it guards cells leaning both ways). Then
//
//	hSpecialMoves = specials owned by the side to move - those of its opponent
//	hParity       = +1 if the non-special legal cells are odd in number, else -1
//	score         = Unit*(w1*hSpecialMoves + w2*hParity) + Jitter*U(-1,1)
//
// with (w1, w2) switching from the early to the late pair once fewer than
// T legal cells remain. A position with no legal cell is lost for the side
// to move, scored beyond any heuristic value.
//
// # Scale
//
// Scores are in points. A heuristic term at weight 1 is worth Unit = 100
// points: one special move, or the parity bonus. Jitter is in points too,
// so Aenigma's jitter of 1 is a one-point tie-breaker, small next to a
// special move: the reading of issue 4, "jitter 1 on the ±100 scale the
// original uses". The write-up itself only says a Random(0,1) is added to
// the heuristic. Its U(0,1) is 0.5 + 0.5*U(-1,1), and a constant changes no
// decision, so a draw of width 1 in the original's units is Jitter = 0.5
// per unit of its scale; were its terms unscaled (a special move worth 1),
// that is Jitter = 50 here. The tuned player's jitter ranges over [0, 100]
// and so covers both readings.
//
// The jitter is not drawn from a stream but hashed from the position and
// the seat's seed (derived from the match seed): a position scores the same
// each time the search meets it, so the transposition table and iterative
// deepening stay consistent, and a game is a pure function of its seed.
//
// # The tuned evaluation
//
// The tuned player adds, to Aenigma's terms, opt-in terms of its own in
// the same two phases: mobility (the legal cells), regions (the
// node-Kayles nimbers of the regions of non-special legal cells: regions.go),
// unlocks (cells one stone off balance that each side can bring into
// play) and the specials' lead (the sign of hSpecialMoves), each weighted
// by a knob whose zero switches it off; and tied_parity, which counts
// parity only where the specials tie. Every one is off by default, so
// the default tuned player is Aenigma, game for game.
// docs/games/hadron-evaluation.md gives the design and the measurements.
//
// # Search
//
// Negamax alpha-beta with iterative deepening, a transposition table
// (per player per game, recycled through a pool and cleared before use)
// and move ordering (table move, then two killers per ply): the shared
// search of fitness/search, with this package's searcher as its position. It is bounded
// by the depth rule option and optionally by a node budget per move
// (nodes), never by time; a searching player may have its own (the
// settings depth and nodes: aenigma@depth=5). When the budget runs out
// the last completed iteration decides.
//
// # Players
//
//	random   a uniformly random legal cell
//	greedy   one ply: the cell that leaves the opponent fewest legal cells,
//	         ties broken by the seat's random stream
//	aenigma  the search with Aenigma's published weights (w1=1, w2=0 early;
//	         w1=w2=0.5 once fewer than t=10 legal cells remain; jitter 1)
//	tuned    the same search with the knobs of Schema: w1_early,
//	         w2_early, w1_late, w2_late, t, jitter, and the opt-in
//	         terms above; its defaults are Aenigma's, so the default
//	         tuned player plays as aenigma
package hadron
