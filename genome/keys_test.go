package genome

import (
	"errors"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/yamlcheck"
)

// TestNarrowGridSize restates a declared non-square grid's size: the
// right size is accepted and each wrong one is reported against its own
// key with the declared value of that key, so rows and cols cannot trade
// places (a square grid could not tell them apart).
func TestNarrowGridSize(t *testing.T) {
	schema := Schema{{Name: "w", Kind: Grid, Rows: 2, Cols: 3, Min: -1, Max: 1, Symmetry: Full,
		Default: Value{Cells: make([]float64, 6)}}}
	tests := []struct {
		name  string
		space string
		want  []string // LineErrors in order; none means accepted
	}{
		{name: "declared size restated", space: "w: {rows: 2, cols: 3}\n"},
		{name: "rows restated", space: "w: {rows: 2}\n"},
		{name: "cols restated", space: "w: {cols: 3}\n"},
		{
			name:  "rows and cols swapped",
			space: "w: {rows: 3, cols: 2}\n",
			want: []string{
				"line 1: space.w.rows: the player declares 2 rows; a grid's size cannot change",
				"line 1: space.w.cols: the player declares 3 cols; a grid's size cannot change",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSpace(schema, parseNode(t, tc.space))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("NewSpace: %v", err)
				}
				if p := s.Params()[0]; p.Rows != 2 || p.Cols != 3 {
					t.Errorf("grid %dx%d, want 2x3", p.Rows, p.Cols)
				}
				return
			}
			if got := lineErrors(t, err); got != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", got, strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestDeclareUnknownKey checks the key list an unknown key names when
// there is no declared schema: the keys of the parameter's own type once
// the type is known, every key while it is not.
func TestDeclareUnknownKey(t *testing.T) {
	tests := []struct {
		name  string
		space string
		want  string
	}{
		{
			name:  "type known",
			space: "x: {type: bool, colour: red}\n",
			want:  "line 1: space.x.colour: unknown key; want one of " + keysFor(Bool, declareKeys),
		},
		{
			name:  "type missing",
			space: "x: {colour: red}\n",
			want: "line 1: space.x.type: missing; want float, int, bool, choice or grid\n" +
				"line 1: space.x.colour: unknown key; want one of " + strings.Join(declareKeys, ", "),
		},
	}
	if keysFor(Bool, declareKeys) == strings.Join(declareKeys, ", ") {
		t.Fatal("a bool takes every declare key; the cases cannot tell the two lists apart")
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSpace(nil, parseNode(t, tc.space))
			if got := lineErrors(t, err); got != tc.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// lineErrors renders err, which must be yamlcheck.Errors, one error a line.
func lineErrors(t *testing.T, err error) string {
	t.Helper()
	var errs yamlcheck.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v (%T), want yamlcheck.Errors", err, err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	return strings.Join(got, "\n")
}

// TestDeclareEdges puts declared parameters on the edges of what a free
// space accepts: a range of one value, a grid of exactly the largest size,
// and a default just outside its range.
func TestDeclareEdges(t *testing.T) {
	tests := []struct {
		name  string
		space string
		want  string // the errors, one a line; "" when accepted
	}{
		{name: "min equal to max", space: "x: {type: float, min: 2, max: 2}\ny: {type: bool}\n"},
		{name: "min above max", space: "x: {type: float, min: 2.5, max: 2}\n",
			want: "line 1: space.x.min: 2.5 is above max 2"},
		{name: "grid of the largest size", space: "x: {type: grid, rows: 256, cols: 256, min: 0, max: 1, symmetry: full}\n"},
		{name: "grid one column larger", space: "x: {type: grid, rows: 256, cols: 257, min: 0, max: 1, symmetry: full}\n",
			want: "line 1: space.x.rows: a 256x257 grid has more than 65536 cells"},
		{name: "default inside", space: "x: {type: int, min: 0, max: 5, default: 5}\n"},
		{name: "default above max", space: "x: {type: int, min: 0, max: 5, default: 6}\n",
			want: "line 1: space.x.default: 6 is above the maximum 5"},
		{name: "fix above max", space: "x: {type: int, min: 0, max: 5, fix: 6}\ny: {type: bool}\n",
			want: "line 1: space.x.fix: 6 is above the maximum 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSpace(nil, parseNode(t, tc.space))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("NewSpace: %v", err)
				}
				return
			}
			if got := lineErrors(t, err); got != tc.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestNarrowRange narrows a declared parameter to a range of one value,
// which is allowed, and to an empty range, which is not.
func TestNarrowRange(t *testing.T) {
	tests := []struct {
		name  string
		space string
		want  string // the errors, one a line; "" when accepted
	}{
		{name: "one value", space: "edge: {min: 3, max: 3}\n"},
		{name: "empty", space: "edge: {min: 4, max: 3}\n", want: "line 1: space.edge.min: 4 is above max 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSpace(testSchema(), parseNode(t, tc.space))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("NewSpace: %v", err)
				}
				if p := s.Params()[0]; p.Min != 3 || p.Max != 3 {
					t.Errorf("edge in [%v, %v], want [3, 3]", p.Min, p.Max)
				}
				return
			}
			if got := lineErrors(t, err); got != tc.want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
