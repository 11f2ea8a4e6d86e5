package hadron

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// position is a hand-drawn board from testdata/positions (see its README).
type position struct {
	board        *Board
	white, black []Cell // the drawn special moves
	legal        int
	parity       int
	// oldRule is how many cells the superseded reading of the special
	// move ("R is P's only empty neighbour") finds; -1 when the file does
	// not say, meaning as many as the published reading.
	oldRule int
}

func loadPosition(tb testing.TB, path string) position {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	p := position{oldRule: -1}
	var drawing []string
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		var err error
		switch {
		case ok && k == "legal":
			p.legal, err = strconv.Atoi(strings.TrimSpace(v))
		case ok && k == "parity":
			p.parity, err = strconv.Atoi(strings.TrimSpace(v))
		case ok && k == "old-rule":
			p.oldRule, err = strconv.Atoi(strings.TrimSpace(v))
		default:
			drawing = append(drawing, line)
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
	}
	b, marks, err := parseBoard(strings.Join(drawing, "\n"), "wb*")
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	p.board = b
	p.white = sorted(append(marks['w'], marks['*']...))
	p.black = sorted(append(marks['b'], marks['*']...))
	return p
}

func sorted(cs []Cell) []Cell {
	slices.SortFunc(cs, func(a, b Cell) int { return (a.Row-b.Row)*100 + a.Col - b.Col })
	return cs
}

func TestHandDrawnPositions(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "positions", "*.txt"))
	if err != nil || len(files) < 11 {
		t.Fatalf("want at least 11 positions, found %d (%v)", len(files), err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			p := loadPosition(t, path)
			b := p.board
			w, k := b.SpecialCells()
			if !slices.Equal(w, p.white) || !slices.Equal(k, p.black) {
				t.Errorf("specials white %v black %v, drawn white %v black %v\n%v", w, k, p.white, p.black, b)
			}
			f := b.Features()
			special := len(slices.Compact(sorted(append(slices.Clone(p.white), p.black...))))
			wantF := Features{Legal: p.legal, SpecialWhite: len(p.white), SpecialBlack: len(p.black), NonSpecial: p.legal - special}
			if f != wantF {
				t.Errorf("features %+v, want %+v", f, wantF)
			}
			if f.Parity() != p.parity {
				t.Errorf("parity %+d, want %+d", f.Parity(), p.parity)
			}
			if b.Over() != (p.legal == 0) {
				t.Errorf("Over() = %v with %d legal cells", b.Over(), p.legal)
			}
			// The drawing must agree with the definition applied cell by cell.
			nw, nk := naiveOf(b).specials()
			if !slices.Equal(nw, p.white) || !slices.Equal(nk, p.black) {
				t.Errorf("naive specials white %v black %v, drawn white %v black %v", nw, nk, p.white, p.black)
			}
			// The positions that tell the two readings apart say how many
			// special cells the old one finds; the rest must agree.
			ow, ok := naiveOf(b).oldSpecials()
			old := len(slices.Compact(sorted(append(ow, ok...))))
			want := special
			if p.oldRule >= 0 {
				want = p.oldRule
			}
			if old != want {
				t.Errorf("the only-empty-neighbour reading finds %d special cells (white %v black %v), want %d", old, ow, ok, want)
			}
			checkEval(t, b)
		})
	}
}

// checkEval isolates each term of the evaluation with one-hot weights.
func checkEval(t *testing.T, b *Board) {
	t.Helper()
	if b.Over() {
		return
	}
	f := b.Features()
	for _, tc := range []struct {
		name string
		w    Weights
		want float64
	}{
		{"specials early", Weights{W1Early: 1, T: 0}, Unit * float64(f.Specials(b.ToMove()))},
		{"parity early", Weights{W2Early: 1, T: 0}, Unit * float64(f.Parity())},
		{"specials late", Weights{W1Late: 1, T: f.Legal + 1}, Unit * float64(f.Specials(b.ToMove()))},
		{"parity late", Weights{W2Late: 0.5, T: f.Legal + 1}, Unit * 0.5 * float64(f.Parity())},
		{"threshold not reached", Weights{W1Late: 1, W2Late: 1, T: f.Legal}, 0},
	} {
		s := searcher{b: *b, w: tc.w}
		if got := s.eval(); got != tc.want {
			t.Errorf("%s: eval = %v, want %v", tc.name, got, tc.want)
		}
	}
	s := searcher{b: *b, w: Weights{Jitter: 3}, salt: 7}
	v := s.eval()
	if v < -3 || v >= 3 || v == 0 {
		t.Errorf("jitter 3 alone: eval = %v, want in [-3, 3) and not 0", v)
	}
	// The noise is a function of the position and the salt alone: the
	// same position rebuilt from its text draws the same, another salt
	// (another seat or match) draws another.
	again, err := ParseBoard(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if same := (&searcher{b: *again, w: Weights{Jitter: 3}, salt: 7}).eval(); same != v {
		t.Errorf("jitter on the same position rebuilt: %v, then %v", v, same)
	}
	if other := (&searcher{b: *b, w: Weights{Jitter: 3}, salt: 8}).eval(); other == v {
		t.Errorf("salts 7 and 8 draw the same jitter %v", v)
	}
}

// TestSpecialsMatchDefinition compares the bitboard specials with the
// cell-by-cell definition on positions from random games.
func TestSpecialsMatchDefinition(t *testing.T) {
	for _, size := range []int{3, 5, 8, 9, 11} {
		rng := fitness.NewRand(uint64(size) * 77)
		for game := range 20 {
			b := mustBoard(t, size)
			for !b.Over() {
				nw, nk := naiveOf(b).specials()
				w, k := b.SpecialCells()
				if !slices.Equal(w, nw) || !slices.Equal(k, nk) {
					t.Fatalf("%dx%d game %d: specials white %v black %v, definition says %v %v\n%v",
						size, size, game, w, k, nw, nk, b)
				}
				legal := b.Legal()
				if err := b.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
