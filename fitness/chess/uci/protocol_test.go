package uci

import (
	"strings"
	"testing"
)

func TestParseOption(t *testing.T) {
	tests := []struct {
		name, line string
		want       Option
		err        string
	}{
		{"spin", "option name Hash type spin default 16 min 1 max 33554432",
			Option{Name: "Hash", Type: Spin, Default: "16", Def: 16, Min: 1, Max: 33554432}, ""},
		{"name with spaces", "option name Skill Level type spin default 20 min 0 max 20",
			Option{Name: "Skill Level", Type: Spin, Default: "20", Def: 20, Max: 20}, ""},
		{"tabs and runs of spaces", "option\tname  King Safety \t type spin default 100 min 0 max 400",
			Option{Name: "King Safety", Type: Spin, Default: "100", Def: 100, Max: 400}, ""},
		{"negative range", "option name Contempt type spin default -10 min -100 max 100",
			Option{Name: "Contempt", Type: Spin, Default: "-10", Def: -10, Min: -100, Max: 100}, ""},
		{"check", "option name Ponder type check default false", Option{Name: "Ponder", Type: Check, Default: "false"}, ""},
		{"check default in capitals", "option name OwnBook type check default True", Option{Name: "OwnBook", Type: Check, Default: "true"}, ""},
		{"combo", "option name NullMove Pruning type combo default Always var Always var Fail High var Never",
			Option{Name: "NullMove Pruning", Type: Combo, Default: "Always", Vars: []string{"Always", "Fail High", "Never"}}, ""},
		{"string empty", "option name SyzygyPath type string default <empty>", Option{Name: "SyzygyPath", Type: String}, ""},
		{"string no default", "option name Debug Log File type string default", Option{Name: "Debug Log File", Type: String}, ""},
		{"string with spaces", "option name Path type string default c:\\my books\\x.bin",
			Option{Name: "Path", Type: String, Default: "c:\\my books\\x.bin"}, ""},
		{"button", "option name Clear Hash type button", Option{Name: "Clear Hash", Type: Button}, ""},

		{"default outside the range", "option name X type spin default 5 min 6 max 9", Option{}, "default 5 outside [6, 9]"},
		{"min above max", "option name X type spin default 5 min 9 max 6", Option{}, "outside [9, 6]"},
		{"spin without max", "option name X type spin default 5 min 0", Option{}, `max "" is not one integer`},
		{"spin not a number", "option name X type spin default five min 0 max 9", Option{}, `default "five" is not an integer`},
		{"spin too large", "option name X type spin default 1 min 0 max 99999999999999999999", Option{}, "not an integer"},
		{"unknown type", "option name X type slider default 5", Option{}, `unknown type "slider"`},
		{"no type", "option name X default 5", Option{}, `unknown type ""`},
		{"no name", "option type spin default 1 min 0 max 2", Option{}, "without a name"},
		{"a word before name", "option foo name X type check default true", Option{}, `"foo" before name`},
		{"empty name", "option name type check default true", Option{}, "without a name"},
		{"combo default not a var", "option name S type combo default Wild var Solid var Risky", Option{}, "not one of its vars"},
		{"combo without vars", "option name S type combo default Wild", Option{}, "without vars"},
		{"empty var", "option name S type combo default A var A var", Option{}, "an empty var"},
		{"check default other", "option name C type check default yes", Option{}, "not true or false"},
		{"min on a check", "option name C type check default true min 0", Option{}, "min or max on a check"},
		{"var on a spin", "option name X type spin default 1 min 0 max 2 var 1", Option{}, "var on a spin"},
		{"keyword twice", "option name X type spin default 1 default 2 min 0 max 2", Option{}, `"default" twice`},
		{"button with default", "option name B type button default x", Option{}, "a button with a default"},
		{"not an option", "id name X", Option{}, "not an option line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseOption(tc.line)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.want.Name || got.Type != tc.want.Type || got.Default != tc.want.Default ||
				got.Def != tc.want.Def || got.Min != tc.want.Min || got.Max != tc.want.Max ||
				strings.Join(got.Vars, "|") != strings.Join(tc.want.Vars, "|") {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCheckValue(t *testing.T) {
	spin := Option{Name: "Material", Type: Spin, Min: 0, Max: 400}
	combo := Option{Name: "Style", Type: Combo, Vars: []string{"Solid", "Risky"}}
	check := Option{Name: "OwnBook", Type: Check}
	str := Option{Name: "Path", Type: String}
	button := Option{Name: "Clear Hash", Type: Button}
	tests := []struct {
		name string
		o    Option
		in   string
		want string
		err  string
	}{
		{"spin", spin, "100", "100", ""},
		{"spin at max", spin, "400", "400", ""},
		{"spin one past max", spin, "401", "", "401 is outside its range [0, 400]"},
		{"spin one below min", spin, "-1", "", "-1 is outside its range [0, 400]"},
		{"spin fraction", spin, "1.5", "", `"1.5" is not an integer`},
		{"check", check, "False", "false", ""},
		{"check other", check, "no", "", "not true or false"},
		{"combo any case", combo, "risky", "Risky", ""},
		{"combo other", combo, "Wild", "", "not one of Solid, Risky"},
		{"string", str, "a b", "a b", ""},
		{"string newline", str, "a\nisready", "", "line break"},
		{"button", button, "x", "", "takes no value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.o.CheckValue(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		name, line string
		want       Info
	}{
		{"stockfish", "info depth 6 seldepth 4 multipv 1 score cp 14 lowerbound nodes 1000 nps 250000 hashfull 0 tbhits 0 time 4 pv d7d5",
			Info{Depth: 6, HasDepth: true, Nodes: 1000, HasNodes: true, Score: 14, HasScore: true, Bound: Lower, MultiPV: 1}},
		{"toga", "info multipv 1 depth 3 seldepth 11 score cp -14 time 1 nodes 1036 pv g8f6 b1c3 d7d5",
			Info{Depth: 3, HasDepth: true, Nodes: 1036, HasNodes: true, Score: -14, HasScore: true, MultiPV: 1}},
		{"upper bound", "info depth 10 score cp 27 upperbound nodes 12667",
			Info{Depth: 10, HasDepth: true, Nodes: 12667, HasNodes: true, Score: 27, HasScore: true, Bound: Upper}},
		{"mate", "info depth 5 score mate 3 pv a1a8", Info{Depth: 5, HasDepth: true, Mate: 3, HasScore: true}},
		{"mated", "info depth 5 score mate -2", Info{Depth: 5, HasDepth: true, Mate: -2, HasScore: true}},
		{"mate 0 is no score", "info depth 0 score mate 0", Info{HasDepth: true}},
		{"depth alone", "info depth 4", Info{Depth: 4, HasDepth: true}},
		{"string", "info string NNUE evaluation using nn-ad9b42354671.nnue enabled depth 9", Info{String: true}},
		{"string after fields", "info depth 2 string score cp 5", Info{Depth: 2, HasDepth: true, String: true}},
		{"pv holds keywords", "info depth 3 pv e2e4 score cp 900", Info{Depth: 3, HasDepth: true}},
		{"bad number skipped", "info depth x nodes 12", Info{Nodes: 12, HasNodes: true}},
		{"unknown score kind", "info score wdl 1 2 3 depth 7", Info{Depth: 7, HasDepth: true}},
		{"score without value", "info score cp", Info{}},
		{"negative nodes", "info nodes -5", Info{}},
		{"multipv 2", "info multipv 2 score cp 5", Info{MultiPV: 2, Score: 5, HasScore: true}},
		{"unknown tokens", "info currmove e2e4 currmovenumber 1 cpuload 564", Info{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseInfo(tc.line)
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	if _, err := ParseInfo("bestmove e2e4"); err == nil {
		t.Error("a bestmove line parsed as info")
	}
}

func TestParseBestMove(t *testing.T) {
	tests := []struct {
		line, want string
		bad        bool
	}{
		{"bestmove e2e4", "e2e4", false},
		{"bestmove e2e4 ponder e7e5", "e2e4", false},
		{"bestmove e7e8q", "e7e8q", false},
		{"bestmove  \t a7a8n", "a7a8n", false},
		{"bestmove 0000", "", false},
		{"bestmove (none)", "", false},
		{"bestmove", "", true},
		{"bestmove e7e8k", "", true},
		{"bestmove e9e8", "", true},
		{"bestmove i2i4", "", true},
		{"bestmove e2e4e", "", true},
		{"bestmove Nf3", "", true},
		{"bestmove e2", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			got, err := ParseBestMove(tc.line)
			if (err != nil) != tc.bad || got != tc.want {
				t.Errorf("got %q, %v; want %q (bad: %v)", got, err, tc.want, tc.bad)
			}
		})
	}
}

func TestKindOf(t *testing.T) {
	for line, want := range map[string]lineKind{
		"uciok": lineUCIOK, "readyok": lineReadyOK, "  readyok": lineReadyOK, "bestmove e2e4": lineBestMove,
		"info depth 1": lineInfo, "id name X": lineID, "option name X type check default true": lineOption,
		"Toga II 3.0 UCI based on Fruit 2.1": lineOther, "uciokay": lineOther, "": lineOther, "bestmoves": lineOther,
	} {
		if got := kindOf(line); got != want {
			t.Errorf("kindOf(%q) = %v, want %v", line, got, want)
		}
	}
}

// FuzzParseLine: no engine line panics the parsers, and what they
// accept holds together: a spin's default within its range, a combo's
// among its vars, a move in UCI's form.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"option name Hash type spin default 16 min 1 max 33554432",
		"option name NullMove Pruning type combo default Always var Always var Fail High var Never",
		"option name SyzygyPath type string default <empty>",
		"option name Clear Hash type button",
		"info depth 6 seldepth 4 multipv 1 score cp 14 lowerbound nodes 1000 nps 250000 pv d7d5",
		"info score mate -3 upperbound",
		"info string hello",
		"bestmove e7e8q ponder a1a2",
		"bestmove (none)",
		"id name Toga II 3.0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		kindOf(line)
		if o, err := ParseOption(line); err == nil {
			switch o.Type {
			case Spin:
				if o.Def < o.Min || o.Def > o.Max {
					t.Fatalf("spin %+v: default outside its range", o)
				}
				if v, err := o.CheckValue(o.Default); err != nil || v != o.Default {
					t.Fatalf("spin %+v refuses its default: %v", o, err)
				}
			case Combo:
				if v, err := o.CheckValue(o.Default); err != nil || v != o.Default {
					t.Fatalf("combo %+v refuses its default: %v", o, err)
				}
			case Check:
				if o.Default != "true" && o.Default != "false" {
					t.Fatalf("check %+v", o)
				}
			}
			if o.Name == "" || strings.ContainsAny(o.Name, "\n") {
				t.Fatalf("option name %q", o.Name)
			}
		}
		if in, err := ParseInfo(line); err == nil {
			if in.Nodes < 0 || in.Depth < 0 || (in.Mate != 0 && in.Score != 0) {
				t.Fatalf("info %+v", in)
			}
		}
		if m, err := ParseBestMove(line); err == nil && m != "" && !isMove(m) {
			t.Fatalf("bestmove %q", m)
		}
	})
}

// TestBoundaries: the nearest values either side of the limits a move
// is judged by.
func TestBoundaries(t *testing.T) {
	clock := timing{timed: true, budget: 1000, margin: 100}
	for _, tc := range []struct {
		t       timing
		elapsed int64
		late    bool
	}{
		{clock, 1100, false}, {clock, 1101, true},
		{timing{timed: true, budget: -50, margin: 100}, 50, false}, {timing{timed: true, budget: -50, margin: 100}, 51, true},
		{timing{}, 1 << 40, false}, // at a node or depth limit nothing is late
	} {
		if got := tc.t.late(tc.elapsed); got != tc.late {
			t.Errorf("%+v: %d ms late = %v, want %v", tc.t, tc.elapsed, got, tc.late)
		}
	}
	for _, tc := range []struct {
		l       Limit
		nodes   int64
		ignores bool
	}{
		{Limit{Nodes: 1000}, 8096, false}, {Limit{Nodes: 1000}, 8097, true},
		{Limit{Nodes: 1}, 4100, false}, {Limit{Nodes: 1}, 4101, true},
		{Limit{Depth: 3}, 1 << 40, false}, // only go nodes is checked
	} {
		if got := ignores(tc.l, tc.nodes); got != tc.ignores {
			t.Errorf("%v with %d nodes: ignores = %v, want %v", tc.l, tc.nodes, got, tc.ignores)
		}
	}
}
