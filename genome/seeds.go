package genome

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// ParseSeeds reads the config's `seeds:` section (nil, or a null node, when
// there is none): a list of known parameter sets that enter the first
// generation as they are.
//
//	seeds:
//	  - {edge: 1.5, depth: 4, style: parity}   # e.g. hand-tuned values
//	  - {}                                     # the player's defaults
//
// Each set maps parameter names of the declared schema to values written as
// in a `fix:` (a grid as Rows*Cols numbers or Rows lists of Cols). A
// parameter a set leaves out takes its declared default, clamped into the
// space's range. Values must lie inside the space as narrowed; a fixed
// parameter, an opt-in one the space leaves out included, may be given
// only at its fixed value. A grid whose cells do not
// follow the space's symmetry enters projected onto it (each class of
// cells takes their mean). All problems are reported at once as a
// yamlcheck.Errors, each like "line 30: seeds[1].edge: 12 is above the space's
// maximum 8".
func (s *Space) ParseSeeds(node *yaml.Node) ([][]float64, error) {
	root := yamlcheck.Resolve(node)
	if yamlcheck.IsNull(root) {
		return nil, nil
	}
	r := yamlcheck.New("")
	if root.Kind != yaml.SequenceNode {
		r.Add(root.Line, "seeds", "want a list of parameter sets, got %s", yamlcheck.Describe(root))
		return nil, r.Err()
	}
	var seeds [][]float64
	for n, item := range root.Content {
		item = yamlcheck.Resolve(item)
		path := "seeds[" + strconv.Itoa(n) + "]"
		if yamlcheck.IsNull(item) && item != nil && item.Kind == yaml.ScalarNode {
			item = &yaml.Node{Kind: yaml.MappingNode, Line: item.Line} // "- ~": all defaults
		}
		if item == nil || item.Kind != yaml.MappingNode {
			line := root.Line
			if item != nil {
				line = item.Line
			}
			r.Add(line, path, "want a mapping of parameter names to values, got %s", yamlcheck.Describe(item))
			continue
		}
		before := len(r.Errors())
		v, given := s.readSeed(r, item, path)
		// A choice left out must still be one the space searches.
		for i := range s.params {
			p := &s.params[i]
			if p.Kind == Choice && !given[i] && !s.fixed[i] && !slices.Contains(p.Choices, v.vals[i].Str) {
				r.Add(item.Line, path+"."+p.Name, "not given, and its default %q is not among the space's choices; give one of %s",
					v.vals[i].Str, strings.Join(p.Choices, ", "))
			}
		}
		if len(r.Errors()) > before {
			continue
		}
		genes, err := s.Encode(v)
		if err != nil { // unreachable: every reason for it was reported above
			r.Add(item.Line, path, "%v", err)
			continue
		}
		seeds = append(seeds, genes)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return seeds, nil
}

// readSeed reads one parameter set over the declared defaults, and says
// which parameters it names.
func (s *Space) readSeed(r *yamlcheck.Checker, item *yaml.Node, path string) (Values, []bool) {
	v := s.schema.Defaults()
	given := make([]bool, len(s.schema))
	for _, f := range readFields(r, item, path) {
		at := path + "." + f.name
		i := slices.IndexFunc(s.schema, func(p Param) bool { return p.Name == f.name })
		if i < 0 {
			names := make([]string, len(s.schema))
			for j := range s.schema {
				names[j] = s.schema[j].Name
			}
			r.Add(f.key.Line, at, "unknown parameter; want one of %s", strings.Join(names, ", "))
			continue
		}
		given[i] = true // even if wrong: one message per mistake
		d, p := &s.schema[i], &s.params[i]
		x, msg := readValue(d, f.val)
		switch {
		case msg != "":
		case s.idle != nil && s.idle[i]:
			if !equalValue(x, s.fixVal[i]) {
				msg = fmt.Sprintf("%s is searched only when the space names it, and it does not, so it is held at its default %s; this seed says %s (add space.%s to search it)",
					d.Name, formatValue(d, s.fixVal[i]), formatValue(d, x), d.Name)
			}
		case s.fixed[i]:
			if !equalValue(x, s.fixVal[i]) {
				msg = fmt.Sprintf("the space fixes %s at %s; this seed says %s",
					d.Name, formatValue(d, s.fixVal[i]), formatValue(d, x))
			}
		default:
			if msg = outside(d, x, "declared "); msg == "" {
				msg = outside(p, x, "space's ")
			}
		}
		if msg != "" {
			r.Add(f.key.Line, at, "%s", msg)
			continue
		}
		v.vals[i] = x
	}
	return v, given
}

func equalValue(a, b Value) bool {
	return a.Num == b.Num && a.Str == b.Str && slices.Equal(a.Cells, b.Cells)
}

// formatValue is Param.Format, with a grid's cells written out when few.
func formatValue(p *Param, v Value) string {
	if p.Kind == Grid && len(v.Cells) <= 16 {
		cells := make([]string, len(v.Cells))
		for i, x := range v.Cells {
			cells[i] = fmtNum(x)
		}
		return "[" + strings.Join(cells, ", ") + "]"
	}
	return p.Format(v)
}

// ParseValues reads a mapping of parameter names to values, written as in
// a seed (a grid as Rows*Cols numbers or Rows lists of Cols), over the
// schema's defaults: the values of a player file. Every value must lie in
// the schema's range. All problems are reported at once as a
// yamlcheck.Errors keyed by parameter name, each like "line 3: edge: 12 is
// above the maximum 10".
func (s Schema) ParseValues(node *yaml.Node) (Values, error) {
	r := yamlcheck.New("")
	n := yamlcheck.Resolve(node)
	if yamlcheck.IsNull(n) || n.Kind != yaml.MappingNode {
		line := 0
		if n != nil {
			line = n.Line
		}
		r.Add(line, "", "want a mapping of parameter names to values, got %s", yamlcheck.Describe(n))
		return Values{}, r.Err()
	}
	v := s.Defaults()
	for _, f := range readFields(r, n, "") {
		i := slices.IndexFunc(s, func(p Param) bool { return p.Name == f.name })
		if i < 0 {
			names := make([]string, len(s))
			for j := range s {
				names[j] = s[j].Name
			}
			r.Add(f.key.Line, f.name, "unknown parameter; want one of %s", strings.Join(names, ", "))
			continue
		}
		x, msg := readValue(&s[i], f.val)
		if msg == "" {
			msg = outside(&s[i], x, "")
		}
		if msg != "" {
			r.Add(f.key.Line, f.name, "%s", msg)
			continue
		}
		v.vals[i] = x
	}
	if err := r.Err(); err != nil {
		return Values{}, err
	}
	return v, nil
}
