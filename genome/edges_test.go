package genome

import (
	"math"
	"slices"
	"testing"
)

// TestNullSeedIsTheDefaults: a seed written as null ("- ~", "- null")
// is the player's defaults, like "- {}".
func TestNullSeedIsTheDefaults(t *testing.T) {
	s := mustSpace(t, testSchema(), "")
	want, err := s.Encode(testSchema().Defaults())
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := s.ParseSeeds(parseNode(t, "- ~\n- null\n- {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) != 3 {
		t.Fatalf("%d seeds, want 3", len(seeds))
	}
	for i, g := range seeds {
		if !slices.Equal(g, want) {
			t.Fatalf("seed %d: %v, want the defaults %v", i, g, want)
		}
	}
}

// TestParseValuesNotAMapping: values that are not a mapping are refused
// at their line; no node at all has no line.
func TestParseValuesNotAMapping(t *testing.T) {
	schema := testSchema()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"nothing", "", "want a mapping of parameter names to values, got nothing"},
		{"a list on line 3", "\n\n[1, 2]\n", "line 3: want a mapping of parameter names to values, got a list"},
		{"a number on line 2", "\n7\n", "line 2: want a mapping of parameter names to values, got the number 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.ParseValues(parseNode(t, tc.text))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestGeneThresholds: a bool gene is true from 0.5 up, in Decode and in
// Project; a float gene of 0 or 1 decodes to the range's end exactly,
// however many digits it has.
func TestGeneThresholds(t *testing.T) {
	s := mustSpace(t, Schema{{Name: "b", Kind: Bool, Default: Value{Num: 1}}}, "")
	for _, tc := range []struct {
		gene float64
		want bool
	}{{0.5, true}, {math.Nextafter(0.5, 0), false}, {0, false}, {1, true}} {
		v, err := s.Decode([]float64{tc.gene})
		if err != nil {
			t.Fatal(err)
		}
		if v.Bool("b") != tc.want {
			t.Errorf("Decode(%v) = %v, want %v", tc.gene, v.Bool("b"), tc.want)
		}
		wantGene := 0.25
		if tc.want {
			wantGene = 0.75
		}
		if g := s.Project([]float64{tc.gene}); g[0] != wantGene {
			t.Errorf("Project(%v) = %v, want %v", tc.gene, g[0], wantGene)
		}
	}
	for _, p := range []Param{
		{Name: "x", Kind: Float, Min: 0.12345678901299, Max: 9.87654321098799, Default: Value{Num: 1}},
		{Name: "x", Kind: Float, Min: 0.12345678901299, Max: 9.87654321098799, Log: true, Default: Value{Num: 1}},
		{Name: "x", Kind: Float, Min: -3.00000000000049, Max: 1e-13, Default: Value{Num: 0}},
	} {
		s := mustSpace(t, Schema{p}, "")
		for _, tc := range []struct{ gene, want float64 }{{0, p.Min}, {1, p.Max}} {
			v, err := s.Decode([]float64{tc.gene})
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Float("x"); got != tc.want {
				t.Errorf("[%v, %v] log %v: gene %v decodes to %v, want %v", p.Min, p.Max, p.Log, tc.gene, got, tc.want)
			}
		}
	}
}

// TestLogScale: on a log scale, the middle gene is the geometric mean of
// the range (floats), the integer nearest it (ints), and equal steps of
// the gene are equal ratios.
func TestLogScale(t *testing.T) {
	s := mustSpace(t, Schema{
		{Name: "f", Kind: Float, Min: 1, Max: 10000, Log: true, Default: Value{Num: 1}},
		{Name: "i", Kind: Int, Min: 1, Max: 999, Log: true, Default: Value{Num: 1}},
		{Name: "l", Kind: Float, Min: 1, Max: 10000, Default: Value{Num: 1}},
	}, "")
	for _, tc := range []struct {
		gene    float64
		f, i, l float64
	}{
		// An int's scale runs from log(Min-0.5) to log(Max+0.5): gene g is
		// 0.5 * 1999^g before rounding.
		{0.5, 100, 22, 5000.5},
		{0.25, 10, 3, 2500.75},
		{0.75, 1000, 149, 7500.25},
	} {
		v, err := s.Decode([]float64{tc.gene, tc.gene, tc.gene})
		if err != nil {
			t.Fatal(err)
		}
		if v.Float("f") != tc.f || float64(v.Int("i")) != tc.i || v.Float("l") != tc.l {
			t.Errorf("gene %v: f %v, i %v, l %v; want %v, %v, %v", tc.gene, v.Float("f"), v.Int("i"), v.Float("l"), tc.f, tc.i, tc.l)
		}
	}
}

// TestEncodeAndFromMapGridMessages: a grid of the wrong size or type is
// refused with the number of cells it needs.
func TestEncodeAndFromMapGridMessages(t *testing.T) {
	schema := Schema{{Name: "w", Kind: Grid, Rows: 2, Cols: 3, Min: 0, Max: 1, Symmetry: Full, Default: Value{Cells: make([]float64, 6)}}}
	s := mustSpace(t, schema, "")
	short := Values{schema: schema, vals: []Value{{Cells: []float64{0, 1}}}}
	if _, err := s.Encode(short); err == nil || err.Error() != "genome: w: 2 cells, want 6" {
		t.Errorf("Encode: %v", err)
	}
	for _, tc := range []struct {
		val  any
		want string
	}{
		{"abc", "w: want a list of 6 numbers, got string abc"},
		{nil, "w: want a list of 6 numbers, got nothing"},
	} {
		if _, err := schema.FromMap(map[string]any{"w": tc.val}); err == nil || err.Error() != tc.want {
			t.Errorf("FromMap(%v): %v, want %q", tc.val, err, tc.want)
		}
	}
	if _, err := (Schema{{Name: "x", Kind: Float, Min: 0, Max: 1}}).FromMap(map[string]any{"x": nil}); err == nil || err.Error() != "x: want a number, got nothing" {
		t.Errorf("FromMap(nil float): %v", err)
	}
}
