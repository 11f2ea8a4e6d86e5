package genome

import (
	"slices"
	"strings"
	"testing"
)

func TestGridClasses(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		sym        Symmetry
		n          int
		class      []int // checked when not nil
	}{
		{name: "10x10 full", rows: 10, cols: 10, sym: Full, n: 100},
		{name: "10x10 ring", rows: 10, cols: 10, sym: Ring, n: 5},
		{name: "10x10 dihedral", rows: 10, cols: 10, sym: Dihedral, n: 15}, // (n/2)(n/2+1)/2
		{name: "3x3 full", rows: 3, cols: 3, sym: Full, n: 9, class: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{name: "3x3 ring", rows: 3, cols: 3, sym: Ring, n: 2, class: []int{0, 0, 0, 0, 1, 0, 0, 0, 0}},
		{name: "3x3 dihedral", rows: 3, cols: 3, sym: Dihedral, n: 3, class: []int{0, 1, 0, 1, 2, 1, 0, 1, 0}},
		{name: "4x4 dihedral", rows: 4, cols: 4, sym: Dihedral, n: 3,
			class: []int{0, 1, 1, 0, 1, 2, 2, 1, 1, 2, 2, 1, 0, 1, 1, 0}},
		{name: "2x3 full", rows: 2, cols: 3, sym: Full, n: 6},
		{name: "2x3 ring", rows: 2, cols: 3, sym: Ring, n: 1, class: []int{0, 0, 0, 0, 0, 0}},
		{name: "2x3 dihedral", rows: 2, cols: 3, sym: Dihedral, n: 2, class: []int{0, 1, 0, 0, 1, 0}},
		{name: "3x5 ring", rows: 3, cols: 5, sym: Ring, n: 2,
			class: []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0}},
		// Without a transpose, rows {0,2} x cols {0,4}, {1,3}, {2}, and row 1 likewise.
		{name: "3x5 dihedral", rows: 3, cols: 5, sym: Dihedral, n: 6,
			class: []int{0, 1, 2, 1, 0, 3, 4, 5, 4, 3, 0, 1, 2, 1, 0}},
		{name: "1x1 dihedral", rows: 1, cols: 1, sym: Dihedral, n: 1, class: []int{0}},
		{name: "1x4 ring", rows: 1, cols: 4, sym: Ring, n: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			class, n := GridClasses(tc.rows, tc.cols, tc.sym)
			if n != tc.n {
				t.Errorf("%d classes, want %d", n, tc.n)
			}
			if tc.class != nil && !slices.Equal(class, tc.class) {
				t.Errorf("classes %v, want %v", class, tc.class)
			}
			checkClassInvariants(t, tc.rows, tc.cols, tc.sym, class, n)
		})
	}
}

// checkClassInvariants checks what any class map must satisfy: numbering
// by first appearance, and cells the symmetry maps onto each other sharing
// a class.
func checkClassInvariants(t *testing.T, rows, cols int, sym Symmetry, class []int, n int) {
	t.Helper()
	next := 0
	for i, c := range class {
		if c > next {
			t.Fatalf("cell %d has class %d before class %d appeared", i, c, next)
		}
		if c == next {
			next++
		}
	}
	if next != n {
		t.Fatalf("%d classes appear, n = %d", next, n)
	}
	at := func(r, c int) int { return class[r*cols+c] }
	for r := range rows {
		for c := range cols {
			switch sym {
			case Dihedral:
				images := [][2]int{{rows - 1 - r, c}, {r, cols - 1 - c}}
				if rows == cols {
					images = append(images, [2]int{c, r})
				}
				for _, im := range images {
					if at(im[0], im[1]) != at(r, c) {
						t.Errorf("(%d,%d) and its image (%d,%d) differ", r, c, im[0], im[1])
					}
				}
			case Ring:
				d := min(r, c, rows-1-r, cols-1-c)
				for r2 := range rows {
					for c2 := range cols {
						if min(r2, c2, rows-1-r2, cols-1-c2) == d && at(r2, c2) != at(r, c) {
							t.Errorf("(%d,%d) and (%d,%d) are both %d from the edge but differ", r, c, r2, c2, d)
						}
					}
				}
			}
		}
	}
}

func TestExpandReduce(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		sym        Symmetry
	}{
		{"10x10 ring", 10, 10, Ring},
		{"10x10 dihedral", 10, 10, Dihedral},
		{"3x5 dihedral", 3, 5, Dihedral},
		{"3x3 full", 3, 3, Full},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, n := GridClasses(tc.rows, tc.cols, tc.sym)
			free := make([]float64, n)
			for i := range free {
				free[i] = 0.1 * float64(i+1) // values whose plain mean is inexact
			}
			cells := Expand(free, tc.rows, tc.cols, tc.sym)
			if len(cells) != tc.rows*tc.cols {
				t.Fatalf("%d cells", len(cells))
			}
			if got := Reduce(cells, tc.rows, tc.cols, tc.sym); !slices.Equal(got, free) {
				t.Errorf("Reduce(Expand(w)) = %v, want %v exactly", got, free)
			}
		})
	}
	t.Run("mean of a class", func(t *testing.T) {
		got := Reduce([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3, Ring)
		if want := []float64{5, 5}; !slices.Equal(got, want) {
			t.Errorf("Reduce = %v, want %v", got, want)
		}
	})
}

func TestSchemaValidate(t *testing.T) {
	tests := []struct {
		name   string
		schema Schema
		want   string // substring of the error; "" for none
	}{
		{"test schema", testSchema(), ""},
		{"no name", Schema{{Kind: Bool}}, "has no name"},
		{"twice", Schema{{Name: "a", Kind: Bool}, {Name: "a", Kind: Bool}}, "declared twice"},
		{"min above max", Schema{{Name: "a", Kind: Float, Min: 2, Max: 1, Default: Value{Num: 1.5}}}, "bad range"},
		{"log from zero", Schema{{Name: "a", Kind: Float, Max: 1, Log: true}}, "log scale"},
		{"no choices", Schema{{Name: "a", Kind: Choice}}, "no choices"},
		{"unknown kind", Schema{{Name: "a", Kind: 9}}, "unknown kind"},
		{"empty grid", Schema{{Name: "a", Kind: Grid, Symmetry: Full}}, "grid of 0x0"},
		{"grid without symmetry", Schema{{Name: "a", Kind: Grid, Rows: 1, Cols: 1, Max: 1, Default: Value{Cells: []float64{0}}}}, "symmetry"},
		{"grid with a bad symmetry", Schema{{Name: "a", Kind: Grid, Rows: 1, Cols: 1, Max: 1, Symmetry: 7, Default: Value{Cells: []float64{0}}}}, "symmetry"},
		{"fractional int range", Schema{{Name: "a", Kind: Int, Min: 0.5, Max: 3, Default: Value{Num: 1}}}, "not integral"},
		{"default outside", Schema{{Name: "a", Kind: Int, Min: 1, Max: 3}}, "outside"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.schema.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestParamCheck(t *testing.T) {
	s := testSchema()
	p := func(name string) *Param { q, _ := s.Lookup(name); return q }
	tests := []struct {
		name  string
		param string
		v     Value
		ok    bool
	}{
		{"float inside", "edge", Value{Num: 10}, true},
		{"float above", "edge", Value{Num: 10.5}, false},
		{"float NaN", "edge", Value{Num: nan()}, false},
		{"int", "depth", Value{Num: 8}, true},
		{"int fraction", "depth", Value{Num: 2.5}, false},
		{"bool", "parity", Value{Num: 1}, true},
		{"bool 2", "parity", Value{Num: 2}, false},
		{"choice", "style", Value{Str: "parity"}, true},
		{"choice unknown", "style", Value{Str: "clever"}, false},
		{"grid", "weights", Value{Cells: make([]float64, 16)}, true},
		{"grid short", "weights", Value{Cells: make([]float64, 15)}, false},
		{"grid cell out", "weights", Value{Cells: append(make([]float64, 15), 2)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := p(tc.param).Check(tc.v); (err == nil) != tc.ok {
				t.Errorf("Check = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

func TestParseNames(t *testing.T) {
	for _, k := range []Kind{Float, Int, Bool, Choice, Grid} {
		t.Run(k.String(), func(t *testing.T) {
			if got, err := ParseKind(k.String()); err != nil || got != k {
				t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
			}
		})
	}
	for _, sym := range []Symmetry{Full, Ring, Dihedral} {
		t.Run(sym.String(), func(t *testing.T) {
			if got, err := ParseSymmetry(sym.String()); err != nil || got != sym {
				t.Errorf("ParseSymmetry(%q) = %v, %v", sym, got, err)
			}
		})
	}
	for _, c := range []Crossover{Uniform, Blend} {
		t.Run(c.String(), func(t *testing.T) {
			text, err := c.MarshalText()
			var got Crossover
			if err == nil {
				err = got.UnmarshalText(text)
			}
			if err != nil || got != c {
				t.Errorf("crossover %v round trip = %v, %v", c, got, err)
			}
		})
	}
	t.Run("unknown names", func(t *testing.T) {
		if _, err := ParseKind("real"); err == nil {
			t.Error("ParseKind(real) succeeded")
		}
		if _, err := ParseSymmetry("hex"); err == nil {
			t.Error("ParseSymmetry(hex) succeeded")
		}
		if _, err := ParseCrossover("one-point"); err == nil || !strings.HasPrefix(err.Error(), "genome: ") {
			t.Errorf("ParseCrossover(one-point) = %v", err)
		}
		if Kind(0).String() != "Kind(0)" || Symmetry(9).String() != "Symmetry(9)" || Crossover(7).String() != "Crossover(7)" {
			t.Error("unnamed values print badly")
		}
	})
}

// TestIntRangesPrintAsInts: an int's range and the messages about it
// write its bounds in full (1048576), as a user writes them, where %v
// wrote 1.048576e+06; floats keep their shortest form.
func TestIntRangesPrintAsInts(t *testing.T) {
	exact := &Param{Name: "exact", Kind: Int, Min: 0, Max: 1 << 20, Default: Value{Num: 65536}}
	samples := &Param{Name: "samples", Kind: Int, Min: 8, Max: 8192, Log: true, Default: Value{Num: 256}}
	rate := &Param{Name: "rate", Kind: Float, Min: 1e-9, Max: 2e6, Default: Value{Num: 1}}
	tests := []struct {
		name, got, want string
	}{
		{"int range", exact.Range(), "[0, 1048576]"},
		{"log int range", samples.Range(), "[8, 8192] log"},
		{"float range", rate.Range(), "[1e-09, 2e+06]"},
		{"int outside", errText(exact.Check(Value{Num: 2_000_000})), "exact: 2000000 is outside [0, 1048576]"},
		{"int above", outside(exact, Value{Num: 2_000_000}, ""), "2000000 is above the maximum 1048576"},
		{"int below", outside(samples, Value{Num: 1}, "seed's "), "1 is below the seed's minimum 8"},
		{"float above", outside(rate, Value{Num: 3e6}, ""), "3e+06 is above the maximum 2e+06"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("%q, want %q", tc.got, tc.want)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
