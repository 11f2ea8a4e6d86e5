package yamlcheck

import (
	"fmt"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestJoin: a dotted path never starts, ends or doubles a dot.
func TestJoin(t *testing.T) {
	for _, tc := range []struct{ path, key, want string }{
		{"", "a", "a"},
		{"a", "", "a"},
		{"", "", ""},
		{"a.b", "c", "a.b.c"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := Join(tc.path, tc.key); got != tc.want {
				t.Fatalf("Join(%q, %q) = %q, want %q", tc.path, tc.key, got, tc.want)
			}
		})
	}
}

// TestValuesRead: what the readers store, not only that they do not
// complain: integers and floats are both numbers, an option's list is
// joined with commas, a null mapping is an empty one.
func TestValuesRead(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"whole number is a number", "x: 3\n", "s= i=0 u=0 x=3 names=[] opts=map[]"},
		{"float", "x: -1.5e3\ni: -7\nu: 18446744073709551615\n", "s= i=-7 u=18446744073709551615 x=-1500 names=[] opts=map[]"},
		{"options", "opts: {fleet: [5, 4, 3], reveal: ship, n: 9}\n", "s= i=0 u=0 x=0 names=[] opts=map[fleet:5,4,3 n:9 reveal:ship]"},
		{"one name is a list of one", "names: p\ns: '007'\n", "s=007 i=0 u=0 x=0 names=[p] opts=map[]"},
		{"nulls are empty", "sub: ~\nopts:\nnode:\n", "s= i=0 u=0 x=0 names=[] opts=map[]"},
		{"aliases", "s: &v hello\nnames: [*v, q]\n", "s=hello i=0 u=0 x=0 names=[hello q] opts=map[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ck := New("f.yaml")
			var (
				s     string
				i     int
				u     uint64
				x     float64
				names []string
				opts  map[string]string
				node  *yaml.Node
			)
			ck.Map(ck.Parse([]byte(tc.doc)), "", Fields{
				"s": ck.String(&s), "i": ck.Int(&i), "u": ck.Uint64(&u), "x": ck.Number(&x),
				"names": ck.Names(&names), "opts": ck.Options(&opts), "node": ck.Node(&node),
				"sub": func(n *yaml.Node, key string) { ck.Map(n, key, Fields{"i": ck.Int(&i)}) },
			})
			if err := ck.Err(); err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("s=%s i=%d u=%d x=%v names=%v opts=%v", s, i, u, x, names, opts)
			if got != tc.want {
				t.Fatalf("read %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestMoreProblems: the messages at the edges the main table leaves out.
func TestMoreProblems(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"null string", "s: ~\n", "f.yaml:1: s: want a string, got nothing"},
		{"null option", "opts:\n  a: 1\n  b: ~\n", "f.yaml:3: opts.b: want a value, got nothing"},
		{"options not a mapping", "opts: [1]\n", "f.yaml:1: opts: want a mapping of option: value, got a list"},
		{"names not a list", "names: {a: 1}\n", "f.yaml:1: names: want a list of names, got a mapping"},
		{"other tags named", "i: 2001-12-14\n", `f.yaml:1: i: want a whole number, got !!timestamp "2001-12-14"`},
		{"string for a number", "x: abc\n", `f.yaml:1: x: want a number, got "abc"`},
		{"tagged float that is not one", "x: !!float abc\n", "f.yaml:1: x: want a number, got the number abc"},
		{"bool for an int", "i: true\n", "f.yaml:1: i: want a whole number, got true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := check(t, tc.doc); got != tc.want {
				t.Fatalf("problems:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestBool: true and false only; anything else says what it got.
func TestBool(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      bool
		msg       string
	}{
		{"true", "true", true, ""},
		{"false", "false", false, ""},
		{"yes is a string", "yes", false, `want true or false, got "yes"`},
		{"number", "1", false, "want true or false, got the number 1"},
		{"null", "~", false, "want true or false, got nothing"},
		{"list", "[true]", false, "want true or false, got a list"},
		{"tagged bool that is not one", "!!bool maybe", false, "want true or false, got maybe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ck := New("")
			b, msg := Bool(ck.Parse([]byte(tc.doc)))
			if b != tc.want || msg != tc.msg {
				t.Fatalf("Bool = %v, %q; want %v, %q", b, msg, tc.want, tc.msg)
			}
		})
	}
}

// TestResolve: documents and aliases are stepped through; a node not made
// by the parser (an alias to nothing, a cycle of aliases) does not hang or
// panic.
func TestResolve(t *testing.T) {
	leaf := &yaml.Node{Kind: yaml.ScalarNode, Value: "v"}
	orphan := &yaml.Node{Kind: yaml.AliasNode}
	cycle := &yaml.Node{Kind: yaml.AliasNode}
	cycle.Alias = cycle
	for _, tc := range []struct {
		name string
		n    *yaml.Node
		want *yaml.Node
	}{
		{"nil", nil, nil},
		{"leaf", leaf, leaf},
		{"empty document", &yaml.Node{Kind: yaml.DocumentNode}, nil},
		{"document", &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{leaf}}, leaf},
		{"alias", &yaml.Node{Kind: yaml.AliasNode, Alias: leaf}, leaf},
		{"document of an alias", &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.AliasNode, Alias: leaf}}}, leaf},
		{"alias to nothing", orphan, orphan},
		{"cycle", cycle, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Resolve(tc.n); got != tc.want {
				t.Fatalf("Resolve = %p, want %p", got, tc.want)
			}
		})
	}
}

// TestOddMapping: a mapping node not made by the parser, with a key and
// no value, loses the key instead of panicking.
func TestOddMapping(t *testing.T) {
	key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a", Line: 1}
	odd := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{key}}
	ck := New("f.yaml")
	var opts map[string]string
	ck.Map(odd, "", Fields{"a": ck.Options(&opts)})
	ck.Options(&opts)(odd, "o")
	if err := ck.Err(); err != nil || ck.Has("a") || ck.Has("o.a") || len(opts) != 0 {
		t.Fatalf("err %v, has a %v, o.a %v, options %v: want nothing read", err, ck.Has("a"), ck.Has("o.a"), opts)
	}
}

// TestLineOfTheRoot: a key whose closest written parent is the root
// itself (a list read at the top level) takes the root's line.
func TestLineOfTheRoot(t *testing.T) {
	ck := New("f.yaml")
	ck.Mark("", 1)
	ck.Mark("[0]", 2)
	for _, tc := range []struct {
		key  string
		line int
	}{{"[0]", 2}, {"[1]", 1}, {".x", 1}} {
		if got := ck.Line(tc.key); got != tc.line {
			t.Errorf("Line(%q) = %d, want %d", tc.key, got, tc.line)
		}
	}
}
