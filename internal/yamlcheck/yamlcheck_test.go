package yamlcheck

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestErrorText: the location leads the message; a part that is unknown
// (file, line or key) is left out rather than printed empty or as line 0.
func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    Error
		want string
	}{
		{"everything", Error{File: "c.yaml", Line: 3, Key: "evolution.population", Msg: "1: want at least 2"}, "c.yaml:3: evolution.population: 1: want at least 2"},
		{"no line", Error{File: "c.yaml", Key: "game", Msg: "missing"}, "c.yaml: game: missing"},
		{"no key", Error{File: "c.yaml", Line: 4, Msg: "did not find expected key"}, "c.yaml:4: did not find expected key"},
		{"no file", Error{Line: 3, Key: "space.edge.min", Msg: "want a number"}, "line 3: space.edge.min: want a number"},
		{"no file, no line", Error{Key: "space.edge", Msg: "min above max"}, "space.edge: min above max"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Error(); got != tc.want {
				t.Fatalf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}

// check decodes doc with a table holding every reader and returns the
// problems, one per line.
func check(t testing.TB, doc string) (string, *Checker) {
	t.Helper()
	ck := New("f.yaml")
	root := ck.Parse([]byte(doc))
	var (
		s     string
		i     int
		u     uint64
		x     float64
		names []string
		opts  map[string]string
		node  *yaml.Node
	)
	ck.Map(root, "", Fields{
		"s": ck.String(&s), "i": ck.Int(&i), "u": ck.Uint64(&u), "x": ck.Number(&x),
		"names": ck.Names(&names), "opts": ck.Options(&opts), "node": ck.Node(&node),
		"sub": func(n *yaml.Node, key string) {
			ck.Map(n, key, Fields{"i": ck.Int(&i)})
		},
	})
	if err := ck.Err(); err != nil {
		return err.Error(), ck
	}
	return "", ck
}

// TestMap: every problem of a mapping at once, in line order, each at the
// line of the key or value at fault.
func TestMap(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"valid", "s: a\ni: 2\nu: 3\nx: 1.5\nnames: [p, q]\nopts: {fleet: [5, 4], reveal: ship}\nnode: {any: thing}\nsub: {i: 1}\n", ""},
		{"empty document", "", ""},
		{"unknown key, sorted known keys", "s: a\nz: 1\n", "f.yaml:2: z: unknown key (known: i, names, node, opts, s, sub, u, x)"},
		{"given twice, at the second", "i: 1\ns: a\ni: 2\n", "f.yaml:3: i: given twice (first on line 1)"},
		{"nested", "sub:\n  i: 1\n  j: 2\n", "f.yaml:3: sub.j: unknown key (known: i)"},
		{"not a mapping", "sub: [1]\n", "f.yaml:1: sub: want a mapping, got a list"},
		{"wrong types", "i: 1.5\nu: -1\nx: .nan\ns: [a]\n",
			"f.yaml:1: i: want a whole number, got the number 1.5\n" +
				"f.yaml:2: u: want a whole number from 0 to 18446744073709551615, got the number -1\n" +
				"f.yaml:3: x: want a finite number, got .nan\n" +
				"f.yaml:4: s: want a string, got a list"},
		{"names", "names:\n  - p\n  - {q: 1}\n", "f.yaml:3: names[1]: want a name, got a mapping"},
		{"options", "opts:\n  size: 9\n  size: 10\n  depth: {x: 1}\n",
			"f.yaml:3: opts.size: given twice (first on line 2)\nf.yaml:4: opts.depth: want a value, got a mapping"},
		{"syntax", "s: a\n i: 2\n", "f.yaml:2: mapping values are not allowed in this context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := check(t, tc.doc); got != tc.want {
				t.Fatalf("problems:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestLine: a key not written takes the line of its closest written
// parent, list entries included; Has tells written keys from defaults.
func TestLine(t *testing.T) {
	_, ck := check(t, "s: a\nnames:\n  - p\n  - q\nopts:\n  size: 9\nsub:\n  i: 1\n")
	for _, tc := range []struct {
		key  string
		line int
		has  bool
	}{
		{"s", 1, true},
		{"names[1]", 4, true},
		{"names[7]", 2, false},
		{"opts.size", 6, true},
		{"opts.depth", 5, false},
		{"sub.i", 8, true},
		{"sub.i.deeper", 8, false},
		{"x", 0, false},
	} {
		t.Run(tc.key, func(t *testing.T) {
			if got := ck.Line(tc.key); got != tc.line {
				t.Errorf("Line(%q) = %d, want %d", tc.key, got, tc.line)
			}
			if got := ck.Has(tc.key); got != tc.has {
				t.Errorf("Has(%q) = %v, want %v", tc.key, got, tc.has)
			}
		})
	}
}

// TestPlacing: errors of a section read elsewhere are placed under their
// parent key and in the file, and keep their sentinel.
func TestPlacing(t *testing.T) {
	sentinel := errors.New("empty")
	es := Errors{{Line: 7, Key: "space.edge.min", Msg: "2 is above max 1"}, {Line: 3, Key: "space", Msg: "declares nothing", Err: sentinel}}
	ck := New("c.yaml")
	ck.AddErrors(es.Under("coevolve"))
	err := ck.Err()
	want := "c.yaml:3: coevolve.space: declares nothing\nc.yaml:7: coevolve.space.edge.min: 2 is above max 1"
	if err == nil || err.Error() != want {
		t.Fatalf("placed errors:\n%v\nwant:\n%s", err, want)
	}
	if !errors.Is(err, sentinel) {
		t.Error("the sentinel was lost")
	}
	if es[0].Key != "space.edge.min" || es[0].File != "" {
		t.Error("Under or AddErrors changed the errors they were given")
	}
}

// TestCovers: a problem covers its own key, the keys below it and the key
// above it, so validation does not repeat what decoding said.
func TestCovers(t *testing.T) {
	es := Errors{{Key: "fitness.baselines.games"}, {Key: "names"}}
	for _, tc := range []struct {
		key  string
		want bool
	}{
		{"fitness.baselines.games", true},
		{"fitness.baselines", true},
		{"fitness", true},
		{"fitness.baselines.weight", false},
		{"fitness.baselines.games2", false},
		{"names[2]", true},
		{"namesake", false},
	} {
		if got := es.Covers(tc.key); got != tc.want {
			t.Errorf("Covers(%q) = %v, want %v", tc.key, got, tc.want)
		}
	}
	if !(Errors{{Msg: "syntax"}}).Covers("anything") {
		t.Error("a problem without a key covers every key")
	}
}

// FuzzCheck: no document panics the checker, and every problem it reports
// names the file, with a line whenever it names a key that was written.
//
//	go test ./internal/yamlcheck -run '^$' -fuzz FuzzCheck -fuzztime 60s
func FuzzCheck(f *testing.F) {
	for _, doc := range []string{
		"s: a\ni: 2\nu: 3\nx: 1.5\nnames: [p, q]\nopts: {fleet: [5, 4], reveal: ship}\nnode: {any: thing}\nsub: {i: 1}\n",
		"i: 1\ni: 2\nz: 3\n", "sub: &a {i: 1}\nnode: *a\n", "names: p\n", "- 1\n- 2\n", "~", "opts: {a: ~, b: [[1]]}\n",
		"x: 1e999\nu: 18446744073709551616\n",
	} {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		got, ck := check(t, doc)
		if got == "" {
			return
		}
		last := 0
		for _, e := range ck.Errors() {
			if e.File != "f.yaml" || !strings.HasPrefix(e.Error(), "f.yaml") {
				t.Fatalf("problem without the file: %q", e.Error())
			}
			if e.Line < last {
				t.Fatalf("problems out of line order: %s", got)
			}
			last = e.Line
			if e.Msg == "" {
				t.Fatalf("problem without a message: %q", e.Error())
			}
		}
	})
}

func ExampleChecker() {
	doc := "population: 1\nselection: lottery\npopulaton: 30\n"
	var cfg struct {
		Population int
		Selection  string
	}
	ck := New("run.yaml")
	// Decode.
	ck.Map(ck.Parse([]byte(doc)), "", Fields{
		"population": ck.Int(&cfg.Population),
		"selection":  ck.String(&cfg.Selection),
	})
	// Defaults.
	if !ck.Has("selection") {
		cfg.Selection = "tournament"
	}
	// Validation.
	if cfg.Population < 2 {
		ck.Add(ck.Line("population"), "population", "%d: want at least 2", cfg.Population)
	}
	if cfg.Selection != "tournament" {
		ck.Add(ck.Line("selection"), "selection", "unknown selection %q", cfg.Selection)
	}
	fmt.Println(ck.Err())
	// Output:
	// run.yaml:1: population: 1: want at least 2
	// run.yaml:2: selection: unknown selection "lottery"
	// run.yaml:3: populaton: unknown key; did you mean population?
}
