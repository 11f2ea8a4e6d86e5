package chess

import (
	"errors"
	"fmt"
	"slices"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess/internal/legal"
)

// Info registers chess.
var Info = fitness.GameInfo{
	Name:    "chess",
	Summary: "chess, refereed by evotune: built-in players and UCI engines, openings from a book or random plies, adjudication as fishtest's",
	Options: optionList(),
	New: func(opts map[string]string) (fitness.Game, error) {
		o, err := ParseOptions(opts)
		if err != nil {
			return nil, err
		}
		g, err := New(o)
		if err != nil {
			return nil, err // not a typed nil inside the interface
		}
		return g, nil
	},
}

// Game is chess under one set of rule options. It is immutable and safe
// for concurrent use.
type Game struct {
	opts  Options
	start string // the start position's FEN, checked
	book  *Book  // nil without one
	// guests are players the game does not hold itself (UCI engines),
	// listed after its own (WithGuests).
	guests fitness.Guests
}

var (
	_ fitness.Game         = (*Game)(nil)
	_ fitness.Perfter      = (*Game)(nil)
	_ fitness.SettingsGame = (*Game)(nil)
	_ fitness.Host         = (*Game)(nil)
	_ fitness.Referee      = (*Game)(nil)
)

// WithGuests returns the game with gs among its players (UCI engines:
// fitness/chess/uci); every guest must play through seats.
func (gm *Game) WithGuests(gs ...fitness.Guest) (fitness.Game, error) {
	all := append(slices.Clone(gm.guests), gs...)
	if err := all.Check("chess", gm.Roles(), gm.own()); err != nil {
		return nil, err
	}
	g := *gm
	g.guests = all
	return &g, nil
}

// New builds a game under o, reading its book.
func New(o Options) (*Game, error) {
	g := &Game{opts: o, start: StartFEN}
	if o.FEN != "" {
		pos, err := ParseFEN(o.FEN)
		if err != nil {
			return nil, fitness.BadOption("fen", fmt.Errorf("chess: fen %q: %w", clip(o.FEN), err))
		}
		g.start = pos.String()
	}
	if o.Book != "" {
		b, err := ReadBook(o.Book, o.BookPlies)
		if err != nil {
			return nil, fitness.BadOption("book", err)
		}
		g.book = b
	}
	return g, nil
}

// NewWithBook builds a game under o with the book b, for a book read
// elsewhere (from memory, by a test); o.Book is ignored.
func NewWithBook(o Options, b *Book) (*Game, error) {
	o.Book = ""
	g, err := New(o)
	if err != nil {
		return nil, err
	}
	g.book = b
	return g, nil
}

// Name is "chess".
func (gm *Game) Name() string { return Info.Name }

// Options are the game's rule options.
func (gm *Game) Options() Options { return gm.opts }

// Book is the game's opening book, nil without one.
func (gm *Game) Book() *Book { return gm.book }

// Roles implements fitness.Game: both sides are movers.
func (gm *Game) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }

// Perft counts the legal move sequences of 1..depth moves from the start
// position (the fen option's, or the standard one), as perft always
// does: only checkmate and stalemate end a line, not the draw rules.
// The last ply is counted in bulk (the number of legal moves).
func (gm *Game) Perft(depth int) []uint64 {
	out := make([]uint64, max(depth, 0))
	if depth < 1 {
		return out
	}
	pos, err := decode(gm.start)
	if err != nil {
		panic(fmt.Sprintf("chess: the checked start position %q does not read: %v", gm.start, err))
	}
	perft(pos, 1, depth, out)
	return out
}

// perft adds to counts[d-1] the positions ply d of pos's subtree holds,
// for d = ply..depth.
func perft(pos *lib.Position, ply, depth int, counts []uint64) {
	moves := legal.Moves(pos)
	counts[ply-1] += uint64(len(moves))
	if ply == depth {
		return
	}
	for i := range moves {
		perft(pos.Update(&moves[i]), ply+1, depth, counts)
	}
}

// openingStream names the stream the opening is drawn from.
const openingStream = 0x6f70656e696e67 // "opening"

// open sets up a game's opening from seed: the book line it draws, then
// its random plies. It returns the game after them and the record begun.
func (gm *Game) open(seed uint64) (*game, Record, error) {
	rng := fitness.NewRand(fitness.Derive(seed, openingStream))
	var rec Record
	fen := gm.start
	var line *bookLine
	if gm.book != nil {
		line = &gm.book.lines[rng.IntN(len(gm.book.lines))]
		fen = line.fen
		rec.Opening.Book, rec.Opening.BookLine = line.num, line.line
	}
	pos, err := decode(fen)
	if err != nil {
		return nil, Record{}, fmt.Errorf("chess: the checked opening %q does not read: %w", fen, err)
	}
	rec.StartFEN = pos.String()
	g := newGame(pos)
	if line != nil {
		for _, s := range line.moves {
			m, ok := findMove(g.legal, s)
			if !ok {
				return nil, Record{}, fmt.Errorf("chess: book line %d: the checked move %s is not legal in %s", line.num, s, g.pos)
			}
			g.play(&m)
			rec.Moves = append(rec.Moves, s)
		}
		rec.Opening.BookPlies = len(line.moves)
	}
	for range gm.opts.RandomPlies {
		s, ok := randomPly(g, rng)
		if !ok {
			break // every move ends the game: the players take it from here
		}
		rec.Moves = append(rec.Moves, s)
		rec.Opening.RandomPlies++
	}
	rec.Opening.Plies = len(rec.Moves)
	return g, rec, nil
}

// randomPly plays on g a legal move drawn from rng that does not end the
// game, and returns it; ok is false when every move ends it. The moves
// are drawn in UCI order, so the draw does not depend on the library's
// order of generation.
func randomPly(g *game, rng interface{ IntN(int) int }) (string, bool) {
	cands := make([]string, len(g.legal))
	for i := range g.legal {
		cands[i] = uci(&g.legal[i])
	}
	slices.Sort(cands)
	for len(cands) > 0 {
		i := rng.IntN(len(cands))
		m, _ := findMove(g.legal, cands[i])
		next := &game{pos: g.pos.Update(&m)}
		next.legal = legal.Moves(next.pos)
		if next.pos.HalfMoveClock() != 0 {
			next.keys = slices.Clone(g.keys)
		}
		next.keys = append(next.keys, next.key())
		if next.ended() == 0 {
			*g = *next
			return cands[i], true
		}
		cands = slices.Delete(cands, i, i+1)
	}
	return "", false
}

var errNoPlayer = errors.New("chess: no such player")
