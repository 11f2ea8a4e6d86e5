package tiny

import (
	"testing"

	"github.com/corentings/chess/v2"
)

// position reads a FEN. The library's FEN reader shares a buffer between
// calls, so the tests of this package never read FENs in parallel.
func position(tb testing.TB, fen string) *chess.Position {
	tb.Helper()
	var pos chess.Position
	if err := pos.UnmarshalText([]byte(fen)); err != nil {
		tb.Fatalf("FEN %q: %v", fen, err)
	}
	return &pos
}

func uci(m chess.Move) string { return chess.UCINotation{}.Encode(nil, &m) }

func same(a, b Result) bool {
	return uci(a.Move) == uci(b.Move) && a.Score == b.Score && a.Nodes == b.Nodes
}

func TestSearchFinds(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		depth int
		p     Params
		want  string // the move it plays
		not   string // a move it must not play
		mate  int
	}{
		{name: "mate in one", fen: "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth: 1,
			p: Defaults(), want: "a1a8", mate: 1},
		{name: "mate in one for black", fen: "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", depth: 2,
			p: Defaults(), want: "a8a1", mate: 1},
		{name: "a hanging queen", fen: "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", depth: 1,
			p: Defaults(), want: "d2d5"},
		// Qxd5 wins a pawn and loses the queen to exd5: quiescence sees it.
		{name: "a defended pawn", fen: "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", depth: 1,
			p: Defaults(), not: "d1d5"},
		// Bxe5 or Bxc5: the values choose.
		{name: "knight over bishop", fen: "4k3/8/8/2b1n3/3B4/8/8/4K3 w - - 0 1", depth: 1,
			p: Params{Pawn: 100, Knight: 400, Bishop: 300, Rook: 500, Queen: 900}, want: "d4e5"},
		{name: "bishop over knight", fen: "4k3/8/8/2b1n3/3B4/8/8/4K3 w - - 0 1", depth: 1,
			p: Params{Pawn: 100, Knight: 300, Bishop: 400, Rook: 500, Queen: 900}, want: "d4c5"},
		{name: "a promotion", fen: "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", depth: 1,
			p: Defaults(), want: "e7e8q"},
		// The rook takes the knight at depth 1 but sees the pawn's
		// recapture: it keeps its rook unless the knight is worth more.
		{name: "a defended knight at a low value", fen: "4k3/8/3p4/4n3/8/8/4R3/4K3 w - - 0 1", depth: 2,
			p: Params{Pawn: 100, Knight: 300, Bishop: 300, Rook: 500, Queen: 900}, not: "e2e5"},
		{name: "a defended knight at a high value", fen: "4k3/8/3p4/4n3/8/8/4R3/4K3 w - - 0 1", depth: 2,
			p: Params{Pawn: 100, Knight: 900, Bishop: 300, Rook: 500, Queen: 900}, want: "e2e5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos := position(t, tc.fen)
			r, ok := Search(pos, tc.p, tc.depth, 0)
			if !ok {
				t.Fatal("no move")
			}
			if got := uci(r.Move); tc.want != "" && got != tc.want || got == tc.not {
				t.Errorf("move %s (score %d), want %q, not %q", got, r.Score, tc.want, tc.not)
			}
			if tc.mate != 0 && r.Score != MateScore-(2*tc.mate-1) {
				t.Errorf("score %d, want %d", r.Score, MateScore-(2*tc.mate-1))
			}
			if r.Mate() != tc.mate {
				t.Errorf("mate %d, want %d", r.Mate(), tc.mate)
			}
			if r.Nodes < 2 {
				t.Errorf("%d nodes", r.Nodes)
			}
		})
	}
}

func TestSearchGameOver(t *testing.T) {
	cases := []struct {
		name, fen string
		score     int
	}{
		{"checkmate", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", -MateScore},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := Search(position(t, tc.fen), Defaults(), 2, 0)
			if ok || r.Score != tc.score || uci(r.Move) != "a1a1" {
				t.Errorf("ok %v, score %d, move %v; want no move and score %d", ok, r.Score, r.Move, tc.score)
			}
		})
	}
}

func TestMated(t *testing.T) {
	// Black's one move is Kb8, and Rh8 mates.
	pos := position(t, "k7/8/1K6/8/8/8/8/7R b - - 0 1")
	r, ok := Search(pos, Defaults(), 2, 0)
	if !ok || r.Score != -(MateScore-2) || r.Mate() != -1 {
		t.Errorf("score %d mate %d, want %d and -1", r.Score, r.Mate(), -(MateScore - 2))
	}
}

// naive is negamax without pruning (minutes in a middlegame: the tests
// give it endgames) or a node cap, with the same
// quiescence (stand pat, captures only): the score alpha-beta must equal.
func naive(pos *chess.Position, p Params, depth, ply int, quiet bool) int {
	legal := pos.ValidMoves()
	if len(legal) == 0 {
		if pos.Status() == chess.Checkmate {
			return -(MateScore - ply)
		}
		return 0
	}
	s := searcher{p: p}
	if depth <= 0 || quiet {
		best := s.evaluate(pos)
		for _, m := range legal {
			if isCapture(&m) {
				best = max(best, -naive(pos.Update(&m), p, 0, ply+1, true))
			}
		}
		return best
	}
	best := -MateScore - 1
	for _, m := range legal {
		best = max(best, -naive(pos.Update(&m), p, depth-1, ply+1, false))
	}
	return best
}

func TestSearchMatchesMinimax(t *testing.T) {
	fens := []string{
		"4k3/8/3p4/4n3/8/8/4R3/4K3 w - - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
		"k7/8/1K6/8/8/8/8/7R b - - 0 1",
		"8/8/8/8/3Pp3/8/8/k3K3 b - d3 0 1",  // en passant
		"8/3P1k2/8/8/8/8/2p5/4K3 w - - 0 1", // promotions
	}
	for _, fen := range fens {
		for depth := 1; depth <= 3; depth++ {
			if depth == 3 && testing.Short() {
				continue
			}
			r, _ := Search(position(t, fen), Defaults(), depth, 0)
			want := naive(position(t, fen), Defaults(), depth, 0, false)
			if r.Score != want {
				t.Errorf("%s depth %d: alpha-beta %d, minimax %d", fen, depth, r.Score, want)
			}
		}
	}
}

func TestSearchDeterministic(t *testing.T) {
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
	a, _ := Search(position(t, fen), Defaults(), 2, 0)
	for range 3 {
		b, _ := Search(position(t, fen), Defaults(), 2, 0)
		if !same(a, b) {
			t.Fatalf("%+v then %+v", a, b)
		}
	}
}

func TestNodeCap(t *testing.T) {
	fen := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	full, _ := Search(position(t, fen), Defaults(), 2, 0)
	for _, limit := range []int64{1, 2, 50, 500} {
		r, ok := Search(position(t, fen), Defaults(), 2, limit)
		if !ok {
			t.Fatal("no move")
		}
		if r.Nodes > limit || r.Nodes >= full.Nodes {
			t.Errorf("cap %d: %d nodes (uncapped %d)", limit, r.Nodes, full.Nodes)
		}
	}
	r, _ := Search(position(t, fen), Defaults(), 2, full.Nodes)
	if !same(r, full) {
		t.Errorf("a cap the search does not reach changed it: %+v, want %+v", r, full)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		p    Params
		ok   bool
	}{
		{"defaults", Defaults(), true},
		{"zero", Params{}, true},
		{"max", Params{MaxValue, MaxValue, MaxValue, MaxValue, MaxValue}, true},
		{"negative pawn", Params{Pawn: -1}, false},
		{"queen over max", Params{Queen: MaxValue + 1}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

func TestEvaluate(t *testing.T) {
	cases := []struct {
		name, fen string
		want      int
	}{
		// d6 pawn: 100, 5 on black's third rank, 10 for a centre pawn
		// there; e5 knight: 320, 10*3 - 15 next to the centre; e2 rook:
		// 500.
		{"black to move", "4k3/8/3p4/4n3/8/8/4R3/4K3 b - - 0 1", (100 + 5 + 10) + (320 + 15) - 500},
		{"white to move", "4k3/8/3p4/4n3/8/8/4R3/4K3 w - - 0 1", 500 - (100 + 5 + 10) - (320 + 15)},
		{"kings alone", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0},
		// a7 pawn about to promote, a rook on the seventh, a rim knight
		{"bonuses", "4k3/P6R/8/8/8/8/8/N3K3 w - - 0 1", (100 + 60) + (500 + 10) + (320 - 15)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Evaluate(position(t, tc.fen), Defaults()); got != tc.want {
				t.Errorf("Evaluate = %d, want %d", got, tc.want)
			}
		})
	}
}

func BenchmarkSearch(b *testing.B) {
	fen := "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
	for _, depth := range []int{1, 2} {
		b.Run("depth"+string(rune('0'+depth)), func(b *testing.B) {
			var nodes int64
			for b.Loop() {
				r, _ := Search(position(b, fen), Defaults(), depth, 0)
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
