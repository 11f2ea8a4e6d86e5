package genome

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
)

// Values is one assignment of a schema's parameters, read by players through
// typed accessors. It is immutable once built, so players may share it
// across goroutines.
type Values struct {
	schema Schema
	vals   []Value // parallel to schema
}

// Defaults returns the schema's default values.
func (s Schema) Defaults() Values {
	v := Values{schema: s, vals: make([]Value, len(s))}
	for i := range s {
		v.vals[i] = cloneValue(s[i].Default)
	}
	return v
}

// Schema returns the schema the values belong to.
func (v Values) Schema() Schema { return v.schema }

// With returns a copy of v with the parameter name set to x, checked
// against its range.
func (v Values) With(name string, x Value) (Values, error) {
	i := v.index(name)
	if i < 0 {
		return Values{}, fmt.Errorf("genome: unknown parameter %q", name)
	}
	if err := v.schema[i].Check(x); err != nil {
		return Values{}, fmt.Errorf("genome: %w", err)
	}
	out := Values{schema: v.schema, vals: slices.Clone(v.vals)}
	out.vals[i] = cloneValue(x)
	return out, nil
}

// Get returns the raw value of the named parameter.
func (v Values) Get(name string) Value { return v.vals[v.mustIndex(name, 0)] }

// At returns the raw value of the schema's i-th parameter (Schema()[i]):
// Get without the search by name, for a caller reading every parameter
// of many Values. The value is shared: callers must not modify it.
func (v Values) At(i int) Value { return v.vals[i] }

// Float returns a Float parameter.
func (v Values) Float(name string) float64 { return v.vals[v.mustIndex(name, Float)].Num }

// Int returns an Int parameter.
func (v Values) Int(name string) int { return int(v.vals[v.mustIndex(name, Int)].Num) }

// Bool returns a Bool parameter.
func (v Values) Bool(name string) bool { return v.vals[v.mustIndex(name, Bool)].Num != 0 }

// Choice returns a Choice parameter.
func (v Values) Choice(name string) string { return v.vals[v.mustIndex(name, Choice)].Str }

// Grid returns the Rows*Cols cells of a Grid parameter in row-major order.
// The slice is shared: callers must not modify it.
func (v Values) Grid(name string) []float64 { return v.vals[v.mustIndex(name, Grid)].Cells }

func (v Values) index(name string) int {
	for i := range v.schema {
		if v.schema[i].Name == name {
			return i
		}
	}
	return -1
}

// mustIndex panics on a name the player did not declare: that is a
// programmer error, caught by the first test that builds the player.
func (v Values) mustIndex(name string, kind Kind) int {
	i := v.index(name)
	if i < 0 {
		panic("genome: no parameter " + strconv.Quote(name))
	}
	if kind != 0 && v.schema[i].Kind != kind {
		panic(fmt.Sprintf("genome: parameter %q is a %v, read as %v", name, v.schema[i].Kind, kind))
	}
	return i
}

// Map returns the values as plain Go values keyed by name (float64, int,
// bool, string, []float64), for YAML/JSON output. Encoders sort map keys,
// so the output is deterministic.
func (v Values) Map() map[string]any {
	m := make(map[string]any, len(v.vals))
	for i := range v.schema {
		m[v.schema[i].Name] = plain(&v.schema[i], v.vals[i])
	}
	return m
}

func plain(p *Param, x Value) any {
	switch p.Kind {
	case Int:
		return int(x.Num)
	case Bool:
		return x.Num != 0
	case Choice:
		return x.Str
	case Grid:
		return slices.Clone(x.Cells)
	default:
		return x.Num
	}
}

// FromMap builds values from plain Go values as decoded from YAML or JSON
// (numbers may arrive as int or float64; a grid as a flat list of Rows*Cols
// numbers or as Rows lists of Cols). Parameters not named keep their
// defaults; unknown names and out-of-range values are errors, all reported.
func (s Schema) FromMap(m map[string]any) (Values, error) {
	v := s.Defaults()
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names) // report errors in a stable order
	var errs []error
	for _, name := range names {
		i := v.index(name)
		if i < 0 {
			errs = append(errs, fmt.Errorf("unknown parameter %q", name))
			continue
		}
		p := &s[i]
		x, err := fromPlain(p, m[name])
		if err == nil {
			err = p.Check(x)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		v.vals[i] = x
	}
	if len(errs) > 0 {
		return Values{}, errors.Join(errs...)
	}
	return v, nil
}

func fromPlain(p *Param, a any) (Value, error) {
	switch p.Kind {
	case Float, Int:
		x, ok := number(a)
		if !ok {
			return Value{}, fmt.Errorf("%s: want a number, got %v", p.Name, describe(a))
		}
		return Value{Num: x}, nil
	case Bool:
		b, ok := a.(bool)
		if !ok {
			return Value{}, fmt.Errorf("%s: want true or false, got %v", p.Name, describe(a))
		}
		if b {
			return Value{Num: 1}, nil
		}
		return Value{Num: 0}, nil
	case Choice:
		str, ok := a.(string)
		if !ok {
			return Value{}, fmt.Errorf("%s: want one of %v, got %v", p.Name, p.Choices, describe(a))
		}
		return Value{Str: str}, nil
	case Grid:
		// Map gives a grid as []float64; accept that too, so that
		// FromMap(v.Map()) round-trips without an encoder in between.
		var list []any
		switch x := a.(type) {
		case []any:
			list = x
		case []float64:
			for _, c := range x {
				list = append(list, c)
			}
		case [][]float64:
			for _, row := range x {
				list = append(list, row)
			}
		default:
			return Value{}, fmt.Errorf("%s: want a list of %d numbers, got %v", p.Name, p.Rows*p.Cols, describe(a))
		}
		var cells []float64
		for _, item := range list {
			if row, ok := item.([]float64); ok {
				cells = append(cells, row...)
				continue
			}
			if row, ok := item.([]any); ok {
				for _, c := range row {
					x, ok := number(c)
					if !ok {
						return Value{}, fmt.Errorf("%s: want numbers, got %v", p.Name, describe(c))
					}
					cells = append(cells, x)
				}
				continue
			}
			x, ok := number(item)
			if !ok {
				return Value{}, fmt.Errorf("%s: want numbers, got %v", p.Name, describe(item))
			}
			cells = append(cells, x)
		}
		return Value{Cells: cells}, nil
	}
	return Value{}, fmt.Errorf("%s: unknown kind %v", p.Name, p.Kind)
}

func number(a any) (float64, bool) {
	switch x := a.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint32:
		return float64(x), true
	case float32:
		return float64(x), !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

func describe(a any) string {
	if a == nil {
		return "nothing"
	}
	return fmt.Sprintf("%T %v", a, a)
}

func cloneValue(x Value) Value {
	x.Cells = slices.Clone(x.Cells)
	return x
}

// Expand turns the free weights of a grid (one per class under sym) into
// all rows*cols cells.
func Expand(free []float64, rows, cols int, sym Symmetry) []float64 {
	class, n := GridClasses(rows, cols, sym)
	if len(free) != n {
		panic(fmt.Sprintf("genome: %d free weights for a %dx%d %v grid with %d classes", len(free), rows, cols, sym, n))
	}
	cells := make([]float64, rows*cols)
	for i, c := range class {
		cells[i] = free[c]
	}
	return cells
}

// Reduce projects full cells onto the free weights of sym: each class gets
// the mean of its cells. Reduce(Expand(w)) == w exactly.
func Reduce(cells []float64, rows, cols int, sym Symmetry) []float64 {
	class, n := GridClasses(rows, cols, sym)
	if len(cells) != len(class) {
		panic(fmt.Sprintf("genome: %d cells for a %dx%d grid", len(cells), rows, cols))
	}
	return reduceClasses(cells, class, n)
}
