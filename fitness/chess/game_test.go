package chess

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestOptions: every option is read, and each bad value or pointless
// combination is refused naming its option.
func TestOptions(t *testing.T) {
	cases := []struct {
		name   string
		opts   map[string]string
		option string // the option the refusal names; "" when accepted
		err    string
		check  func(Options) bool
	}{
		{"none", nil, "", "", func(o Options) bool { return o == Options{} }},
		{"fishtest's adjudication", map[string]string{"resign-moves": "3", "resign-score": "600", "draw-from": "34", "draw-moves": "8", "draw-score": "20"}, "", "",
			func(o Options) bool {
				return o.Adjudication == Adjudication{ResignMoves: 3, ResignScore: 600, DrawFrom: 34, DrawMoves: 8, DrawScore: 20}
			}},
		{"two-sided", map[string]string{"resign-moves": "3", "resign-twosided": "true"}, "", "", func(o Options) bool { return o.ResignTwoSided }},
		{"a fen", map[string]string{"fen": kiwipete}, "", "", func(o Options) bool { return o.FEN == kiwipete }},
		{"random plies", map[string]string{"random-plies": " 8 "}, "", "", func(o Options) bool { return o.RandomPlies == 8 }},
		{"max moves at the limit", map[string]string{"max-moves": "100000"}, "", "", func(o Options) bool { return o.MaxMoves == MaxAdjudication }},
		{"book order random", map[string]string{"book-order": "random"}, "", "", nil},
		{"a book with plies", map[string]string{"book": "x.PGN", "book-plies": "8"}, "", "", func(o Options) bool { return o.BookPlies == 8 }},

		{"unknown", map[string]string{"depth": "3"}, "depth", `unknown option "depth"`, nil},
		{"max moves past the limit", map[string]string{"max-moves": "100001"}, "max-moves", "max-moves 100001: want 0 to 100000", nil},
		{"negative plies", map[string]string{"random-plies": "-1"}, "random-plies", "random-plies -1: want 0 to 1000", nil},
		{"random plies past the limit", map[string]string{"random-plies": "1001"}, "random-plies", "want 0 to 1000", nil},
		{"not a number", map[string]string{"resign-moves": "three"}, "resign-moves", "not a whole number", nil},
		{"a score past the limit", map[string]string{"draw-moves": "8", "draw-score": "100001"}, "draw-score", "want 0 to 100000", nil},
		{"a two-sided maybe", map[string]string{"resign-moves": "3", "resign-twosided": "maybe"}, "resign-twosided", "not true or false", nil},
		{"resign score alone", map[string]string{"resign-score": "600"}, "resign-score", "does nothing without resign-moves", nil},
		{"resign score with resign off", map[string]string{"resign-score": "600", "resign-moves": "0"}, "resign-score", "does nothing without resign-moves", nil},
		{"two-sided alone", map[string]string{"resign-twosided": "true"}, "resign-twosided", "does nothing without resign-moves", nil},
		{"draw from alone", map[string]string{"draw-from": "34"}, "draw-from", "does nothing without draw-moves", nil},
		{"draw score alone", map[string]string{"draw-score": "20"}, "draw-score", "does nothing without draw-moves", nil},
		{"book plies alone", map[string]string{"book-plies": "8"}, "book-plies", "does nothing without a .pgn book", nil},
		{"book plies with an EPD book", map[string]string{"book": "x.epd", "book-plies": "8"}, "book-plies", "does nothing without a .pgn book", nil},
		{"sequential", map[string]string{"book-order": "sequential"}, "book-order", "not possible: a game knows only its seed", nil},
		{"another order", map[string]string{"book-order": "shuffled"}, "book-order", "want random", nil},
		{"fen and book", map[string]string{"fen": StartFEN, "book": "x.epd"}, "fen", "give one", nil},
		{"a bad fen", map[string]string{"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "fen", "white has 0 kings", nil},
		{"a finished fen", map[string]string{"fen": "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"}, "fen", "already over", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParseOptions(tc.opts)
			if tc.option == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if tc.check != nil && !tc.check(o) {
					t.Fatalf("read as %+v", o)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			oe, ok := errors.AsType[*fitness.OptionError](err)
			if !ok || oe.Option != tc.option {
				t.Fatalf("the refusal names %v, want option %q", oe, tc.option)
			}
			if !strings.HasPrefix(err.Error(), "chess: ") {
				t.Fatalf("error %q does not start with chess:", err)
			}
		})
	}
}

// TestInfoNew: the registered constructor reads the options and the
// book; a book that cannot be read is refused naming the option.
func TestInfoNew(t *testing.T) {
	g, err := Info.New(map[string]string{"book": "testdata/book.epd"})
	if err != nil {
		t.Fatal(err)
	}
	if b := g.(*Game).Book(); b == nil || b.Len() != 8 || b.Format != "epd" || len(b.Digest) != 64 {
		t.Fatalf("book %+v", b)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, path, err string }{
		{"missing", filepath.Join(dir, "none.epd"), "no such file"},
		{"a directory", dir + "/x.epd", "no such file"},
		{"not regular", "/dev/null/x.pgn", "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Info.New(map[string]string{"book": tc.path})
			oe, ok := errors.AsType[*fitness.OptionError](err)
			if !ok || oe.Option != "book" || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one naming book with %q", err, tc.err)
			}
		})
	}
	if err := os.Mkdir(filepath.Join(dir, "d.epd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Info.New(map[string]string{"book": filepath.Join(dir, "d.epd")}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a directory named like a book: %v", err)
	}
}

// TestBooks: books read as they are written, and a line that does not
// parse is refused with its line.
func TestBooks(t *testing.T) {
	const najdorf = "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq -"
	cases := []struct {
		name, file, text string
		plies            int
		n                int    // openings read
		err              string // "" when it must be read
	}{
		{"epd", "b.epd", najdorf + "\n" + najdorf + " fmvn 6;\n", 0, 2, ""},
		{"crlf and blank lines", "b.epd", "\r\n" + najdorf + "\r\n\r\n   \r\n" + najdorf + " 0 6\r\n", 0, 2, ""},
		{"no end of line", "b.fen", najdorf + " 0 6", 0, 1, ""},
		{"a bad line", "b.epd", najdorf + "\n\n" + "8/8/8/8/8/8/8/8 w - -\n", 0, 0, "line 3: white has 0 kings"},
		{"a line cut short", "b.epd", najdorf + "\n" + "rnbqkb1r/1p2pppp w\n", 0, 0, "line 2: want at least 4 fields"},
		{"empty", "b.epd", "\n \n", 0, 0, "no openings in it"},
		{"another format", "b.txt", najdorf, 0, 0, "want an .epd, .fen or .pgn file"},
		{"pgn", "b.pgn", "[White \"x\"]\n\n1. e4 e5 2. Nf3 *\n\n[White \"y\"]\n\n1. d4 d5 *\n", 0, 2, ""},
		{"pgn without tags", "b.pgn", "1. e4 e5 *\n1. d4 d5 *\n", 0, 2, ""},
		{"pgn with comments and variations", "b.pgn", "1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 *\n", 0, 1, ""},
		{"pgn with a finished line", "b.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n", 0, 0, "game 1 (line 1): ply 4 (d8h4) ends the game (checkmate)"},
		{"pgn with a finished line cut short", "b.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n", 3, 1, ""},
		{"pgn with an illegal move", "b.pgn", "[White \"x\"]\n\n1. e4 e5 *\n\n[White \"y\"]\n\n1. e4 e4 *\n", 0, 0, "game 2 (line 5)"},
		{"pgn with a bad FEN", "b.pgn", "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n", 0, 0, "game 1 (line 1)"},
		{"pgn with a FEN", "b.pgn", "[SetUp \"1\"]\n[FEN \"" + najdorf + " 0 6\"]\n\n6. Be2 e5 *\n", 0, 1, ""},
		{"empty pgn", "b.pgn", "\n", 0, 0, "no openings in it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseBook(tc.file, []byte(tc.text), tc.plies)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if !strings.HasPrefix(err.Error(), "chess: book "+tc.file+": ") {
					t.Fatalf("error %q does not name the book", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Len() != tc.n {
				t.Fatalf("%d openings, want %d", b.Len(), tc.n)
			}
		})
	}
}

func TestBookFiles(t *testing.T) {
	epd, err := ReadBook("testdata/book.epd", 0)
	if err != nil {
		t.Fatal(err)
	}
	if epd.Len() != 8 || epd.lines[3].line != 5 || epd.lines[7].fen != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Fatalf("EPD book: %d openings, the fourth on line %d, the last %q", epd.Len(), epd.lines[3].line, epd.lines[7].fen)
	}
	pgn, err := ReadBook("testdata/book.pgn", 6)
	if err != nil {
		t.Fatal(err)
	}
	if pgn.Len() != 8 || pgn.lines[6].fen != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" || len(pgn.lines[4].moves) != 6 || pgn.lines[2].line != 17 {
		t.Fatalf("PGN book: %+v", pgn.lines)
	}
	whole, err := ReadBook("testdata/book.pgn", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(whole.lines[4].moves); got != 12 {
		t.Fatalf("the French line has %d plies, want 12", got)
	}
}

// TestOpenings: a game's opening is drawn from its seed: the same seed,
// the same opening; every book line is drawn over enough seeds; random
// plies never end the game, even where most moves would.
func TestOpenings(t *testing.T) {
	b, err := ReadBook("testdata/book.pgn", 4)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewWithBook(Options{RandomPlies: 2}, b)
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[int]bool{}
	for seed := range uint64(200) {
		_, rec, err := g.open(seed)
		if err != nil {
			t.Fatal(err)
		}
		_, again, _ := g.open(seed)
		if strings.Join(rec.Moves, " ") != strings.Join(again.Moves, " ") || rec.StartFEN != again.StartFEN {
			t.Fatalf("seed %d: two openings", seed)
		}
		if rec.Opening.Plies != 6 || rec.Opening.BookPlies != 4 || rec.Opening.RandomPlies != 2 {
			t.Fatalf("seed %d: %+v", seed, rec.Opening)
		}
		drawn[rec.Opening.Book] = true
	}
	if len(drawn) != b.Len() {
		t.Fatalf("%d of %d book lines drawn over 200 seeds", len(drawn), b.Len())
	}
	// White to move has a mate in one (Ra8), and stalemates with several
	// king and rook moves: a random ply is neither.
	mates := newGameT(t, Options{FEN: "7k/8/6K1/8/8/8/8/R7 w - - 0 1", RandomPlies: 1})
	for seed := range uint64(300) {
		g, rec, err := mates.open(seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Moves) != 1 || g.ended() != 0 {
			t.Fatalf("seed %d: the random ply %v ends the game (%v)", seed, rec.Moves, g.ended())
		}
	}
}

// TestOpeningStopsShort: where every move ends the game, the random
// plies stop and the players take it from there. White's one legal
// move, Kxb2, leaves the kings alone.
func TestOpeningStopsShort(t *testing.T) {
	g := newGameT(t, Options{FEN: "k7/8/8/8/8/8/1r6/K7 w - - 0 1", RandomPlies: 5})
	_, rec, err := g.open(3)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Opening.RandomPlies != 0 || len(rec.Moves) != 0 {
		t.Fatalf("opening %+v %v: the one move draws by insufficient material", rec.Opening, rec.Moves)
	}
}

// TestPlayers: the roster builds, tiny's values and settings are read,
// and what they do not take is refused.
func TestPlayers(t *testing.T) {
	g := newGameT(t, Options{})
	vals, err := Schema().Defaults().With("knight", genome.Value{Num: 400})
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.NewPlayerSettings(fitness.Mover, "tiny", vals, fitness.Settings{"depth": "2", "nodes": "5000"})
	if err != nil {
		t.Fatal(err)
	}
	tp := p.(*Player)
	if tp.Params().Knight != 400 || tp.depth != 2 || tp.nodes != 5000 {
		t.Fatalf("tiny %+v", tp)
	}
	cases := []struct {
		name, player string
		settings     fitness.Settings
		err          string
	}{
		{"depth 0", "tiny", fitness.Settings{"depth": "0"}, "tiny@depth=0: want 1 to 4"},
		{"depth 5", "tiny", fitness.Settings{"depth": "5"}, "tiny@depth=5: want 1 to 4"},
		{"nodes -1", "tiny", fitness.Settings{"nodes": "-1"}, "tiny@nodes=-1"},
		{"nodes past the cap", "tiny", fitness.Settings{"nodes": "10000001"}, "tiny@nodes=10000001"},
		{"depth not a number", "tiny", fitness.Settings{"depth": "deep"}, "not a whole number"},
		{"random's depth", "random", fitness.Settings{"depth": "2"}, `random has no setting "depth"`},
		{"tiny's time", "tiny", fitness.Settings{"movetime": "100"}, `tiny has no setting "movetime"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := g.NewPlayerSettings(fitness.Mover, tc.player, Schema().Defaults(), tc.settings); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
	for _, depth := range []string{"1", "4"} {
		if _, err := g.NewPlayerSettings(fitness.Mover, "tiny", Schema().Defaults(), fitness.Settings{"depth": depth}); err != nil {
			t.Fatalf("depth %s: %v", depth, err)
		}
	}
	if _, err := g.NewPlayer(fitness.Mover, "stockfish", genome.Values{}); err == nil || !strings.Contains(err.Error(), "uci:NAME") {
		t.Fatalf("an unknown player: %v", err)
	}
	if _, err := g.NewPlayer("placer", "random", genome.Values{}); err == nil {
		t.Fatal("a player in another role")
	}
}

// TestRandomPlayer: random plays every legal move over enough seeds,
// and the same one for the same seed, side and ply.
func TestRandomPlayer(t *testing.T) {
	g := newGameT(t, Options{})
	p, _ := g.NewPlayer(fitness.Mover, "random", genome.Values{})
	pos, _ := ParseFEN(StartFEN)
	seen := map[string]bool{}
	for seed := range uint64(400) {
		s, _ := p.(SeatPlayer).NewSeat(context.Background(), seed, White)
		r, err := s.Move(context.Background(), Position{StartFEN: StartFEN, board: pos})
		if err != nil {
			t.Fatal(err)
		}
		again, _ := s.Move(context.Background(), Position{StartFEN: StartFEN})
		if again.Move != r.Move {
			t.Fatalf("seed %d: %s, then %s from the replayed position", seed, r.Move, again.Move)
		}
		seen[r.Move] = true
	}
	if len(seen) != 20 {
		t.Fatalf("%d of the 20 first moves played over 400 seeds", len(seen))
	}
}

// TestRandomPlyRepetition: a random ply that would repeat a position a
// third time ends the game, so it is never drawn. From X (black to
// move), X comes back after 4 plies, and after 3 more white's a2a1
// would bring it a third time.
func TestRandomPlyRepetition(t *testing.T) {
	for seed := range uint64(100) {
		pos, err := ParseFEN("3k4/8/8/8/8/8/8/R3K3 b - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		g := newGame(pos)
		for _, s := range strings.Fields("d8e8 a1a2 e8d8 a2a1 d8c8 a1a2 c8d8") {
			m, _ := findMove(g.legal, s)
			g.play(&m)
		}
		if g.ended() != 0 {
			t.Fatalf("the line ended the game: %v", g.ended())
		}
		s, ok := randomPly(g, fitness.NewRand(seed))
		if !ok || s == "a2a1" || g.ended() != 0 {
			t.Fatalf("seed %d: random ply %q (%v), then %v", seed, s, ok, g.ended())
		}
	}
}
