package genome

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// Limits on a grid declared in a config, so that a typo cannot make the
// tool allocate gigabytes.
const (
	maxGridSide  = 1024
	maxGridCells = 1 << 16
	// maxInt bounds int ranges so that every integer in them is an exact
	// float64 and fits an int.
	maxInt = 1 << 53
)

// NewSpace builds the searched space from a player's declared schema and
// the config's `space:` section (nil, or a null node, when there is none).
//
// With a declared schema, the section may only narrow it; every key is
// optional:
//
//	space:
//	  edge: {min: 0.5, max: 2}       # inside the declared range
//	  depth: {min: 2, max: 6, log: true}
//	  reveal: {fix: true}            # held at this value, not searched
//	  style: {choices: [greedy, parity]}
//	  weights: {symmetry: ring}      # ring, dihedral or full
//
// (type, rows and cols may be repeated but not changed.) A parameter the
// player declares OptIn is searched only when the section names it (a null
// or empty mapping, `samples: {}`, searches its declared range); left out,
// it is held at its default. With an empty
// schema the section declares every parameter; type is required, then
// min and max (float, int, grid), choices (choice) and rows and cols (grid);
// log, symmetry (default full), default (default: the middle of the range,
// false, the first choice) and fix are optional:
//
//	space:
//	  aggression: {type: float, min: 0.01, max: 100, log: true, default: 1}
//	  weights: {type: grid, rows: 10, cols: 10, min: 0, max: 1, symmetry: dihedral}
//
// The section may also be a list of such mappings, each with a name key.
// Unknown keys are errors. All problems are reported at once as a
// yamlcheck.Errors, each like "line 12: space.edge.min: 3 is below the
// declared minimum 0"; a space with nothing left to search is an error wrapping
// ErrEmptySpace. A broken declared schema is a programmer error, returned
// as a plain error.
func NewSpace(schema Schema, overrides *yaml.Node) (*Space, error) {
	if err := schema.Validate(); err != nil {
		return nil, fmt.Errorf("genome: declared schema: %w", err)
	}
	r := yamlcheck.New("")
	root := yamlcheck.Resolve(overrides)
	entries := readEntries(r, root)
	var params Schema
	var fixed, idle []bool
	var fixVal []Value
	base := schema
	if len(schema) > 0 {
		params, fixed, fixVal = narrow(r, schema, entries)
		idle = holdOptIns(schema, entries, fixed, fixVal)
	} else {
		params, fixed, fixVal = declare(r, entries)
		base = params
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if len(schema) == 0 {
		// The declared schema is the config's own; clone it so that Schema
		// and Params do not share choice slices.
		base = cloneSchema(params)
		if err := base.Validate(); err != nil {
			return nil, fmt.Errorf("genome: declared in the config: %w", err) // a gap in declare's checks
		}
	}
	s := newSpace(base, params, fixed, fixVal)
	s.idle = idle
	if s.Len() == 0 {
		switch {
		case yamlcheck.IsNull(root):
			return nil, fmt.Errorf("%w: the player declares no parameters and there is no space section", ErrEmptySpace)
		case len(entries) == 0:
			return nil, yamlcheck.Errors{{Line: root.Line, Key: "space", Msg: "declares no parameter", Err: ErrEmptySpace}}
		default:
			return nil, yamlcheck.Errors{{Line: root.Line, Key: "space", Msg: "nothing left to search: every parameter is fixed", Err: ErrEmptySpace}}
		}
	}
	return s, nil
}

// entry is the settings of one parameter as written in the space section.
type entry struct {
	name   string
	path   string // "space.edge"
	line   int
	fields []field
	bad    bool // not a mapping: already reported
}

type field struct {
	name     string
	key, val *yaml.Node
}

func (e *entry) get(name string) (field, bool) {
	for _, f := range e.fields {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

// readEntries reads the space section, as a mapping from names to settings
// or as a list of settings with a name key.
func readEntries(r *yamlcheck.Checker, root *yaml.Node) []entry {
	var entries []entry
	seen := map[string]int{}
	addEntry := func(e entry) {
		if first, ok := seen[e.name]; ok {
			r.Add(e.line, e.path, "declared twice (first on line %d)", first)
			return
		}
		seen[e.name] = e.line
		entries = append(entries, e)
	}
	switch {
	case yamlcheck.IsNull(root):
	case root.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := yamlcheck.Resolve(root.Content[i]), yamlcheck.Resolve(root.Content[i+1])
			name, ok := keyName(k)
			if !ok {
				r.Add(k.Line, "space", "want a parameter name, got %s", yamlcheck.Describe(k))
				continue
			}
			e := entry{name: name, path: "space." + name, line: k.Line}
			switch {
			case yamlcheck.IsNull(v):
			case v.Kind == yaml.MappingNode:
				e.fields = readFields(r, v, e.path)
			default:
				r.Add(k.Line, e.path, "want a mapping of settings (min, max, ...), got %s", yamlcheck.Describe(v))
				e.bad = true
			}
			addEntry(e)
		}
	case root.Kind == yaml.SequenceNode:
		for i, item := range root.Content {
			item = yamlcheck.Resolve(item)
			path := "space[" + strconv.Itoa(i) + "]"
			if yamlcheck.IsNull(item) || item.Kind != yaml.MappingNode {
				r.Add(item.Line, path, "want a mapping with a name, a type and its settings, got %s", yamlcheck.Describe(item))
				continue
			}
			e := entry{line: item.Line}
			found := false
			for j := 0; j+1 < len(item.Content) && !found; j += 2 {
				if k := yamlcheck.Resolve(item.Content[j]); k.Kind == yaml.ScalarNode && k.Value == "name" {
					found, e.line = true, k.Line
					v := yamlcheck.Resolve(item.Content[j+1])
					if name, ok := keyName(v); ok {
						e.name = name
					} else {
						r.Add(k.Line, path+".name", "want a parameter name, got %s", yamlcheck.Describe(v))
					}
				}
			}
			if !found {
				r.Add(item.Line, path+".name", "missing")
			}
			if e.name == "" {
				continue
			}
			e.path = "space." + e.name
			e.fields = readFields(r, item, e.path)
			e.fields = slices.DeleteFunc(e.fields, func(f field) bool { return f.name == "name" })
			addEntry(e)
		}
	default:
		r.Add(root.Line, "space", "want a mapping from parameter names to their settings, got %s", yamlcheck.Describe(root))
	}
	return entries
}

// readFields reads a mapping's keys, reporting keys that are not names and
// keys given twice (yaml.v3 checks neither when decoding into a Node).
func readFields(r *yamlcheck.Checker, m *yaml.Node, path string) []field {
	var fs []field
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := yamlcheck.Resolve(m.Content[i])
		name, ok := keyName(k)
		if !ok {
			r.Add(k.Line, path, "want a key, got %s", yamlcheck.Describe(k))
			continue
		}
		if first, ok := seen[name]; ok {
			r.Add(k.Line, yamlcheck.Join(path, name), "given twice (first on line %d)", first)
			continue
		}
		seen[name] = k.Line
		fs = append(fs, field{name: name, key: k, val: yamlcheck.Resolve(m.Content[i+1])})
	}
	return fs
}

func keyName(k *yaml.Node) (string, bool) {
	if k == nil || k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" || k.Value == "" {
		return "", false
	}
	return k.Value, true
}

// The readers below return the value and, when it cannot be read, a
// message saying why.

func readInt(n *yaml.Node) (float64, string) {
	x, msg := yamlcheck.Float(n)
	switch {
	case msg != "":
		return 0, strings.Replace(msg, "a number", "an integer", 1)
	case x != math.Trunc(x):
		return 0, "want an integer, got " + fmtNum(x)
	case math.Abs(x) > maxInt:
		return 0, fmt.Sprintf("%s is too large (at most 2^53 in size)", fmtNum(x))
	}
	return x, ""
}

func readString(n *yaml.Node) (string, string) {
	if yamlcheck.IsNull(n) || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", "want a name, got " + yamlcheck.Describe(n)
	}
	return n.Value, ""
}

// readChoice accepts any scalar, so that `choices: [1, 2]` and `fix: 1`
// name the choices "1" and "2".
func readChoice(n *yaml.Node) (string, string) {
	if yamlcheck.IsNull(n) || n.Kind != yaml.ScalarNode {
		return "", "want a choice, got " + yamlcheck.Describe(n)
	}
	return n.Value, ""
}

// readValue reads a value of p's kind. A grid is a flat list of Rows*Cols
// numbers or Rows lists of Cols numbers.
func readValue(p *Param, n *yaml.Node) (Value, string) {
	switch p.Kind {
	case Float:
		x, msg := yamlcheck.Float(n)
		return Value{Num: x}, msg
	case Int:
		x, msg := readInt(n)
		return Value{Num: x}, msg
	case Bool:
		b, msg := yamlcheck.Bool(n)
		if b {
			return Value{Num: 1}, msg
		}
		return Value{}, msg
	case Choice:
		s, msg := readChoice(n)
		return Value{Str: s}, msg
	case Grid:
		return readGrid(p, n)
	}
	return Value{}, "unknown kind " + p.Kind.String()
}

func readGrid(p *Param, n *yaml.Node) (Value, string) {
	want := fmt.Sprintf("want %d numbers, or %d lists of %d", p.Rows*p.Cols, p.Rows, p.Cols)
	if yamlcheck.IsNull(n) || n.Kind != yaml.SequenceNode {
		return Value{}, want + ", got " + yamlcheck.Describe(n)
	}
	items := n.Content
	rows := false
	if len(items) > 0 && yamlcheck.Resolve(items[0]) != nil && yamlcheck.Resolve(items[0]).Kind == yaml.SequenceNode {
		if len(items) != p.Rows {
			return Value{}, fmt.Sprintf("%s, got %d lists", want, len(items))
		}
		rows = true
	} else if len(items) != p.Rows*p.Cols {
		return Value{}, fmt.Sprintf("%s, got %d numbers", want, len(items))
	}
	cells := make([]float64, 0, p.Rows*p.Cols)
	for r, item := range items {
		item = yamlcheck.Resolve(item)
		if !rows {
			x, msg := yamlcheck.Float(item)
			if msg != "" {
				return Value{}, fmt.Sprintf("cell %d: %s", r, msg)
			}
			cells = append(cells, x)
			continue
		}
		if yamlcheck.IsNull(item) || item.Kind != yaml.SequenceNode || len(item.Content) != p.Cols {
			return Value{}, fmt.Sprintf("row %d: want a list of %d numbers, got %s", r, p.Cols, describeRow(item))
		}
		for c, cell := range item.Content {
			x, msg := yamlcheck.Float(yamlcheck.Resolve(cell))
			if msg != "" {
				return Value{}, fmt.Sprintf("row %d, col %d: %s", r, c, msg)
			}
			cells = append(cells, x)
		}
	}
	return Value{Cells: cells}, ""
}

func describeRow(n *yaml.Node) string {
	if !yamlcheck.IsNull(n) && n.Kind == yaml.SequenceNode {
		return fmt.Sprintf("%d items", len(n.Content))
	}
	return yamlcheck.Describe(n)
}

// outside says how v falls outside p's range, or "" when it is inside.
// whose qualifies the bounds in the message: "declared ", "space's " or "".
func outside(p *Param, v Value, whose string) string {
	switch p.Kind {
	case Float, Int:
		return outsideNum(p, v.Num, whose)
	case Choice:
		if !slices.Contains(p.Choices, v.Str) {
			return fmt.Sprintf("%q is not one of the %schoices %s", v.Str, whose, strings.Join(p.Choices, ", "))
		}
	case Grid:
		for i, x := range v.Cells {
			if msg := outsideNum(p, x, whose); msg != "" {
				return fmt.Sprintf("row %d, col %d: %s", i/p.Cols, i%p.Cols, msg)
			}
		}
	}
	return ""
}

func outsideNum(p *Param, x float64, whose string) string {
	switch {
	case x < p.Min:
		return fmt.Sprintf("%s is below the %sminimum %s", p.num(x), whose, p.num(p.Min))
	case x > p.Max:
		return fmt.Sprintf("%s is above the %smaximum %s", p.num(x), whose, p.num(p.Max))
	}
	return ""
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// cloneSchema deep-copies a schema, so that a Space shares no slice with
// its caller.
func cloneSchema(s Schema) Schema {
	out := slices.Clone(s)
	for i := range out {
		out[i].Choices = slices.Clone(out[i].Choices)
		out[i].Default = cloneValue(out[i].Default)
	}
	return out
}

// applies says which settings make sense for a kind.
func applies(k Kind, key string) bool {
	switch key {
	case "min", "max":
		return k == Float || k == Int || k == Grid
	case "log":
		return k == Float || k == Int
	case "rows", "cols", "symmetry":
		return k == Grid
	case "choices":
		return k == Choice
	}
	return true
}

// The settings of a parameter, in the order messages list them.
var (
	narrowKeys  = []string{"type", "min", "max", "log", "choices", "rows", "cols", "symmetry", "fix"}
	declareKeys = []string{"type", "summary", "min", "max", "log", "choices", "rows", "cols", "symmetry", "default", "fix"}
	// narrowing keys that a fix makes meaningless
	searchKeys = []string{"min", "max", "log", "choices", "symmetry"}
)

func keysFor(k Kind, keys []string) string {
	var out []string
	for _, key := range keys {
		if applies(k, key) {
			out = append(out, key)
		}
	}
	return strings.Join(out, ", ")
}

// holdOptIns fixes every opt-in parameter that the entries do not name at
// its declared default, and says which it fixed.
func holdOptIns(schema Schema, entries []entry, fixed []bool, fixVal []Value) []bool {
	idle := make([]bool, len(schema))
	for i := range schema {
		named := slices.ContainsFunc(entries, func(e entry) bool { return e.name == schema[i].Name })
		if schema[i].OptIn && !named {
			idle[i], fixed[i], fixVal[i] = true, true, cloneValue(schema[i].Default)
		}
	}
	return idle
}

// narrow applies the entries to the declared schema.
func narrow(r *yamlcheck.Checker, schema Schema, entries []entry) (Schema, []bool, []Value) {
	params := cloneSchema(schema)
	fixed := make([]bool, len(schema))
	fixVal := make([]Value, len(schema))
	for _, e := range entries {
		i := slices.IndexFunc(schema, func(p Param) bool { return p.Name == e.name })
		if i < 0 {
			names := make([]string, len(schema))
			for j := range schema {
				names[j] = schema[j].Name
			}
			r.Add(e.line, e.path, "unknown parameter; the player declares %s", strings.Join(names, ", "))
			continue
		}
		narrowParam(r, &schema[i], &e, &params[i], &fixed[i], &fixVal[i])
	}
	return params, fixed, fixVal
}

func narrowParam(r *yamlcheck.Checker, d *Param, e *entry, p *Param, fixed *bool, fixVal *Value) {
	ok := map[string]bool{} // keys that are present and well-formed
	for _, f := range e.fields {
		at := e.path + "." + f.name
		switch {
		case f.name == "default":
			r.Add(f.key.Line, at, "the player declares the default; use fix to hold a value")
		case !slices.Contains(narrowKeys, f.name):
			r.Add(f.key.Line, at, "unknown key; want one of %s", keysFor(d.Kind, narrowKeys))
		case !applies(d.Kind, f.name):
			r.Add(f.key.Line, at, "a %v parameter has no %s", d.Kind, f.name)
		default:
			ok[f.name] = true
		}
	}
	if _, has := e.get("fix"); has {
		for _, key := range searchKeys {
			if f, has := e.get(key); has && ok[key] {
				r.Add(f.key.Line, e.path+"."+key, "a fixed parameter is not searched; drop %s or fix", key)
				ok[key] = false
			}
		}
	}
	read := func(key string, fn func(f field, at string) string) {
		if f, has := e.get(key); has && ok[key] {
			if msg := fn(f, e.path+"."+key); msg != "" {
				r.Add(f.key.Line, e.path+"."+key, "%s", msg)
				ok[key] = false
			}
		}
	}
	read("type", func(f field, _ string) string {
		s, msg := readString(f.val)
		if msg != "" {
			return msg
		}
		k, err := ParseKind(s)
		switch {
		case err != nil:
			return fmt.Sprintf("unknown type %q; want float, int, bool, choice or grid", s)
		case k != d.Kind:
			return fmt.Sprintf("the player declares %s as a %v; its type cannot change", d.Name, d.Kind)
		}
		return ""
	})
	for _, key := range []string{"rows", "cols"} {
		read(key, func(f field, _ string) string {
			x, msg := readInt(f.val)
			want := d.Rows
			if key == "cols" {
				want = d.Cols
			}
			switch {
			case msg != "":
				return msg
			case int(x) != want:
				return fmt.Sprintf("the player declares %d %s; a grid's size cannot change", want, key)
			}
			return ""
		})
	}
	read("fix", func(f field, _ string) string {
		v, msg := readValue(d, f.val)
		if msg == "" {
			msg = outside(d, v, "declared ")
		}
		if msg == "" {
			*fixed, *fixVal = true, v
		}
		return msg
	})
	readNum := yamlcheck.Float
	if d.Kind == Int {
		readNum = readInt
	}
	// A narrowed bound must lie inside the declared range.
	bound := func(dst *float64) func(field, string) string {
		return func(f field, _ string) string {
			x, msg := readNum(f.val)
			if msg == "" {
				msg = outsideNum(d, x, "declared ")
			}
			if msg == "" {
				*dst = x
			}
			return msg
		}
	}
	read("min", bound(&p.Min))
	read("max", bound(&p.Max))
	if p.Min > p.Max {
		if f, has := e.get("min"); has && ok["min"] {
			r.Add(f.key.Line, e.path+".min", "%s is above max %s", fmtNum(p.Min), fmtNum(p.Max))
		} else if f, has := e.get("max"); has {
			r.Add(f.key.Line, e.path+".max", "%s is below min %s", fmtNum(p.Max), fmtNum(p.Min))
		}
		ok["log"] = false
	}
	read("log", func(f field, _ string) string {
		b, msg := yamlcheck.Bool(f.val)
		if msg != "" {
			return msg
		}
		p.Log = b
		if b && p.Min <= 0 {
			return fmt.Sprintf("a log scale needs min > 0, and min is %s", fmtNum(p.Min))
		}
		return ""
	})
	read("symmetry", func(f field, _ string) string {
		s, msg := readString(f.val)
		if msg != "" {
			return msg
		}
		sym, err := ParseSymmetry(s)
		if err != nil {
			return fmt.Sprintf("unknown symmetry %q; want ring, dihedral or full", s)
		}
		p.Symmetry = sym
		return ""
	})
	read("choices", func(f field, _ string) string {
		cs, msg := readChoices(f.val)
		if msg != "" {
			return msg
		}
		for _, c := range cs {
			if !slices.Contains(d.Choices, c) {
				return fmt.Sprintf("%q is not a declared choice (want a subset of %s)", c, strings.Join(d.Choices, ", "))
			}
		}
		p.Choices = cs
		return ""
	})
}

// readChoices reads a non-empty list of distinct choices.
func readChoices(n *yaml.Node) ([]string, string) {
	if yamlcheck.IsNull(n) || n.Kind != yaml.SequenceNode {
		return nil, "want a list of choices, got " + yamlcheck.Describe(n)
	}
	if len(n.Content) == 0 {
		return nil, "want at least one choice"
	}
	var cs []string
	for _, item := range n.Content {
		c, msg := readChoice(yamlcheck.Resolve(item))
		if msg != "" {
			return nil, msg
		}
		if slices.Contains(cs, c) {
			return nil, fmt.Sprintf("%q is listed twice", c)
		}
		cs = append(cs, c)
	}
	return cs, ""
}

// declare builds a schema from entries that declare their parameters.
func declare(r *yamlcheck.Checker, entries []entry) (Schema, []bool, []Value) {
	params := make(Schema, len(entries))
	fixed := make([]bool, len(entries))
	fixVal := make([]Value, len(entries))
	for i := range entries {
		declareParam(r, &entries[i], &params[i], &fixed[i], &fixVal[i])
	}
	return params, fixed, fixVal
}

func declareParam(r *yamlcheck.Checker, e *entry, p *Param, fixed *bool, fixVal *Value) {
	before := len(r.Errors())
	p.Name = e.name
	bad := func(f field, format string, args ...any) {
		r.Add(f.key.Line, e.path+"."+f.name, format, args...)
	}
	if e.bad {
		return
	}
	if f, has := e.get("type"); !has {
		r.Add(e.line, e.path+".type", "missing; want float, int, bool, choice or grid")
	} else if s, msg := readString(f.val); msg != "" {
		bad(f, "%s", msg)
	} else if k, err := ParseKind(s); err != nil {
		bad(f, "unknown type %q; want float, int, bool, choice or grid", s)
	} else {
		p.Kind = k
	}
	for _, f := range e.fields {
		switch {
		case !slices.Contains(declareKeys, f.name):
			if p.Kind == 0 {
				bad(f, "unknown key; want one of %s", strings.Join(declareKeys, ", "))
			} else {
				bad(f, "unknown key; want one of %s", keysFor(p.Kind, declareKeys))
			}
		case p.Kind != 0 && !applies(p.Kind, f.name):
			bad(f, "a %v parameter has no %s", p.Kind, f.name)
		}
	}
	if len(r.Errors()) > before {
		return // without a sound kind and keys, the rest would only repeat it
	}
	need := func(key string) (field, bool) {
		f, has := e.get(key)
		if !has {
			r.Add(e.line, e.path+"."+key, "missing; a %v parameter needs it", p.Kind)
		}
		return f, has
	}
	if f, has := e.get("summary"); has {
		if s, msg := readString(f.val); msg != "" {
			bad(f, "%s", msg)
		} else {
			p.Summary = s
		}
	}
	switch p.Kind {
	case Float, Int, Grid:
		declareRange(r, e, p, need)
	case Choice:
		if f, has := need("choices"); has {
			cs, msg := readChoices(f.val)
			if msg != "" {
				bad(f, "%s", msg)
			}
			p.Choices = cs
		}
	}
	if p.Kind == Grid {
		p.Symmetry = Full
		frows, hasRows := need("rows")
		fcols, hasCols := need("cols")
		if hasRows && hasCols {
			rows, msgR := readSide(frows.val)
			cols, msgC := readSide(fcols.val)
			if msgR != "" {
				bad(frows, "%s", msgR)
			}
			if msgC != "" {
				bad(fcols, "%s", msgC)
			}
			if msgR == "" && msgC == "" && rows*cols > maxGridCells {
				bad(frows, "a %dx%d grid has more than %d cells", rows, cols, maxGridCells)
			}
			p.Rows, p.Cols = rows, cols
		}
		if f, has := e.get("symmetry"); has {
			if s, msg := readString(f.val); msg != "" {
				bad(f, "%s", msg)
			} else if sym, err := ParseSymmetry(s); err != nil {
				bad(f, "unknown symmetry %q; want ring, dihedral or full", s)
			} else {
				p.Symmetry = sym
			}
		}
	}
	if len(r.Errors()) > before {
		return
	}
	p.Default = middle(p)
	// A value of the parameter, inside its range; ok false when absent
	// or refused (and reported).
	value := func(key string) (v Value, ok bool) {
		f, has := e.get(key)
		if !has {
			return v, false
		}
		v, msg := readValue(p, f.val)
		if msg == "" {
			msg = outside(p, v, "")
		}
		if msg != "" {
			bad(f, "%s", msg)
			return v, false
		}
		return v, true
	}
	if v, ok := value("default"); ok {
		p.Default = v
	}
	if v, ok := value("fix"); ok {
		*fixed, *fixVal = true, v
	}
}

// declareRange reads the min, max and log of a parameter declared in the
// config.
func declareRange(r *yamlcheck.Checker, e *entry, p *Param, need func(string) (field, bool)) {
	bad := func(f field, format string, args ...any) {
		r.Add(f.key.Line, e.path+"."+f.name, format, args...)
	}
	readNum := yamlcheck.Float
	if p.Kind == Int {
		readNum = readInt
	}
	fmin, hasMin := need("min")
	fmax, hasMax := need("max")
	flog, hasLog := e.get("log")
	logScale := false
	if hasLog {
		b, msg := yamlcheck.Bool(flog.val)
		if msg != "" {
			bad(flog, "%s", msg)
			hasLog = false
		}
		logScale = b
	}
	if !hasMin || !hasMax {
		return
	}
	lo, msgLo := readNum(fmin.val)
	hi, msgHi := readNum(fmax.val)
	if msgLo != "" {
		bad(fmin, "%s", msgLo)
	}
	if msgHi != "" {
		bad(fmax, "%s", msgHi)
	}
	switch {
	case msgLo != "" || msgHi != "":
	case lo > hi:
		bad(fmin, "%s is above max %s", fmtNum(lo), fmtNum(hi))
	case math.IsInf(hi-lo, 0):
		bad(fmax, "the range [%s, %s] is too wide", fmtNum(lo), fmtNum(hi))
	case hasLog && logScale && lo <= 0:
		bad(flog, "a log scale needs min > 0, and min is %s", fmtNum(lo))
	default:
		p.Min, p.Max, p.Log = lo, hi, logScale
	}
}

func readSide(n *yaml.Node) (int, string) {
	x, msg := readInt(n)
	switch {
	case msg != "":
		return 0, msg
	case x < 1 || x > maxGridSide:
		return 0, fmt.Sprintf("%s is outside [1, %d]", fmtNum(x), maxGridSide)
	}
	return int(x), ""
}

// middle is the default of a parameter declared without one: the middle of
// its range on its own scale, false, or the first choice.
func middle(p *Param) Value {
	switch p.Kind {
	case Float:
		return Value{Num: decodeFloat(p, 0.5)}
	case Int:
		return Value{Num: decodeInt(p, 0.5)}
	case Choice:
		return Value{Str: p.Choices[0]}
	case Grid:
		cells := make([]float64, p.Rows*p.Cols)
		for i := range cells {
			cells[i] = decodeFloat(p, 0.5)
		}
		return Value{Cells: cells}
	}
	return Value{}
}
