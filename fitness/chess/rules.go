package chess

import (
	"errors"
	"fmt"
	"strings"

	"github.com/evotune/evotune/fitness"
)

// Options are chess's rule options: where games start and how they are
// adjudicated. The players' own limits (tiny's depth) are their
// settings, not rules.
type Options struct {
	// FEN is the position every game starts from (before the random
	// plies); "" is the standard one. Perft counts from it.
	FEN string
	// Book is an opening book file (.epd, .fen or .pgn); "" for none. A
	// game starts from one of its openings, drawn from the game's seed.
	Book string
	// BookPlies cuts a PGN book's lines to their first BookPlies moves;
	// 0 plays each line whole. Only for a PGN book.
	BookPlies int
	// RandomPlies are random legal moves drawn from the seed and played
	// after the start position (or the book's opening), never one that
	// ends the game.
	RandomPlies int
	Adjudication
}

// The limits of the options: far beyond any use, there so that no
// config asks for what cannot end or overflows.
const (
	MaxOpeningPlies = 1000    // book-plies and random-plies
	MaxAdjudication = 100_000 // resign-moves, draw-from, draw-moves, max-moves
	MaxScore        = 100_000 // resign-score and draw-score, in centipawns
)

// option is one rule option: its declaration and how it is read.
type option struct {
	fitness.Option
	set func(o *Options, name, value string) error
}

// options is the one table of rule options, in the order `evotune games`
// lists them.
var options = []option{
	{fitness.Option{Name: "fen", Default: "", Summary: "the start position of every game and of perft, as a FEN (default: the standard start); not with book"},
		func(o *Options, _, v string) error { o.FEN = strings.TrimSpace(v); return nil }},
	{fitness.Option{Name: "book", Default: "", File: true, Summary: "an opening book, .epd or .fen (a position a line) or .pgn (a line of moves a game), read when the game is built; each game starts from an opening drawn from its seed"},
		func(o *Options, _, v string) error { o.Book = strings.TrimSpace(v); return nil }},
	{fitness.Option{Name: "book-plies", Default: "0", Summary: fmt.Sprintf("a PGN book line's first N moves (plies), 0 for all of it, at most %d; only with a .pgn book", MaxOpeningPlies)},
		intOption(func(o *Options) *int { return &o.BookPlies }, MaxOpeningPlies)},
	{fitness.Option{Name: "book-order", Default: "random", Summary: "random: the opening is drawn from the game's seed, the same for both games of a seat-swapped pair; sequential is not possible, since a game knows its seed, not its place in a run"},
		func(o *Options, _, v string) error {
			switch strings.TrimSpace(v) {
			case "random":
				return nil
			case "sequential":
				return errors.New("chess: book-order sequential: not possible: a game knows only its seed, not its place in a run, so each opening is drawn from the seed (book-order random)")
			}
			return fmt.Errorf("chess: book-order %q: want random", v)
		}},
	{fitness.Option{Name: "random-plies", Default: "0", Summary: fmt.Sprintf("N random legal moves drawn from the seed after the start (or the book's opening), never one that ends the game, 0 to %d", MaxOpeningPlies)},
		intOption(func(o *Options) *int { return &o.RandomPlies }, MaxOpeningPlies)},
	{fitness.Option{Name: "max-moves", Default: "0", Summary: fmt.Sprintf("a draw once the players have made N moves each (the opening not counted), 0 for none, at most %d", MaxAdjudication)},
		intOption(func(o *Options) *int { return &o.MaxMoves }, MaxAdjudication)},
	{fitness.Option{Name: "resign-moves", Default: "0", Summary: fmt.Sprintf("resign adjudication: a side loses after N moves in a row with its own score at most -resign-score (or mated), 0 for none, at most %d", MaxAdjudication)},
		intOption(func(o *Options) *int { return &o.ResignMoves }, MaxAdjudication)},
	{fitness.Option{Name: "resign-score", Default: "0", Summary: fmt.Sprintf("the resign threshold in centipawns, 0 to %d (fishtest: 600 over 3 moves)", MaxScore)},
		intOption(func(o *Options) *int { return &o.ResignScore }, MaxScore)},
	{fitness.Option{Name: "resign-twosided", Default: "false", Summary: "true: resign only when the opponent's own score agrees (at least +resign-score on its last resign-moves moves)"},
		func(o *Options, _, v string) error {
			b, err := fitness.OptionBool("chess", "resign-twosided", v)
			o.ResignTwoSided = b
			return err
		}},
	{fitness.Option{Name: "draw-from", Default: "0", Summary: fmt.Sprintf("draw adjudication starts once this many full moves are played (by the position's move number), 0 to %d (fishtest: 34)", MaxAdjudication)},
		intOption(func(o *Options) *int { return &o.DrawFrom }, MaxAdjudication)},
	{fitness.Option{Name: "draw-moves", Default: "0", Summary: fmt.Sprintf("draw adjudication: a draw after N moves of each side in a row scored within draw-score of zero, 0 for none, at most %d (fishtest: 8)", MaxAdjudication)},
		intOption(func(o *Options) *int { return &o.DrawMoves }, MaxAdjudication)},
	{fitness.Option{Name: "draw-score", Default: "0", Summary: fmt.Sprintf("the draw threshold in centipawns, 0 to %d (fishtest: 20)", MaxScore)},
		intOption(func(o *Options) *int { return &o.DrawScore }, MaxScore)},
}

// intOption reads a whole number from 0 to most into the field at.
func intOption(at func(*Options) *int, most int) func(*Options, string, string) error {
	return func(o *Options, name, v string) error {
		x, err := readInt(name, v, most)
		*at(o) = x
		return err
	}
}

// optionList is the rule options as GameInfo lists them.
func optionList() []fitness.Option {
	out := make([]fitness.Option, len(options))
	for i, o := range options {
		out[i] = o.Option
	}
	return out
}

// ParseOptions reads rule options as the user wrote them. Every unknown
// name and bad value is reported, in name order, each naming its option;
// so are options that need another (resign-score without resign-moves,
// book-plies without a PGN book, fen with a book). The book is not read
// here: New reads it.
func ParseOptions(opts map[string]string) (Options, error) {
	var o Options
	err := fitness.ReadOptions("chess", optionList(), opts, func(name, value string) error {
		for _, opt := range options {
			if opt.Name == name {
				return opt.set(&o, name, value)
			}
		}
		return nil
	})
	has := func(name string) bool { _, ok := opts[name]; return ok }
	var errs []error
	pointless := func(name, why string) {
		if has(name) {
			errs = append(errs, fitness.BadOption(name, fmt.Errorf("chess: %s does nothing %s", name, why)))
		}
	}
	if o.ResignMoves == 0 {
		pointless("resign-score", "without resign-moves (the moves in a row that resign a game)")
		pointless("resign-twosided", "without resign-moves (the moves in a row that resign a game)")
	}
	if o.DrawMoves == 0 {
		pointless("draw-from", "without draw-moves (the moves in a row that draw a game)")
		pointless("draw-score", "without draw-moves (the moves in a row that draw a game)")
	}
	if !strings.EqualFold(extension(o.Book), ".pgn") {
		pointless("book-plies", "without a .pgn book: it cuts a PGN book's lines; an EPD book's openings are positions")
	}
	if o.FEN != "" && o.Book != "" {
		errs = append(errs, fitness.BadOption("fen", errors.New("chess: fen and book: give one; a book's openings have their own positions")))
	}
	if o.FEN != "" {
		if _, ferr := ParseFEN(o.FEN); ferr != nil {
			errs = append(errs, fitness.BadOption("fen", fmt.Errorf("chess: fen %q: %w", clip(o.FEN), ferr)))
		}
	}
	return o, errors.Join(err, errors.Join(errs...))
}

func extension(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}

// readInt reads a rule option's whole number from 0 to most.
func readInt(name, value string, most int) (int, error) {
	x, err := fitness.OptionInt("chess", name, value)
	if err != nil {
		return 0, err
	}
	if x < 0 || x > int64(most) {
		return 0, fmt.Errorf("chess: %s %d: want 0 to %d", name, x, most)
	}
	return int(x), nil
}
