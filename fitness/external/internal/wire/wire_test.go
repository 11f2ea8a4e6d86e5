package wire_test

import (
	"encoding/json"
	"math"
	"reflect"
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
			Default: genome.Value{Cells: []float64{0, 0.5, 1, math.Nextafter(0.5, 1), 0.25, 0}}},
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
	if err := json.Unmarshal(wire.EncodeSeat("p", v), &seat); err != nil {
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
