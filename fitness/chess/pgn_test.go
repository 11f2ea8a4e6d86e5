package chess

import (
	"context"
	"flag"
	"strings"
	"testing"

	lib "github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// pgnGames are games whose PGN is pinned: a mate, an adjudicated game of
// the built-in players from a book with random plies, a game from a FEN
// ended by an illegal move.
func pgnGames(tb testing.TB) map[string]Record {
	tb.Helper()
	out := map[string]Record{}
	g := newGameT(tb, Options{})
	rec, err := g.PlayRecord(context.Background(), newScripted("white", foolsMate...), newScripted("black", foolsMate...), 1)
	if err != nil {
		tb.Fatal(err)
	}
	out["foolsmate"] = rec

	b, err := ReadBook("testdata/book.pgn", 4)
	if err != nil {
		tb.Fatal(err)
	}
	g, err = NewWithBook(Options{RandomPlies: 2, Adjudication: Adjudication{ResignMoves: 2, ResignScore: 300, MaxMoves: 40}}, b)
	if err != nil {
		tb.Fatal(err)
	}
	tiny, _ := g.NewPlayer(fitness.Mover, "tiny", Schema().Defaults())
	random, _ := g.NewPlayer(fitness.Mover, "random", Schema().Defaults())
	rec, err = g.PlayRecord(context.Background(), random, tiny, 12)
	if err != nil {
		tb.Fatal(err)
	}
	out["book"] = rec

	g = newGameT(tb, Options{FEN: kiwipete})
	line := []string{"e2a6", "b4c3", "e1e3"}
	rec, err = g.PlayRecord(context.Background(), newScripted("uci:dev", line...), newScripted("tiny", line...), 1)
	if err != nil {
		tb.Fatal(err)
	}
	out["illegal"] = rec
	return out
}

func TestPGNGolden(t *testing.T) {
	for name, rec := range pgnGames(t) {
		t.Run(name, func(t *testing.T) {
			pgn, err := rec.PGN(Tag{"Round", "3"}, Tag{"Seed", "12"}, Tag{"Knobs", `pawn=100 name="x\y"`})
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/game-"+name+".pgn", pgn, *update)
		})
	}
}

// TestPGNReplays: the library's own PGN reader reads every game back to
// the same moves and the same result.
func TestPGNReplays(t *testing.T) {
	for name, rec := range pgnGames(t) {
		t.Run(name, func(t *testing.T) {
			pgn, err := rec.PGN(Tag{"Opening", "book line 3"})
			if err != nil {
				t.Fatal(err)
			}
			g, err := parsePGN(pgn)
			if err != nil {
				t.Fatalf("%v\n%s", err, pgn)
			}
			var moves []string
			for _, m := range g.Moves() {
				moves = append(moves, uci(m))
			}
			if strings.Join(moves, " ") != strings.Join(rec.Moves, " ") {
				t.Fatalf("read back %v, want %v", moves, rec.Moves)
			}
			if got := g.GetTagPair("Result"); got != rec.Result() {
				t.Fatalf("result %q, want %q", got, rec.Result())
			}
			if got := g.GetTagPair("Opening"); got != "book line 3" {
				t.Fatalf("Opening %q", got)
			}
			if rec.StartFEN != StartFEN && g.GetTagPair("FEN") != rec.StartFEN {
				t.Fatalf("FEN %q, want %q", g.GetTagPair("FEN"), rec.StartFEN)
			}
			if g.Outcome() != lib.Outcome(rec.Result()) {
				t.Fatalf("outcome %q", g.Outcome())
			}
		})
	}
}

func TestPGNTags(t *testing.T) {
	rec := pgnGames(t)["foolsmate"]
	for _, name := range []string{"", "has space", "_lead", "x]", `q"`, strings.Repeat("a", 256)} {
		if _, err := rec.PGN(Tag{name, "v"}); err == nil || !strings.Contains(err.Error(), "PGN tag name") {
			t.Errorf("tag name %q: %v", name, err)
		}
	}
	pgn, err := rec.PGN(Tag{"White", "new\nline \"quoted\" back\\slash"}, Tag{"Event", "tune 7"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[White "new line \"quoted\" back\\slash"]`, `[Event "tune 7"]`, `[Black "black"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("no %s in\n%s", want, pgn)
		}
	}
	if strings.Count(pgn, "[White ") != 1 || strings.Count(pgn, "[Event ") != 1 {
		t.Errorf("a roster tag written twice:\n%s", pgn)
	}
	for _, line := range strings.Split(pgn, "\n") {
		if len(line) > 79 && !strings.HasPrefix(line, "[") {
			t.Errorf("a movetext line of %d characters: %q", len(line), line)
		}
	}
}

// TestPGNLeavesTimeOut: two plays of one game that differ only in the
// time the moves took write the same PGN.
func TestPGNLeavesTimeOut(t *testing.T) {
	rec := pgnGames(t)["book"]
	slow := rec
	slow.Replies = append([]Reply(nil), rec.Replies...)
	for i := range slow.Replies {
		slow.Replies[i].Elapsed += 37
	}
	a, errA := rec.PGN()
	b, errB := slow.PGN()
	if errA != nil || errB != nil || a != b {
		t.Fatalf("the time changed the PGN:\n%s\n%s", a, b)
	}
}
