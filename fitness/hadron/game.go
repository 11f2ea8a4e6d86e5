package hadron

import (
	"context"
	"fmt"
	"strings"

	"github.com/evotune/evotune/fitness"
)

// Options are Hadron's rule options. The search limits are rules, not
// knobs: every searching player of a game gets the same budget, so tuning
// compares heuristics, not effort.
type Options struct {
	Size  int   // board side, MinSize..MaxSize; 0 means 9
	Depth int   // search depth in plies, at least 1; 0 means 4
	Nodes int64 // node budget per move, 0 for none; the depth still caps the search
}

// The limits of the search options. Each is far beyond what finishes in
// reasonable time; they exist so that no config can ask for a search that
// never ends (a depth of 10^8) or overflows the transposition table's
// depth field.
const (
	MaxDepth = 16            // plies
	MaxNodes = 1_000_000_000 // nodes per move
)

// DefaultOptions are the tournament board and a depth-4 search.
func DefaultOptions() Options { return Options{Size: 9, Depth: 4} }

// options are Hadron's rule options, as `evotune games` lists them.
var options = []fitness.Option{
	{Name: "size", Default: "9", Summary: fmt.Sprintf("board side, %d to %d", MinSize, MaxSize)},
	{Name: "depth", Default: "4", Summary: fmt.Sprintf("alpha-beta search depth in plies, 1 to %d", MaxDepth)},
	{Name: "nodes", Default: "0", Summary: fmt.Sprintf("node budget per move of the searching players, 0 for none, at most %d", MaxNodes)},
}

// Info registers Hadron with the game registry.
var Info = fitness.GameInfo{
	Name:    "hadron",
	Summary: "place stones on cells whose neighbours hold as many white as black stones; no move, you lose",
	Options: options,
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

// ParseOptions reads rule options as the user wrote them. Every unknown
// name and bad value is reported, in name order.
func ParseOptions(opts map[string]string) (Options, error) {
	o := DefaultOptions()
	err := fitness.ReadOptions("hadron", options, opts, func(name, value string) error {
		x, err := fitness.OptionInt("hadron", name, value)
		if err != nil {
			return err
		}
		switch name {
		case "size":
			o.Size = int(x)
			return checkSize(o.Size)
		case "depth":
			o.Depth = int(min(max(x, 0), MaxDepth+1)) // no wrap-around on 32-bit ints
			return checkDepth(x)
		default: // nodes
			o.Nodes = x
			return checkNodes(x)
		}
	})
	return o, err
}

// Game is Hadron under one set of rule options. It is immutable and safe
// for concurrent use.
type Game struct {
	opts Options
	geom *geom
}

var (
	_ fitness.Game    = (*Game)(nil)
	_ fitness.Perfter = (*Game)(nil)
)

// New builds a game; zero fields of o take their defaults.
func New(o Options) (*Game, error) {
	if o.Size == 0 {
		o.Size = DefaultOptions().Size
	}
	if o.Depth == 0 {
		o.Depth = DefaultOptions().Depth
	}
	if err := checkSize(o.Size); err != nil {
		return nil, err
	}
	if err := checkDepth(int64(o.Depth)); err != nil {
		return nil, err
	}
	if err := checkNodes(o.Nodes); err != nil {
		return nil, err
	}
	// Deeper than the number of cells searches nothing more.
	o.Depth = min(o.Depth, o.Size*o.Size)
	return &Game{opts: o, geom: geoms[o.Size]}, nil
}

// Name is "hadron".
func (g *Game) Name() string { return Info.Name }

// Options are the game's rule options, defaults filled in.
func (g *Game) Options() Options { return g.opts }

// Perft returns the perft counts from the empty board for depths
// 1..depth.
func (g *Game) Perft(depth int) []uint64 {
	out := make([]uint64, 0, max(depth, 0))
	b := newBoard(g.geom)
	for d := 1; d <= depth; d++ {
		out = append(out, b.Perft(d))
	}
	return out
}

// Record is a finished game.
type Record struct {
	Size   int
	Moves  []Cell // in order, White's first
	Winner Color
	Nodes  int64 // search nodes both players visited, a machine-independent cost
}

// String writes the moves in tournament notation and the winner:
// "E5 D5 ... (white wins)".
func (r Record) String() string {
	var sb strings.Builder
	for _, m := range r.Moves {
		sb.WriteString(m.String())
		sb.WriteByte(' ')
	}
	fmt.Fprintf(&sb, "(%v wins)", r.Winner)
	return sb.String()
}

// Play plays one game, a as White (moving first), b as Black, and returns
// a's outcome. Hadron has no draws. Both players must come from this
// package's NewPlayer; anything else is an error. A game cancelled
// through ctx stops within a few thousand search nodes and returns
// ctx.Err(), never an outcome.
func (g *Game) Play(ctx context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	r, err := g.PlayRecordContext(ctx, a, b, seed)
	if err != nil {
		return 0, err
	}
	if r.Winner == White {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}

// PlayRecord plays a game as Play does and returns its moves. Each seat's
// random choices come from its own stream of seed, so the game is a pure
// function of (a, b, seed).
func (g *Game) PlayRecord(a, b fitness.Player, seed uint64) (Record, error) {
	return g.PlayRecordContext(context.Background(), a, b, seed)
}

// PlayRecordContext is PlayRecord that gives up when ctx is cancelled, as
// Play does; the moves of a game cut short are not returned.
func (g *Game) PlayRecordContext(ctx context.Context, a, b fitness.Player, seed uint64) (Record, error) {
	var seats [2]mover
	for k, p := range []fitness.Player{a, b} {
		hp, ok := p.(*Player)
		if !ok || hp == nil {
			return Record{}, fmt.Errorf("hadron: player %T is not a hadron player", p)
		}
		seats[k] = g.newMover(hp, fitness.Derive(seed, uint64(k)))
		defer seats[k].release()
	}
	board := newBoard(g.geom)
	r := Record{Size: g.opts.Size}
	for !board.Over() {
		i, err := seats[board.toMove.side()].next(ctx, &board)
		if err != nil {
			return Record{}, err
		}
		r.Moves = append(r.Moves, board.cell(i))
		board.place(i)
	}
	r.Winner = board.Winner()
	for _, s := range seats {
		if s, ok := s.(*searcher); ok {
			r.Nodes += s.total
		}
	}
	return r, nil
}

func checkDepth(d int64) error {
	if d < 1 || d > MaxDepth {
		return fmt.Errorf("hadron: depth %d: must be from 1 to %d", d, MaxDepth)
	}
	return nil
}

func checkNodes(n int64) error {
	if n < 0 || n > MaxNodes {
		return fmt.Errorf("hadron: nodes %d: must be 0 (no budget) to %d", n, MaxNodes)
	}
	return nil
}
