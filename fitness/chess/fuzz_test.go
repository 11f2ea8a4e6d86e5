package chess

import (
	"os"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/chess/internal/legal"
)

// FuzzParseEPD: a book line is read or refused, never a panic; a line
// read is a position FEN writes and reads back the same.
func FuzzParseEPD(f *testing.F) {
	data, err := os.ReadFile("testdata/book.epd")
	if err != nil {
		f.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		f.Add(line)
	}
	f.Add(kiwipete)
	f.Add(`4k3/8/8/8/8/8/4R3/4K3 b - - id "a;b"; hmvc 3; fmvn 9;`)
	f.Add(`8/8/8/8/8/8/8/8 w - - c0 "unterminated`)
	f.Fuzz(func(t *testing.T, line string) {
		pos, err := ParseEPD(line)
		if err != nil {
			return
		}
		again, err := ParseFEN(pos.String())
		if err != nil {
			t.Fatalf("%q read as %s, which ParseFEN refuses: %v", line, pos, err)
		}
		if again.String() != pos.String() {
			t.Fatalf("%s read back as %s", pos, again)
		}
		if len(legal.Moves(pos)) == 0 {
			t.Fatalf("%s: a position without a move was accepted", pos)
		}
	})
}

// FuzzParsePGNBook: a PGN book is read or refused, never a panic; every
// line read replays from its position.
func FuzzParsePGNBook(f *testing.F) {
	data, err := os.ReadFile("testdata/book.pgn")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, uint8(0))
	f.Add(data, uint8(3))
	f.Add([]byte("1. e4 {a} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 *\n"), uint8(0))
	f.Add([]byte("[FEN \"4k3/8/8/8/8/8/4R3/4K3 b - - 0 1\"]\n\n1... Kd8 *\n"), uint8(0))
	f.Add([]byte("1. f3 e5 2. g4 Qh4# 0-1\n"), uint8(2))
	f.Add([]byte("[Event \"x\n\n1. e4 e5 2. O-O-O *"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, plies uint8) {
		b, err := ParseBook("f.pgn", data, int(plies))
		if err != nil {
			return
		}
		for _, l := range b.lines {
			if plies > 0 && len(l.moves) > int(plies) {
				t.Fatalf("line %d has %d plies, more than %d", l.num, len(l.moves), plies)
			}
			if _, err := Replay(l.fen, l.moves); err != nil {
				t.Fatalf("line %d does not replay: %v", l.num, err)
			}
		}
	})
}

// FuzzFENOption: the fen rule option is read or refused, never a panic;
// a game built from it counts its moves.
func FuzzFENOption(f *testing.F) {
	for _, fen := range []string{StartFEN, kiwipete, perft3, perft4, perft5, "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "8/8/8/8/8/8/8/8 w - - 0 1"} {
		f.Add(fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		g, err := Info.New(map[string]string{"fen": fen})
		if err != nil {
			return
		}
		if counts := g.(*Game).Perft(1); counts[0] == 0 {
			t.Fatalf("fen %q accepted with no legal move", fen)
		}
	})
}
