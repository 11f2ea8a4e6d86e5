package genome

import (
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestLineErrorText: a known line leads the message; line 0 means unknown
// and is left out rather than printed as "line 0".
func TestLineErrorText(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    LineError
		want string
	}{
		{"known line", LineError{Line: 3, Key: "space.edge.min", Msg: "want a number"}, "line 3: space.edge.min: want a number"},
		{"first line", LineError{Line: 1, Key: "space", Msg: "empty"}, "line 1: space: empty"},
		{"unknown line", LineError{Line: 0, Key: "space.edge", Msg: "min above max"}, "space.edge: min above max"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Error(); got != tc.want {
				t.Fatalf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadGridShapes: a grid value of the wrong shape, an empty list
// included, is a message naming both accepted shapes, never a panic.
func TestReadGridShapes(t *testing.T) {
	p := &Param{Name: "w", Kind: Grid, Rows: 2, Cols: 2}
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"empty list", "[]", "want 4 numbers, or 2 lists of 2, got 0 numbers"},
		{"flat, too short", "[1, 2, 3]", "want 4 numbers, or 2 lists of 2, got 3 numbers"},
		{"rows, too few", "[[1, 2]]", "want 4 numbers, or 2 lists of 2, got 1 lists"},
		{"flat", "[1, 2, 3, 4]", ""},
		{"rows", "[[1, 2], [3, 4]]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(tc.doc), &n); err != nil {
				t.Fatal(err)
			}
			v, msg := readGrid(p, resolve(&n))
			if msg != tc.want {
				t.Fatalf("readGrid(%s): message %q, want %q", tc.doc, msg, tc.want)
			}
			if msg == "" && !slices.Equal(v.Cells, []float64{1, 2, 3, 4}) {
				t.Fatalf("readGrid(%s) = %v, want cells 1 2 3 4", tc.doc, v.Cells)
			}
		})
	}
}
