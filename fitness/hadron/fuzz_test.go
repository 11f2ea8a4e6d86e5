package hadron

import (
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// FuzzGame plays games on random sizes with random weights and budgets:
// they must never panic, must end within size*size moves with a legal
// record, and the incremental board state must match a rebuild from the
// stones after every move.
func FuzzGame(f *testing.F) {
	f.Add(uint64(1), uint8(9), uint8(2), uint16(0), 1.0, 0.0, 0.5, 0.5, uint8(10), 1.0)
	f.Add(uint64(7), uint8(3), uint8(5), uint16(40), -1.0, 1.0, -0.3, 0.2, uint8(0), 100.0)
	f.Add(uint64(42), uint8(11), uint8(1), uint16(1), 0.0, 0.0, 0.0, 0.0, uint8(121), 0.0)
	f.Fuzz(func(t *testing.T, seed uint64, size, depth uint8, nodes uint16, w1e, w2e, w1l, w2l float64, tcut uint8, jitter float64) {
		n := MinSize + int(size)%(MaxSize-MinSize+1)
		g, err := New(Options{Size: n, Depth: 1 + int(depth)%3, Nodes: int64(nodes)})
		if err != nil {
			t.Fatal(err)
		}
		vals := Schema(n).Defaults()
		for _, kv := range []struct {
			name string
			x    float64
		}{{ParamW1Early, w1e}, {ParamW2Early, w2e}, {ParamW1Late, w1l}, {ParamW2Late, w2l}, {ParamT, float64(int(tcut) % (n*n + 1))}, {ParamJitter, jitter}} {
			if v, err := vals.With(kv.name, genome.Value{Num: kv.x}); err == nil {
				vals = v // out-of-range values are refused; keep the default
			}
		}
		tuned := newPlayer(t, g, "tuned", vals)
		for _, opp := range []string{"random", "greedy", "aenigma"} {
			p := newPlayer(t, g, opp, genome.Values{})
			for _, pair := range [][2]fitness.Player{{tuned, p}, {p, tuned}} {
				r := record(t, g, pair[0], pair[1], seed)
				if len(r.Moves) > n*n {
					t.Fatalf("%d moves on %dx%d", len(r.Moves), n, n)
				}
				checkIncremental(t, r)
			}
		}
	})
}

// checkIncremental replays a record and compares the board after every
// move with one rebuilt from scratch.
func checkIncremental(t *testing.T, r Record) {
	b := mustBoard(t, r.Size)
	for _, m := range r.Moves {
		if err := b.Play(m); err != nil {
			t.Fatalf("%v: %v", r, err)
		}
		fresh := *b
		fresh.reset()
		if fresh != *b {
			t.Fatalf("incremental state after %v differs from a rebuild:\n%v", m, b)
		}
	}
	if b.Winner() != r.Winner {
		t.Fatalf("%v: winner %v on replay", r, b.Winner())
	}
}

// FuzzParseBoard feeds arbitrary text to the board parser: an error or a
// board, never a panic, and a board that round-trips through String.
func FuzzParseBoard(f *testing.F) {
	f.Add("W . .\n. B .\n. . .")
	f.Add("to-move: black\n  1 2 3\nA . W .\nB . . .\nC . . .")
	f.Add("....\n.WB.\n....\n....")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseBoard(text)
		if err != nil {
			return
		}
		again, err := ParseBoard(b.String())
		if err != nil || *again != *b {
			t.Fatalf("%q parses to\n%v\nwhich reads back as %v (%v)", text, b, again, err)
		}
		_ = b.Features()
		_ = b.Perft(2)
	})
}
