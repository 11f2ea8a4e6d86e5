package engine

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ConfigError is one problem in a config, at a line and key.
type ConfigError struct {
	File string
	Line int
	Key  string // dotted path, e.g. "evolution.population"
	Msg  string
}

func (e ConfigError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Key == "" {
		return loc + ": " + e.Msg
	}
	return loc + ": " + e.Key + ": " + e.Msg
}

// ConfigErrors is every problem found in a config, in line order.
type ConfigErrors []ConfigError

func (es ConfigErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// problems collects config errors while decoding goes on, so that a user
// sees every mistake in one pass.
type problems struct {
	file string
	errs ConfigErrors
}

func (p *problems) add(line int, key, format string, args ...any) {
	p.errs = append(p.errs, ConfigError{File: p.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (p *problems) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
	return p.errs
}

// field is one known key of a mapping and how to read its value.
type field struct {
	key  string
	read func(n *yaml.Node, path string)
}

// lines records where every key was written, for later semantic checks.
type lines map[string]int

// decodeMap reads a mapping node with the given known fields; unknown keys,
// repeated keys and non-mappings are problems.
func (d *decoder) decodeMap(n *yaml.Node, path string, fields []field) {
	n = deref(n)
	if n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.p.add(n.Line, path, "want a mapping, got %s", describe(n))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := join(path, k.Value)
		if seen[k.Value] {
			d.p.add(k.Line, key, "given twice")
			continue
		}
		seen[k.Value] = true
		var f *field
		for j := range fields {
			if fields[j].key == k.Value {
				f = &fields[j]
			}
		}
		if f == nil {
			d.p.add(k.Line, key, "unknown key (known: %s)", knownKeys(fields))
			continue
		}
		d.lines[key] = k.Line
		f.read(v, key)
	}
}

func knownKeys(fields []field) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.key
	}
	return strings.Join(names, ", ")
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// decoder reads typed values from nodes, recording problems.
type decoder struct {
	p     *problems
	lines lines
}

func (d *decoder) str(dst *string) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
			d.p.add(n.Line, path, "want a string, got %s", describe(n))
			return
		}
		*dst = n.Value
	}
}

func (d *decoder) integer(dst *int) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		var x int
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&x) != nil {
			d.p.add(n.Line, path, "want a whole number, got %s", describe(n))
			return
		}
		*dst = x
	}
}

func (d *decoder) uint64(dst *uint64) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		var x uint64
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&x) != nil {
			d.p.add(n.Line, path, "want a whole number from 0 to 18446744073709551615, got %s", describe(n))
			return
		}
		*dst = x
	}
}

func (d *decoder) number(dst *float64) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		var x float64
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&x) != nil ||
			math.IsNaN(x) || math.IsInf(x, 0) {
			d.p.add(n.Line, path, "want a number, got %s", describe(n))
			return
		}
		*dst = x
	}
}

func (d *decoder) strings(dst *[]string) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			*dst = []string{n.Value} // a single name may stand for a list of one
			d.lines[path+"[0]"] = n.Line
			return
		}
		if n.Kind != yaml.SequenceNode {
			d.p.add(n.Line, path, "want a list of names, got %s", describe(n))
			return
		}
		*dst = nil
		for i, item := range n.Content {
			item = deref(item)
			key := fmt.Sprintf("%s[%d]", path, i)
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
				d.p.add(item.Line, key, "want a name, got %s", describe(item))
				continue
			}
			// Later checks (an unknown player) point at the entry itself.
			d.lines[key] = item.Line
			*dst = append(*dst, item.Value)
		}
	}
}

// options reads a mapping of scalars as strings (game rule options).
func (d *decoder) options(dst *map[string]string) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		n = deref(n)
		if isNull(n) {
			return
		}
		if n.Kind != yaml.MappingNode {
			d.p.add(n.Line, path, "want a mapping of option: value, got %s", describe(n))
			return
		}
		*dst = map[string]string{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], deref(n.Content[i+1])
			key := join(path, k.Value)
			if _, dup := d.lines[key]; dup {
				d.p.add(k.Line, key, "given twice")
				continue
			}
			d.lines[key] = k.Line
			switch {
			case v.Kind == yaml.ScalarNode && v.Tag != "!!null":
				(*dst)[k.Value] = v.Value
			case v.Kind == yaml.SequenceNode: // fleet: [5, 4, 3]
				var parts []string
				for _, item := range v.Content {
					parts = append(parts, deref(item).Value)
				}
				(*dst)[k.Value] = strings.Join(parts, ",")
			default:
				d.p.add(v.Line, key, "want a value, got %s", describe(v))
			}
		}
	}
}

func (d *decoder) node(dst **yaml.Node) func(*yaml.Node, string) {
	return func(n *yaml.Node, _ string) { *dst = n }
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!null":
		return "nothing"
	case "!!str":
		return strconv.Quote(n.Value)
	}
	return n.Value
}
