package uci_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/genome"
)

func newEngine(t testing.TB, d uci.Definition) *uci.Engine {
	t.Helper()
	e, err := uci.New(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func stockfishDef(t testing.TB) uci.Definition {
	return uci.Definition{
		Name: "sf", Command: []string{realEngine(t, "stockfish")},
		Options: []uci.SetOption{{Name: "Hash", Value: "16"}, {Name: "Threads", Value: "1"}},
		Limit:   uci.Limit{Nodes: 1000},
	}
}

func togaDef(t testing.TB) uci.Definition {
	return uci.Definition{
		Name: "toga", Command: []string{realEngine(t, "toga2")},
		Options: []uci.SetOption{{Name: "OwnBook", Value: "false"}, {Name: "Hash", Value: "16"}},
		Limit:   uci.Limit{Depth: 3},
	}
}

func TestStockfishHandshake(t *testing.T) {
	e := newEngine(t, stockfishDef(t))
	info := e.Info()
	if !strings.HasPrefix(info.Name, "Stockfish") {
		t.Errorf("id name %q", info.Name)
	}
	if len(info.Unparsed) > 0 {
		t.Errorf("unparsed options: %q", info.Unparsed)
	}
	byName := map[string]uci.Option{}
	for _, o := range info.Options {
		byName[o.Name] = o
	}
	for _, tc := range []struct {
		name     string
		typ      uci.OptionType
		def      string
		min, max int64
	}{
		{"Hash", uci.Spin, "16", 1, 33554432},
		{"Skill Level", uci.Spin, "20", 0, 20},
		{"Clear Hash", uci.Button, "", 0, 0},
		{"Ponder", uci.Check, "false", 0, 0},
		{"SyzygyPath", uci.String, "", 0, 0}, // "<empty>"
		{"Debug Log File", uci.String, "", 0, 0},
	} {
		o, ok := byName[tc.name]
		if !ok || o.Type != tc.typ || o.Default != tc.def || o.Min != tc.min || o.Max != tc.max {
			t.Errorf("option %s: %+v, want %v default %q [%d, %d]", tc.name, o, tc.typ, tc.def, tc.min, tc.max)
		}
	}
	s := e.Schema()
	if _, ok := s.Lookup("Skill Level"); !ok {
		t.Error("Skill Level is not a knob")
	}
	for _, n := range []string{"Hash", "Threads", "Clear Hash", "MultiPV", "SyzygyPath"} {
		if _, ok := s.Lookup(n); ok {
			t.Errorf("%s is a knob", n)
		}
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
	if ok, why := e.Deterministic(); !ok {
		t.Errorf("stockfish at nodes 1000, Threads 1: not deterministic: %s", why)
	}
}

func TestTogaHandshake(t *testing.T) {
	e := newEngine(t, togaDef(t))
	info := e.Info()
	if !strings.HasPrefix(info.Name, "Toga II") {
		t.Errorf("id name %q (its banner lines before id must be skipped)", info.Name)
	}
	s := e.Schema()
	for _, tc := range []struct {
		name string
		kind genome.Kind
	}{
		{"Material", genome.Int}, {"King Safety", genome.Int}, {"NullMove Pruning", genome.Choice}, {"History Pruning", genome.Bool},
	} {
		p, ok := s.Lookup(tc.name)
		if !ok || p.Kind != tc.kind || !p.OptIn {
			t.Errorf("knob %s: %+v, want an opt-in %v", tc.name, p, tc.kind)
		}
	}
	if p, _ := s.Lookup("NullMove Pruning"); p != nil && strings.Join(p.Choices, "|") != "Always|Fail High|Never" {
		t.Errorf("NullMove Pruning's choices %q", p.Choices)
	}
	if _, ok := s.Lookup("OwnBook"); ok {
		t.Error("OwnBook is fixed by the definition, yet a knob")
	}
}

// play plays a game of at most plies plies between two seats, without
// the rules: the engines' own moves, until one has none.
func play(t *testing.T, ctx context.Context, a, b chess.SeatPlayer, plies int) []chess.Reply {
	t.Helper()
	var seats [2]chess.Seat
	for i, p := range []chess.SeatPlayer{a, b} {
		s, err := p.NewSeat(ctx, 1, chess.Color(i))
		if err != nil {
			t.Fatal(err)
		}
		defer s.End()
		seats[i] = s
	}
	pos := chess.Position{StartFEN: uci.StartFEN}
	var replies []chess.Reply
	for ply := range plies {
		pos.ToMove = chess.Color(ply % 2)
		r, err := seats[ply%2].Move(ctx, pos)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		replies = append(replies, r)
		if r.Move == "" {
			break
		}
		pos.Moves = append(pos.Moves, r.Move)
	}
	return replies
}

func TestStockfishPlays(t *testing.T) {
	e := newEngine(t, stockfishDef(t))
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs := play(t, context.Background(), p, p, 20)
	for i, r := range rs {
		if r.Nodes < 1 || r.Nodes > 1100 || !r.HasScore || r.Depth < 1 {
			t.Errorf("ply %d: %+v: want nodes up to 1,000, a score and a depth", i, r)
		}
	}
	if n := e.Processes(); n != 2 {
		t.Errorf("%d processes after a game of two seats, want 2 (one per seat)", n)
	}
}

func TestTogaIgnoresGoNodes(t *testing.T) {
	d := togaDef(t)
	d.Limit = uci.Limit{Nodes: 1000}
	e := newEngine(t, d)
	p, err := e.NewPlayer(genome.Values{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.NewSeat(context.Background(), 1, chess.White)
	if err != nil {
		t.Fatal(err)
	}
	defer s.End()
	_, err = s.Move(context.Background(), chess.Position{StartFEN: uci.StartFEN})
	var le *uci.LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "ignores go nodes 1000") {
		t.Fatalf("toga2 at go nodes 1000: %v, want a LimitError", err)
	}
	var fe *fitness.FaultError
	if errors.As(err, &fe) {
		t.Errorf("a limit ignored is a fault (a lost game): %v", err)
	}
	t.Log(err)
}

func TestDeterministic(t *testing.T) {
	sf, toga := stockfishDef(t), togaDef(t)
	tests := []struct {
		name string
		d    uci.Definition
		s    fitness.Settings
		why  string
	}{
		{"stockfish at nodes", sf, nil, ""},
		{"toga at depth", toga, nil, ""},
		{"movetime", sf, fitness.Settings{"movetime": "100"}, "plays at movetime=100: its moves depend on time"},
		{"a clock", sf, fitness.Settings{"tc": "10+0.1"}, "plays at tc=10+0.1: its moves depend on time"},
		{"two threads", withOption(sf, "Threads", "2"), nil, "searches with Threads=2"},
		{"toga's threads", withOption(toga, "Number of Threads", "2"), nil, "searches with Number of Threads=2"},
		{"toga's own book", withoutOption(toga, "OwnBook"), nil, "plays from its own book (OwnBook=true)"},
		{"skill level", withOption(sf, "Skill Level", "19"), nil, "plays at Skill Level 19, below its 20"},
		{"limited strength", withOption(sf, "UCI_LimitStrength", "true"), nil, "UCI_LimitStrength=true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, tc.d)
			p, err := e.NewPlayer(genome.Values{}, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			ok, why := p.Deterministic()
			if ok != (tc.why == "") || !strings.Contains(why, tc.why) {
				t.Errorf("Deterministic() = %v, %q; want %q", ok, why, tc.why)
			}
		})
	}
}

func withOption(d uci.Definition, name, value string) uci.Definition {
	d = withoutOption(d, name)
	d.Options = append(d.Options, uci.SetOption{Name: name, Value: value})
	return d
}

func withoutOption(d uci.Definition, name string) uci.Definition {
	out := []uci.SetOption{}
	for _, o := range d.Options {
		if o.Name != name {
			out = append(out, o)
		}
	}
	d.Options = out
	return d
}
