package genome

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func nan() float64 { return math.NaN() }

func TestFromMap(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		want  string // substring of the error; "" for none
		check func(t *testing.T, v Values)
	}{
		{name: "empty gives defaults", yaml: "{}", check: func(t *testing.T, v Values) {
			if v.Float("edge") != 1 || v.Int("depth") != 3 || !v.Bool("parity") || v.Choice("style") != "greedy" {
				t.Errorf("defaults: %v", v.Map())
			}
		}},
		{name: "every kind", yaml: "{edge: 2.5, temp: 3, depth: 8, parity: false, style: random, weights: [1,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,-1]}",
			check: func(t *testing.T, v Values) {
				if v.Float("edge") != 2.5 || v.Float("temp") != 3 || v.Int("depth") != 8 || v.Bool("parity") || v.Choice("style") != "random" {
					t.Errorf("values: %v", v.Map())
				}
				if g := v.Grid("weights"); g[0] != 1 || g[15] != -1 {
					t.Errorf("grid %v", g)
				}
			}},
		{name: "grid as rows", yaml: "{weights: [[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,1]]}", check: func(t *testing.T, v Values) {
			if g := v.Grid("weights"); len(g) != 16 || g[15] != 1 {
				t.Errorf("grid %v", g)
			}
		}},
		{name: "unknown name", yaml: "{edg: 1}", want: `unknown parameter "edg"`},
		{name: "out of range", yaml: "{edge: 11}", want: "outside [0, 10]"},
		{name: "wrong type", yaml: "{parity: 1}", want: "want true or false"},
		{name: "fraction for an int", yaml: "{depth: 2.5}", want: "not an integer"},
		{name: "short grid", yaml: "{weights: [1, 2]}", want: "2 cells"},
		{name: "all errors", yaml: "{edge: 11, depth: x}", want: "depth: want a number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if err := yaml.Unmarshal([]byte(tc.yaml), &m); err != nil {
				t.Fatal(err)
			}
			v, err := testSchema().FromMap(m)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("FromMap: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("FromMap = %v, want an error containing %q", err, tc.want)
			case tc.check != nil:
				tc.check(t, v)
			}
		})
	}
}

func TestValuesWithAndMap(t *testing.T) {
	v := testSchema().Defaults()
	w, err := v.With("depth", Value{Num: 5})
	if err != nil {
		t.Fatal(err)
	}
	if v.Int("depth") != 3 || w.Int("depth") != 5 {
		t.Errorf("With changed the original or missed: %d, %d", v.Int("depth"), w.Int("depth"))
	}
	if _, err := v.With("depth", Value{Num: 9}); err == nil || !strings.HasPrefix(err.Error(), "genome: ") {
		t.Errorf("With out of range = %v", err)
	}
	if _, err := v.With("nope", Value{}); err == nil {
		t.Error("With of an unknown name succeeded")
	}
	m := w.Map()
	if m["depth"] != 5 || m["parity"] != true || m["style"] != "greedy" || m["edge"] != 1.0 {
		t.Errorf("Map = %v", m)
	}
	back, err := testSchema().FromMap(m)
	if err != nil || back.Int("depth") != 5 || !slices.Equal(back.Grid("weights"), w.Grid("weights")) {
		t.Errorf("FromMap(Map()) = %v, %v", back.Map(), err)
	}
}

func TestValuesAccessorPanics(t *testing.T) {
	v := testSchema().Defaults()
	tests := []struct {
		name string
		read func()
	}{
		{"unknown name", func() { v.Float("nope") }},
		{"wrong kind", func() { v.Int("edge") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic for a programmer error")
				}
			}()
			tc.read()
		})
	}
}
