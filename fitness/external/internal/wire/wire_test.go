package wire_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/genome"
)

func TestParamRoundTrip(t *testing.T) {
	schema := genome.Schema{
		{Name: "f", Kind: genome.Float, Min: -1.5, Max: 1e9, Default: genome.Value{Num: 0.1}, Summary: "a float"},
		{Name: "l", Kind: genome.Float, Min: 1e-6, Max: 1, Log: true, Default: genome.Value{Num: 1.0 / 3}},
		{Name: "i", Kind: genome.Int, Min: -3, Max: 1 << 40, Default: genome.Value{Num: 1<<40 - 1}},
		{Name: "b", Kind: genome.Bool, Default: genome.Value{Num: 1}},
		{Name: "o", Kind: genome.Int, Min: 8, Max: 1024, Log: true, Default: genome.Value{Num: 96}, OptIn: true},
		{Name: "c", Kind: genome.Choice, Choices: []string{"x", "y \"quoted\""}, Default: genome.Value{Str: "y \"quoted\""}},
		{Name: "g", Kind: genome.Grid, Rows: 2, Cols: 3, Min: 0, Max: 1, Symmetry: genome.Dihedral,
			Default: genome.Value{Cells: []float64{0.25, math.Nextafter(0.5, 1), 0.25, 0.25, math.Nextafter(0.5, 1), 0.25}}},
	}
	for _, p := range schema {
		t.Run(p.Name, func(t *testing.T) {
			b, err := json.Marshal(wire.WireParam(p))
			if err != nil {
				t.Fatal(err)
			}
			var w wire.Param
			if err := json.Unmarshal(b, &w); err != nil {
				t.Fatal(err)
			}
			got, err := wire.ParamOf(w)
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Fatalf("%s\nread back as %+v\nwant %+v", b, got, p)
			}
		})
	}
	// A seat carries every value exactly.
	v := schema.Defaults()
	var seat wire.Seat
	if err := json.Unmarshal(wire.EncodeSeat("p", v, nil), &seat); err != nil {
		t.Fatal(err)
	}
	back, err := wire.DecodeValues(schema, seat.Params)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Map(), v.Map()) {
		t.Fatalf("values %v read back as %v", v.Map(), back.Map())
	}
	delete(seat.Params, "b")
	if _, err := wire.DecodeValues(schema, seat.Params); err == nil {
		t.Fatal("a seat without one of its parameters was accepted")
	}
}

func TestSeed(t *testing.T) {
	for _, s := range []uint64{0, 1, 1<<53 + 1, math.MaxUint64} {
		got, err := wire.ParseSeed(wire.FormatSeed(s))
		if err != nil || got != s {
			t.Fatalf("seed %d read back as %d, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "-1", "18446744073709551616", "1e3", " 1", "0x10"} {
		if _, err := wire.ParseSeed(bad); err == nil {
			t.Errorf("seed %q accepted", bad)
		}
	}
}

// TestParamOfRefuses: every kind of bad parameter is refused with a
// message that starts with what is wrong; a default that fails a broken
// range reports the range first, and a bad default under a sound range
// reports the default.
func TestParamOfRefuses(t *testing.T) {
	tests := []struct {
		name, param, err string
	}{
		{"float without min", `{"name":"x","type":"float","max":1,"default":0.5}`, "a float needs min and max"},
		{"int without max", `{"name":"x","type":"int","min":1,"default":1}`, "a int needs min and max"},
		{"grid without max", `{"name":"x","type":"grid","rows":1,"cols":1,"min":0,"default":[0]}`, "a grid needs min and max"},
		{"log of a bool", `{"name":"x","type":"bool","log":true,"default":true}`, "log applies to float and int only"},
		{"log of zero", `{"name":"x","type":"float","min":0,"max":1,"log":true,"default":0.5}`, "genome: x: log scale needs min > 0"},
		{"int range not integral", `{"name":"x","type":"int","min":0.5,"max":3,"default":1}`, "genome: x: int range [0.5, 3] is not integral"},
		{"default not a number", `{"name":"x","type":"float","min":2,"max":5,"default":"a"}`, "default: x: want a number, got string a"},
		{"default outside a broken range", `{"name":"x","type":"float","min":2,"max":1,"default":9}`, "genome: x: bad range [2, 1]"},
		{"choice default not a choice", `{"name":"x","type":"choice","choices":["a","b"],"default":"z"}`, `default: x: "z" is not one of a, b`},
		{"bool default a number", `{"name":"x","type":"bool","default":1}`, "default: x: want true or false, got float64 1"},
		{"grid default short", `{"name":"x","type":"grid","rows":2,"cols":3,"min":0,"max":1,"default":[0,1]}`, "default: x: 2 cells, want 2x3 = 6"},
		{"grid of no rows", `{"name":"x","type":"grid","rows":0,"cols":3,"min":0,"max":1,"default":[]}`, "grid of 0x3 (want 1 to 1024 a side, at most 65536 cells)"},
		{"grid of no cols", `{"name":"x","type":"grid","rows":3,"cols":0,"min":0,"max":1,"default":[]}`, "grid of 3x0 (want"},
		{"grid too tall", `{"name":"x","type":"grid","rows":1025,"cols":1,"min":0,"max":1,"default":0}`, "grid of 1025x1 (want"},
		{"grid too wide", `{"name":"x","type":"grid","rows":1,"cols":1025,"min":0,"max":1,"default":0}`, "grid of 1x1025 (want"},
		{"grid of too many cells", `{"name":"x","type":"grid","rows":1024,"cols":65,"min":0,"max":1,"default":0}`, "grid of 1024x65 (want"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w wire.Param
			if err := json.Unmarshal([]byte(tc.param), &w); err != nil {
				t.Fatal(err)
			}
			_, err := wire.ParamOf(w)
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
}

// TestParamOfGridSizes: grids of 1 to 1024 a side and up to 65536 cells
// are accepted.
func TestParamOfGridSizes(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {1, 1024}, {1024, 1}, {256, 256}, {1024, 64}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			cells := make([]float64, size[0]*size[1])
			def, _ := json.Marshal(cells)
			w := wire.Param{Name: "x", Type: "grid", Rows: size[0], Cols: size[1], Min: new(0.0), Max: new(1.0), Default: def}
			p, err := wire.ParamOf(w)
			if err != nil {
				t.Fatal(err)
			}
			if p.Rows != size[0] || p.Cols != size[1] || len(p.Default.Cells) != len(cells) {
				t.Fatalf("read as %dx%d with %d cells", p.Rows, p.Cols, len(p.Default.Cells))
			}
		})
	}
}
