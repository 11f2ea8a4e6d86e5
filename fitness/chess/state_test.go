package chess

import (
	"strings"
	"testing"

	lib "github.com/corentings/chess/v2"
)

// playLine plays moves from fen and returns, for each, how the rules
// end the game after it (0: they do not).
func playLine(tb testing.TB, fen string, moves string) []Termination {
	tb.Helper()
	pos, err := ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	g := newGame(pos)
	var out []Termination
	for i, s := range strings.Fields(moves) {
		m, ok := findMove(g.legal, s)
		if !ok {
			tb.Fatalf("move %d %s is not legal in %s", i+1, s, g.pos)
		}
		g.play(&m)
		out = append(out, g.ended())
	}
	return out
}

func TestEnded(t *testing.T) {
	const knights = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
	cases := []struct {
		name, fen, moves string
		want             Termination
		at               int // the ply (from 1) it ends at; 0: it does not
	}{
		// The start position comes back after 4 and 8 plies: the third
		// time is the draw, not the second.
		{"threefold", StartFEN, knights, Threefold, 8},
		{"twofold", StartFEN, knights[:len(knights)-10], 0, 0},
		// After e4 no black pawn can take en passant: the e3 square does
		// not make the position another, so it recurs at plies 5 and 9.
		{"threefold with an idle en-passant square", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
			"e2e4 e8d7 e1f1 d7e8 f1e1 e8d7 e1f1 d7e8 f1e1", Threefold, 9},
		// After e4, dxe3 is legal: that position is another than the same
		// pieces at plies 5 and 9, so the first to come a third time is
		// ply 2's, at ply 10.
		{"en passant makes a position another", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
			"e2e4 e8d7 e1f1 d7e8 f1e1 e8d7 e1f1 d7e8 f1e1 e8d7", Threefold, 10},
		// The start, with its castling rights, is another position than
		// the same squares at plies 4 and 8, without them: the third time
		// is at ply 12.
		{"castling rights count", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
			"h1h2 a8a7 h2h1 a7a8 e1f1 e8d8 f1e1 d8e8 e1f1 e8d8 f1e1 d8e8", Threefold, 12},
		{"fifty moves", "4k3/8/8/8/8/8/4R3/4K3 b - - 98 80", "e8d8 e2d2", FiftyMoves, 2},
		{"a capture resets the count", "4k3/4p3/8/8/8/8/r3P3/4K2R b - - 98 80", "a2e2 e1f1", 0, 0},
		{"mate on the hundredth half-move", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "a1a8", Checkmate, 1},
		{"checkmate", StartFEN, "f2f3 e7e5 g2g4 d8h4", Checkmate, 4},
		{"stalemate", "7k/8/4Q3/6K1/8/8/8/8 w - - 0 1", "e6f7", Stalemate, 1},
		{"insufficient material", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1d2", InsufficientMaterial, 1},
		{"a knight each is enough", "4k3/8/3n4/8/8/8/8/N3K3 w - - 0 1", "a1b3", 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := playLine(t, tc.fen, tc.moves)
			for i, term := range got {
				want := Termination(0)
				if i+1 == tc.at {
					want = tc.want
				}
				if term != want {
					t.Fatalf("after ply %d: %v, want %v", i+1, term, want)
				}
				if want != 0 {
					return
				}
			}
			if tc.at > len(got) {
				t.Fatalf("the line has %d plies; it should end at %d", len(got), tc.at)
			}
		})
	}
}

// TestInsufficientAsTheLibrary checks insufficient against the library's
// own rule, which it applies when it reads a FEN into a Game.
func TestInsufficientAsTheLibrary(t *testing.T) {
	boards := []string{
		"4k3/8/8/8/8/8/8/4K3",     // kings
		"4k3/8/8/8/8/8/8/4KB2",    // a bishop
		"4k3/8/8/8/8/8/8/4KN2",    // a knight
		"4k3/8/8/8/8/8/8/3NKN2",   // two knights: mate is possible
		"4kb2/8/8/8/8/8/8/4KB2",   // bishops on squares of both colours
		"4k1b1/8/8/8/8/8/8/4KB2",  // bishops on light squares
		"4k3/8/8/8/8/8/8/2B1KB2",  // two bishops of one side, both colours
		"2b1k3/8/8/8/8/8/8/4KB2",  // f1 and c8, both light
		"4k3/8/8/8/8/8/8/4KBN1",   // bishop and knight
		"4k3/8/8/8/8/8/P7/4K3",    // a pawn
		"4k3/8/8/8/8/8/8/R3K3",    // a rook
		"3qk3/8/8/8/8/8/8/4K3",    // a queen
		"4k3/8/8/8/8/8/8/4K1n1",   // a black knight
		"b3k3/8/8/8/8/8/8/4K2B",   // a8 and h1, both light
		"4k3/8/8/3b4/8/8/8/B3K3",  // d5 light, a1 dark
		"n3k3/8/8/8/8/8/8/4K2B",   // knight and bishop, opposite sides
		"4k3/8/8/8/8/8/8/2B1K1B1", // c1 dark, g1 dark
	}
	for _, b := range boards {
		fen := b + " w - - 0 1"
		fenMu.Lock()
		opt, err := lib.FEN(fen)
		var g *lib.Game
		if err == nil {
			g = lib.NewGame(opt)
		}
		fenMu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		want := g.Method() == lib.InsufficientMaterial
		if got := insufficient(b); got != want {
			t.Errorf("%s: insufficient %v, the library %v", b, got, want)
		}
	}
}
