package genome

import (
	"slices"
	"strings"
	"testing"
)

// optInSchema is a player that gained two knobs after runs of it existed:
// edge is searched as always; style and nodes are opt-in.
func optInSchema() Schema {
	return Schema{
		{Name: "edge", Kind: Float, Min: 0, Max: 10, Default: Value{Num: 1}},
		{Name: "style", Kind: Choice, Choices: []string{"greedy", "parity"}, Default: Value{Str: "greedy"}, OptIn: true},
		{Name: "nodes", Kind: Int, Min: 10, Max: 1000, Log: true, Default: Value{Num: 100}, OptIn: true},
	}
}

func geneNames(s *Space) []string {
	var names []string
	for _, g := range s.Genes() {
		names = append(names, g.String())
	}
	return names
}

// TestOptInKnobs: an opt-in knob the space section leaves out has no gene
// and decodes to its default; named in any way, it is searched or fixed
// as any other knob.
func TestOptInKnobs(t *testing.T) {
	tests := []struct {
		name   string
		space  string
		genes  []string
		fixed  map[string]Value // parameters held, and at what
		search Schema           // effective ranges of searched knobs, checked by name
	}{
		{name: "no space section", space: "",
			genes: []string{"edge"}, fixed: map[string]Value{"style": {Str: "greedy"}, "nodes": {Num: 100}}},
		{name: "space names another knob", space: "edge: {max: 5}",
			genes: []string{"edge"}, fixed: map[string]Value{"style": {Str: "greedy"}, "nodes": {Num: 100}}},
		{name: "named with no settings", space: "style:",
			genes: []string{"edge", "style"}, fixed: map[string]Value{"nodes": {Num: 100}}},
		{name: "named with an empty mapping", space: "nodes: {}",
			genes: []string{"edge", "nodes"}, fixed: map[string]Value{"style": {Str: "greedy"}}},
		{name: "named and narrowed", space: "nodes: {min: 20, max: 200}",
			genes: []string{"edge", "nodes"}, fixed: map[string]Value{"style": {Str: "greedy"}},
			search: Schema{{Name: "nodes", Min: 20, Max: 200}}},
		{name: "fixed at its default, as configs pinned it", space: "style: {fix: greedy}\nnodes: {fix: 100}",
			genes: []string{"edge"}, fixed: map[string]Value{"style": {Str: "greedy"}, "nodes": {Num: 100}}},
		{name: "fixed elsewhere", space: "style: {fix: parity}",
			genes: []string{"edge"}, fixed: map[string]Value{"style": {Str: "parity"}, "nodes": {Num: 100}}},
		{name: "list form", space: "- {name: style}\n- {name: edge, fix: 2}",
			genes: []string{"style"}, fixed: map[string]Value{"edge": {Num: 2}, "nodes": {Num: 100}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSpace(t, optInSchema(), tc.space)
			if got := geneNames(s); !slices.Equal(got, tc.genes) {
				t.Errorf("genes %v, want %v", got, tc.genes)
			}
			mid := make([]float64, s.Len())
			for i := range mid {
				mid[i] = 0.5
			}
			v, err := s.Decode(mid)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range s.Schema() {
				want, held := tc.fixed[p.Name]
				got, fixed := s.Fixed(p.Name)
				if fixed != held {
					t.Errorf("%s: fixed %v, want %v", p.Name, fixed, held)
					continue
				}
				if held && (!equalValue(got, want) || !equalValue(v.Get(p.Name), want)) {
					t.Errorf("%s: held at %v and decoded as %v, want %v", p.Name, got, v.Get(p.Name), want)
				}
			}
			for _, want := range tc.search {
				p, _ := s.Params().Lookup(want.Name)
				if p.Min != want.Min || p.Max != want.Max {
					t.Errorf("%s: searched over [%v, %v], want [%v, %v]", want.Name, p.Min, p.Max, want.Min, want.Max)
				}
			}
		})
	}
}

// TestOptInKeepsGenomes: a space that leaves the opt-in knobs out and one
// that pins them at their defaults are the same space: same genes, and
// every genome decodes to the same values, so pinned and unpinned configs
// evolve alike.
func TestOptInKeepsGenomes(t *testing.T) {
	bare := mustSpace(t, optInSchema(), "edge: {max: 5}")
	pinned := mustSpace(t, optInSchema(), "edge: {max: 5}\nstyle: {fix: greedy}\nnodes: {fix: 100}")
	before := mustSpace(t, optInSchema()[:1], "edge: {max: 5}") // the player before the knobs
	if !slices.Equal(geneNames(bare), geneNames(pinned)) || !slices.Equal(geneNames(bare), geneNames(before)) {
		t.Fatalf("genes %v, pinned %v, before the knobs %v", geneNames(bare), geneNames(pinned), geneNames(before))
	}
	for _, g := range []float64{0, 0.25, 0.5, 0.999, 1} {
		genes := []float64{g}
		a, errA := bare.Decode(genes)
		b, errB := pinned.Decode(genes)
		c, errC := before.Decode(genes)
		if errA != nil || errB != nil || errC != nil {
			t.Fatal(errA, errB, errC)
		}
		if !equalMaps(a.Map(), b.Map()) || a.Float("edge") != c.Float("edge") {
			t.Errorf("gene %v: %v, pinned %v, before the knobs %v", g, a.Map(), b.Map(), c.Map())
		}
	}
}

func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if y, ok := b[k]; !ok || x != y {
			return false
		}
	}
	return true
}

// TestOptInSeeds: a seed may name a held opt-in knob at its default (as
// exports do), and any other value is refused with the way to search it.
func TestOptInSeeds(t *testing.T) {
	tests := []struct {
		name, space, seeds string
		want               string // substring of the error; "" for none
	}{
		{name: "held knob at its default", seeds: "- {edge: 2, style: greedy, nodes: 100}"},
		{name: "held knob elsewhere", seeds: "- {style: parity}",
			want: "seeds[0].style: style is searched only when the space names it, and it does not, so it is held at its default greedy; this seed says parity (add space.style to search it)"},
		{name: "named knob elsewhere", space: "style:", seeds: "- {style: parity}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSpace(t, optInSchema(), tc.space)
			_, err := s.ParseSeeds(parseNode(t, tc.seeds))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
