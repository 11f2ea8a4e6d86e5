// Package yamlcheck reads YAML documents (configs, parameter spaces,
// player files) node by node and collects every problem at once as
// `file:line: key: message`, so that a user fixes a file in one edit.
//
// A reader of a file runs three separate steps:
//
//  1. decode: Checker.Map walks a mapping with its Fields, a table from
//     each known key to the Reader of its value (Checker.String, Int,
//     Uint64, Number, Names, Options, Node, or a func that maps a nested
//     section). Unknown keys, keys given
//     twice and values of the wrong type become errors; the line of every
//     key written is recorded (Checker.Has, Checker.Line).
//  2. defaults: the caller fills in what the file left out, asking Has
//     whether a key was written.
//  3. validation: the caller checks the meaning and reports with
//     Checker.Add(Checker.Line(key), key, ...), without changing the
//     values it checks.
//
// To add a config key, add one entry to the Fields of the mapping it
// belongs to, e.g. a section with one number:
//
//	"racing": func(n *yaml.Node, key string) {
//		ck.Map(n, key, yamlcheck.Fields{
//			"confidence": ck.Number(&cfg.Racing.Confidence),
//		})
//	},
//
// then its default (if not the zero value) and its checks; the error
// messages, lines and the unknown-key list follow from the table.
//
// A section read by another package (a parameter space) is reported
// without a file name and rooted at its own key ("space.edge.min"); the
// caller places it with Errors.In and Errors.Under.
package yamlcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is one problem in a YAML file, at a line and a key.
type Error struct {
	File string // "" when the reader does not know it
	Line int    // 1-based; 0 if unknown
	Key  string // dotted path, e.g. "evolution.population" or "seeds[1].edge"
	Msg  string
	Err  error // a sentinel the problem stands for, or nil
}

// Error reads "file:line: key: msg"; without a file, "line N: key: msg";
// parts that are unknown are left out.
func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		if loc == "" {
			loc = "line " + strconv.Itoa(e.Line)
		} else {
			loc += ":" + strconv.Itoa(e.Line)
		}
	}
	parts := make([]string, 0, 3)
	for _, s := range []string{loc, e.Key, e.Msg} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ": ")
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is every problem found in a file, in line order.
type Errors []*Error

// Error puts one problem on each line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (es Errors) Unwrap() []error {
	errs := make([]error, len(es))
	for i, e := range es {
		errs[i] = e
	}
	return errs
}

// Under returns copies of es with their keys placed under prefix:
// "space.edge" under "coevolve" is "coevolve.space.edge".
func (es Errors) Under(prefix string) Errors {
	out := make(Errors, len(es))
	for i, e := range es {
		c := *e
		c.Key = Join(prefix, c.Key)
		out[i] = &c
	}
	return out
}

// Covers reports whether key, a key above it or a key below it already
// has a problem among es (an error without a key covers every key).
func (es Errors) Covers(key string) bool {
	for _, e := range es {
		if e.Key == "" || e.Key == key || strings.HasPrefix(key, e.Key+".") || strings.HasPrefix(e.Key, key+".") ||
			strings.HasPrefix(key, e.Key+"[") {
			return true
		}
	}
	return false
}

// Join appends key to the dotted path.
func Join(path, key string) string {
	switch {
	case path == "":
		return key
	case key == "":
		return path
	}
	return path + "." + key
}

// Checker collects the problems of one file and remembers where every
// key was written.
type Checker struct {
	file  string
	errs  Errors
	lines map[string]int
}

// New returns a Checker for file ("" when the caller places the errors).
func New(file string) *Checker { return &Checker{file: file, lines: map[string]int{}} }

// Fork returns a Checker for the same file that shares the recorded lines
// but starts with no problems: validation runs in a fork, so that its
// problems can be weighed against those of decoding.
func (c *Checker) Fork() *Checker { return &Checker{file: c.file, lines: c.lines} }

// Add records a problem at line and key.
func (c *Checker) Add(line int, key, format string, args ...any) {
	c.errs = append(c.errs, &Error{File: c.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// AddErrors records problems found by another reader of the same file.
func (c *Checker) AddErrors(es Errors) {
	for _, e := range es {
		e := *e
		if e.File == "" {
			e.File = c.file
		}
		c.errs = append(c.errs, &e)
	}
}

// Errors returns the problems so far, in the order found.
func (c *Checker) Errors() Errors { return c.errs }

// Err returns the problems sorted by line, or nil when there are none.
func (c *Checker) Err() error {
	if len(c.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(c.errs, func(a, b *Error) int { return a.Line - b.Line })
	return c.errs
}

// Mark records that key was written at line.
func (c *Checker) Mark(key string, line int) { c.lines[key] = line }

// Has reports whether the file wrote key.
func (c *Checker) Has(key string) bool { _, ok := c.lines[key]; return ok }

// Line returns where key was written, or else where its closest written
// parent was ("a.b[2]" -> "a.b" -> "a"); 0 if none was.
func (c *Checker) Line(key string) int {
	for {
		if l, ok := c.lines[key]; ok {
			return l
		}
		i := strings.LastIndexAny(key, ".[")
		if i < 0 {
			return 0
		}
		key = key[:i]
	}
}

// Parse reads a YAML document and returns its root node: nil for an empty
// document, a problem at the syntax error's line for a malformed one.
func (c *Checker) Parse(text []byte) *yaml.Node {
	syntax := func(err error) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := syntaxLine(msg)
		if line > 0 {
			msg = strings.TrimPrefix(msg, fmt.Sprintf("line %d: ", line))
		}
		c.Add(line, "", "%s", msg)
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		syntax(err)
		return nil
	}
	// A file is one document: what follows a second "---" would be
	// ignored without a word, settings a user believes in included.
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		syntax(err)
		return nil
	case len(next.Content) > 0 && !IsNull(next.Content[0]):
		c.Add(next.Content[0].Line, "", "a second YAML document (after ---): one file holds one document")
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	return Resolve(&doc)
}

// syntaxLine digs the line number out of a yaml.v3 syntax error.
func syntaxLine(msg string) int {
	var n int
	if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i:], "line %d", &n)
	}
	return n
}

// Reader reads the value node of key (its dotted path).
type Reader func(n *yaml.Node, key string)

// Fields are the known keys of a mapping and how to read each value.
type Fields map[string]Reader

// Map reads a mapping node with the known fields: unknown keys, keys given
// twice and a node that is not a mapping are problems. A null node is an
// empty mapping.
func (c *Checker) Map(n *yaml.Node, path string, fields Fields) {
	n = Resolve(n)
	if IsNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		c.Add(n.Line, path, "want a mapping, got %s", Describe(n))
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Resolve(n.Content[i]), n.Content[i+1]
		key := Join(path, k.Value)
		if first, dup := seen[k.Value]; dup {
			c.Add(k.Line, key, "given twice (first on line %d)", first)
			continue
		}
		seen[k.Value] = k.Line
		read, ok := fields[k.Value]
		if !ok {
			known := slices.Sorted(maps.Keys(fields))
			if near := Nearest(k.Value, known); len(near) > 0 {
				c.Add(k.Line, key, "unknown key; did you mean %s?", strings.Join(near, " or "))
			} else {
				c.Add(k.Line, key, "unknown key (known: %s)", strings.Join(known, ", "))
			}
			continue
		}
		c.Mark(key, k.Line)
		read(v, key)
	}
}

// String reads any scalar as written.
func (c *Checker) String(dst *string) Reader {
	return func(n *yaml.Node, key string) {
		n = Resolve(n)
		if IsNull(n) || n.Kind != yaml.ScalarNode {
			c.Add(line(n), key, "want a string, got %s", Describe(n))
			return
		}
		*dst = n.Value
	}
}

// Bool reads true or false.
func (c *Checker) Bool(dst *bool) Reader {
	return func(n *yaml.Node, key string) {
		n = Resolve(n)
		if IsNull(n) || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(dst) != nil {
			c.Add(line(n), key, "want true or false, got %s", Describe(n))
		}
	}
}

// Int reads a whole number that fits an int.
func (c *Checker) Int(dst *int) Reader { return whole(c, dst, "want a whole number") }

// Uint64 reads a whole number from 0 to 2^64-1.
func (c *Checker) Uint64(dst *uint64) Reader {
	return whole(c, dst, "want a whole number from 0 to 18446744073709551615")
}

func whole[T int | uint64](c *Checker, dst *T, want string) Reader {
	return func(n *yaml.Node, key string) {
		n = Resolve(n)
		var x T
		if IsNull(n) || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&x) != nil {
			c.Add(line(n), key, "%s, got %s", want, Describe(n))
			return
		}
		*dst = x
	}
}

// Number reads a finite number.
func (c *Checker) Number(dst *float64) Reader {
	return func(n *yaml.Node, key string) {
		x, msg := Float(n)
		if msg != "" {
			c.Add(line(Resolve(n)), key, "%s", msg)
			return
		}
		*dst = x
	}
}

// Names reads a list of names; a single name stands for a list of one.
// Each entry's line is recorded as key[i], so later checks (an unknown
// player) point at the entry itself.
func (c *Checker) Names(dst *[]string) Reader {
	return func(n *yaml.Node, key string) {
		n = Resolve(n)
		if !IsNull(n) && n.Kind == yaml.ScalarNode {
			*dst = []string{n.Value}
			c.Mark(key+"[0]", n.Line)
			return
		}
		if IsNull(n) || n.Kind != yaml.SequenceNode {
			c.Add(line(n), key, "want a list of names, got %s", Describe(n))
			return
		}
		*dst = nil
		for i, item := range n.Content {
			item = Resolve(item)
			at := fmt.Sprintf("%s[%d]", key, i)
			if IsNull(item) || item.Kind != yaml.ScalarNode {
				c.Add(line(item), at, "want a name, got %s", Describe(item))
				continue
			}
			c.Mark(at, item.Line)
			*dst = append(*dst, item.Value)
		}
	}
}

// Options reads a mapping of option: value as strings (game rule
// options); a list value is joined with commas
// (fleet: [5, 4, 3] is "5,4,3"). Each option's line is recorded as
// key.option.
func (c *Checker) Options(dst *map[string]string) Reader { return c.mapping(dst, true) }

// Scalars reads a mapping of names to single values (a program's
// environment): a list is refused, not joined.
func (c *Checker) Scalars(dst *map[string]string) Reader { return c.mapping(dst, false) }

// mapping reads a mapping of names to values, a list joined with commas
// when lists is set.
func (c *Checker) mapping(dst *map[string]string, lists bool) Reader {
	return func(n *yaml.Node, key string) {
		var pairs []Pair
		if !c.pairs(n, key, lists, &pairs) {
			return
		}
		*dst = make(map[string]string, len(pairs))
		for _, p := range pairs {
			(*dst)[p.Key] = p.Value
		}
	}
}

// Pair is one name: value of a mapping.
type Pair struct{ Key, Value string }

// Pairs reads a mapping of names to single values in the order written
// (a UCI engine's options, sent in that order); a list is refused.
func (c *Checker) Pairs(dst *[]Pair) Reader {
	return func(n *yaml.Node, key string) {
		var pairs []Pair
		if c.pairs(n, key, false, &pairs) {
			*dst = pairs
		}
	}
}

// pairs reads a mapping of names to values in order, each name's line
// recorded as key.name; false for a null node or one that is no mapping.
func (c *Checker) pairs(n *yaml.Node, key string, lists bool, dst *[]Pair) bool {
	ok := c.Each(n, key, func(name string, v *yaml.Node, at string) {
		v = Resolve(v)
		switch {
		case !IsNull(v) && v.Kind == yaml.ScalarNode:
			*dst = append(*dst, Pair{name, v.Value})
		case !IsNull(v) && v.Kind == yaml.SequenceNode && lists:
			parts := make([]string, len(v.Content))
			for j, item := range v.Content {
				parts[j] = Resolve(item).Value
			}
			*dst = append(*dst, Pair{name, strings.Join(parts, ",")})
		default:
			c.Add(line(v), at, "want a value, got %s", Describe(v))
		}
	})
	return ok && !IsNull(Resolve(n))
}

// Each reads a mapping whose keys are names the user chooses (an
// engine's name, an option's): read is called for each name with its
// value and its key (key.name), whose line is recorded; a name given
// twice and a node that is no mapping are problems. A null node is an
// empty mapping. It returns false when n is no mapping.
func (c *Checker) Each(n *yaml.Node, key string, read func(name string, v *yaml.Node, at string)) bool {
	n = Resolve(n)
	if IsNull(n) {
		return true
	}
	if n.Kind != yaml.MappingNode {
		c.Add(n.Line, key, "want a mapping of option: value, got %s", Describe(n))
		return false
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Resolve(n.Content[i]), n.Content[i+1]
		at := Join(key, k.Value)
		if first, dup := seen[k.Value]; dup {
			c.Add(k.Line, at, "given twice (first on line %d)", first)
			continue
		}
		seen[k.Value] = k.Line
		c.Mark(at, k.Line)
		read(k.Value, v, at)
	}
	return true
}

// Node keeps the value node for a reader that knows its shape (a
// parameter space, read by genome).
func (c *Checker) Node(dst **yaml.Node) Reader {
	return func(n *yaml.Node, _ string) { *dst = n }
}

// Float reads a finite number, or says why it cannot.
func Float(n *yaml.Node) (float64, string) {
	n = Resolve(n)
	if IsNull(n) || n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") {
		return 0, "want a number, got " + Describe(n)
	}
	var x float64
	if err := n.Decode(&x); err != nil {
		return 0, "want a number, got " + Describe(n)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, "want a finite number, got " + n.Value
	}
	return x, ""
}

// Bool reads true or false, or says why it cannot.
func Bool(n *yaml.Node) (bool, string) {
	n = Resolve(n)
	var b bool
	if IsNull(n) || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
		return false, "want true or false, got " + Describe(n)
	}
	return b, ""
}

// Resolve steps through documents and aliases to the node they stand for.
func Resolve(n *yaml.Node) *yaml.Node {
	for range 64 { // an alias cannot point at an alias, but stay bounded
		switch {
		case n == nil:
			return nil
		case n.Kind == yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		case n.Kind == yaml.AliasNode:
			if n.Alias == nil {
				return n // not made by the parser; reported as a bad value
			}
			n = n.Alias
		default:
			return n
		}
	}
	return nil
}

// IsNull reports whether n is missing or null.
func IsNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// Describe names what a node holds, for "want X, got Y" messages.
func Describe(n *yaml.Node) string {
	switch {
	case IsNull(n):
		return "nothing"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!bool":
		return n.Value
	case "!!str":
		return strconv.Quote(n.Value)
	}
	return n.ShortTag() + " " + strconv.Quote(n.Value)
}

func line(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

// Report records a problem at key, at the line key (or its closest
// written parent) was written on.
func (c *Checker) Report(key, format string, args ...any) {
	c.Add(c.Line(key), key, format, args...)
}

// Validate runs check, the validation step, in a fork of c, and adds the
// problems it finds at keys that decoding found none at (a key that
// failed to decode has said what is wrong with it). It returns every
// problem, in line order (Err).
func (c *Checker) Validate(check func(p *Checker)) error {
	decoded := c.Errors()
	p := c.Fork()
	check(p)
	for _, e := range p.Errors() {
		if !decoded.Covers(e.Key) {
			c.AddErrors(Errors{e})
		}
	}
	return c.Err()
}

// Unprefixed is err's message without its package prefix ("genome: "),
// for a message shown after a file:line: key: prefix of its own.
func Unprefixed(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 && !strings.ContainsAny(msg[:i], " .") {
		return msg[i+2:]
	}
	return msg
}
