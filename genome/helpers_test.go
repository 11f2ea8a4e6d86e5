package genome

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testSchema has every kind, with linear and log scales, like a real
// player's declaration.
func testSchema() Schema {
	return Schema{
		{Name: "edge", Kind: Float, Min: 0, Max: 10, Default: Value{Num: 1}, Summary: "weight of edge cells"},
		{Name: "temp", Kind: Float, Min: 0.01, Max: 100, Log: true, Default: Value{Num: 1}},
		{Name: "depth", Kind: Int, Min: 1, Max: 8, Default: Value{Num: 3}},
		{Name: "nodes", Kind: Int, Min: 10, Max: 100000, Log: true, Default: Value{Num: 1000}},
		{Name: "parity", Kind: Bool, Default: Value{Num: 1}},
		{Name: "style", Kind: Choice, Choices: []string{"greedy", "parity", "random"}, Default: Value{Str: "greedy"}},
		{Name: "weights", Kind: Grid, Rows: 4, Cols: 4, Min: -1, Max: 1, Symmetry: Dihedral,
			Default: Value{Cells: make([]float64, 16)}},
	}
}

// mustSpace builds a space from YAML text of a space section ("" for none).
func mustSpace(tb testing.TB, schema Schema, text string) *Space {
	tb.Helper()
	s, err := NewSpace(schema, parseNode(tb, text))
	if err != nil {
		tb.Fatalf("NewSpace: %v", err)
	}
	return s
}

func parseNode(tb testing.TB, text string) *yaml.Node {
	tb.Helper()
	if text == "" {
		return nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		tb.Fatalf("yaml: %v", err)
	}
	return &n
}

// sections reads a config file's space and seeds sections.
func sections(tb testing.TB, path string) (space, seeds *yaml.Node) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	root := yamlcheck.Resolve(&doc)
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "space":
			space = root.Content[i+1]
		case "seeds":
			seeds = root.Content[i+1]
		}
	}
	return space, seeds
}

// render describes a space and its seeds for golden files.
func render(s *Space, seeds [][]float64) string {
	var b strings.Builder
	ps := s.Params()
	for i := range ps {
		p := &ps[i]
		if v, ok := s.Fixed(p.Name); ok {
			fmt.Fprintf(&b, "%s %v fixed at %s\n", p.Name, p.Kind, formatValue(p, v))
			continue
		}
		fmt.Fprintf(&b, "%s %v %s\n", p.Name, p.Kind, p.Range())
	}
	names := make([]string, 0, s.Len())
	for _, g := range s.Genes() {
		names = append(names, g.String())
	}
	fmt.Fprintf(&b, "genes (%d): %s\n", s.Len(), strings.Join(names, " "))
	for i, genes := range seeds {
		v, err := s.Decode(genes)
		if err != nil {
			fmt.Fprintf(&b, "seed %d: %v\n", i, err)
			continue
		}
		fmt.Fprintf(&b, "seed %d:", i)
		schema := v.Schema()
		for j := range schema {
			fmt.Fprintf(&b, " %s=%s", schema[j].Name, formatValue(&schema[j], v.Get(schema[j].Name)))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }
