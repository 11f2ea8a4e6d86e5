package genome

import (
	"slices"
	"testing"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

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
			v, msg := readGrid(p, yamlcheck.Resolve(&n))
			if msg != tc.want {
				t.Fatalf("readGrid(%s): message %q, want %q", tc.doc, msg, tc.want)
			}
			if msg == "" && !slices.Equal(v.Cells, []float64{1, 2, 3, 4}) {
				t.Fatalf("readGrid(%s) = %v, want cells 1 2 3 4", tc.doc, v.Cells)
			}
		})
	}
}
