package chess

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/internal/fileio"
)

// Book is an opening book: positions (an EPD book, one a line) or lines
// of moves (a PGN book, one a game) that games start from.
type Book struct {
	Name   string // the file as the rules named it
	Format string // "epd" or "pgn"
	// Digest is the SHA-256 of the file's bytes, hex: a run's book is part
	// of its config, and resume must see a changed one.
	Digest string
	lines  []bookLine
}

// bookLine is one opening of a book.
type bookLine struct {
	fen   string   // the position it starts from, checked
	moves []string // a PGN line's first plies, UCI, each legal in turn
	num   int      // EPD: the line's number; PGN: the game's
	line  int      // the file's line where it starts
}

// Len is the number of openings in the book.
func (b *Book) Len() int { return len(b.lines) }

// ReadBook reads the opening book at path (a regular file of at most
// fileio.MaxBook bytes): .epd or .fen files are EPD books, .pgn files
// PGN books, whose lines are cut to their first plies moves (0: all of
// them). An opening that does not parse is refused with its line.
func ReadBook(path string, plies int) (*Book, error) {
	data, err := fileio.ReadFile(path, fileio.MaxBook)
	if err != nil {
		return nil, fmt.Errorf("chess: book %w", err) // fileio names the path
	}
	return ParseBook(path, data, plies)
}

// ParseBook reads a book from its bytes; name's extension says its
// format, as for ReadBook.
func ParseBook(name string, data []byte, plies int) (*Book, error) {
	b := &Book{Name: name}
	sum := sha256.Sum256(data)
	b.Digest = hex.EncodeToString(sum[:])
	var err error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".epd", ".fen":
		b.Format = "epd"
		b.lines, err = parseEPDBook(data)
	case ".pgn":
		b.Format = "pgn"
		b.lines, err = parsePGNBook(data, plies)
	default:
		return nil, fmt.Errorf("chess: book %s: want an .epd, .fen or .pgn file", name)
	}
	if err != nil {
		return nil, fmt.Errorf("chess: book %s: %w", name, err)
	}
	if len(b.lines) == 0 {
		return nil, fmt.Errorf("chess: book %s: no openings in it", name)
	}
	return b, nil
}

// parseEPDBook reads one position a line; blank lines are skipped.
func parseEPDBook(data []byte) ([]bookLine, error) {
	var out []bookLine
	for n, line := range lines(data) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		pos, err := ParseEPD(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, bookLine{fen: pos.String(), num: n, line: n})
	}
	return out, nil
}

// lines yields data's lines and their numbers from 1, without line ends
// (\n or \r\n).
func lines(data []byte) func(yield func(int, string) bool) {
	return func(yield func(int, string) bool) {
		for n := 1; len(data) > 0; n++ {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			if !yield(n, string(bytes.TrimSuffix(line, []byte("\r")))) {
				return
			}
		}
	}
}

// pgnGame is one game's text in a PGN file and the line it starts on.
type pgnGame struct {
	text string
	line int
}

// splitPGN cuts a PGN file into games: a game's tag pairs ([Key "value"]
// lines) start it, and a tag pair after movetext starts the next, as
// does movetext after a result (1-0, 0-1, 1/2-1/2, *).
func splitPGN(data []byte) []pgnGame {
	var out []pgnGame
	var cur strings.Builder
	start, inMoves, done := 0, false, false
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			out = append(out, pgnGame{text: cur.String(), line: start})
		}
		cur.Reset()
		inMoves, done = false, false
	}
	for n, line := range lines(data) {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case strings.HasPrefix(t, "["):
			if inMoves {
				flush()
			}
		default:
			if done {
				flush()
			}
			inMoves = true
			f := strings.Fields(t)
			switch f[len(f)-1] {
			case "1-0", "0-1", "1/2-1/2", "*":
				done = true
			}
		}
		if t != "" && cur.Len() == 0 {
			start = n
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return out
}

// parsePGNBook reads each game's start position and the first plies of
// its main line (0: all of it).
func parsePGNBook(data []byte, plies int) ([]bookLine, error) {
	var out []bookLine
	for i, pg := range splitPGN(data) {
		bl, err := parsePGNGame(pg.text, plies)
		if err != nil {
			return nil, fmt.Errorf("game %d (line %d): %w", i+1, pg.line, err)
		}
		bl.num, bl.line = i+1, pg.line
		out = append(out, bl)
	}
	return out, nil
}

// parsePGNGame reads one game through the library's PGN parser and
// checks its start position and moves with this package's rules: a
// line that ends the game (a mate, or a draw by rule) is no opening.
func parsePGNGame(text string, plies int) (bookLine, error) {
	parsed, err := parsePGN(text)
	if err != nil {
		return bookLine{}, err
	}
	root := parsed.GetRootMove().Position()
	if root == nil {
		return bookLine{}, errors.New("no start position")
	}
	start, err := ParseFEN(root.String())
	if err != nil {
		return bookLine{}, fmt.Errorf("start position %s: %w", root, err)
	}
	bl := bookLine{fen: start.String()}
	g := newGame(start)
	for i, m := range parsed.Moves() {
		if plies > 0 && i == plies {
			break
		}
		s := uci(m)
		mv, ok := findMove(g.legal, s)
		if !ok {
			return bookLine{}, fmt.Errorf("ply %d: %s is not legal in %s", i+1, s, g.pos)
		}
		g.play(&mv)
		if t := g.ended(); t != 0 {
			return bookLine{}, fmt.Errorf("ply %d (%s) ends the game (%v); an opening must leave a game to play (book-plies cuts lines short)", i+1, s, t)
		}
		bl.moves = append(bl.moves, s)
	}
	return bl, nil
}

// parsePGN is the library's parser over one game, made safe: it reads
// FENs (so it holds fenMu), and a panic of it on input it did not
// foresee is that input's error, not the program's end.
func parsePGN(text string) (g *lib.Game, err error) {
	fenMu.Lock()
	defer fenMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("unreadable PGN (the parser failed: %v)", r)
		}
	}()
	tokens, err := lib.TokenizeGame(&lib.GameScanned{Raw: text})
	if err != nil {
		return nil, fmt.Errorf("unreadable PGN: %w", err)
	}
	g, err = lib.NewParser(tokens).Parse()
	if err != nil {
		return nil, fmt.Errorf("unreadable PGN: %w", err)
	}
	return g, nil
}
