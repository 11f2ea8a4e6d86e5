package fitness_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/golden"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fileSchema has a parameter of every kind.
var fileSchema = genome.Schema{
	{Name: "bias", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
	{Name: "mode", Kind: genome.Choice, Choices: []string{"a", "b"}, Default: genome.Value{Str: "a"}},
	{Name: "depth", Kind: genome.Int, Min: 1, Max: 4, Default: genome.Value{Num: 2}},
	{Name: "on", Kind: genome.Bool},
	{Name: "weights", Kind: genome.Grid, Rows: 2, Cols: 2, Min: 0, Max: 1, Default: genome.Value{Cells: []float64{0, 0, 0, 0}}},
}

// TestParamsFileGolden loads every player file under testdata/params as
// the tuned mover of the coin game and compares the values read, or every
// problem as file:line: key: message, with the .golden file beside it.
// Run `go test ./fitness -run TestParamsFileGolden -update` after an
// intended change.
func TestParamsFileGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "params", "*.*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no player files: %v", err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, ".golden") {
			continue
		}
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			v, _, err := fitness.LoadParams(file, "coin", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: fileSchema})
			var got string
			if err != nil {
				got = "error:\n" + err.Error() + "\n"
				for _, line := range strings.Split(err.Error(), "\n") {
					if !strings.HasPrefix(line, file+":") {
						t.Errorf("a problem without file:line: %q", line)
					}
				}
			} else {
				got = fmt.Sprint(v.Map()) + "\n"
			}
			if strings.HasPrefix(name, "ok-") != (err == nil) {
				t.Errorf("ok- files load, others fail; got:\n%s", got)
			}
			golden.Check(t, strings.TrimSuffix(file, filepath.Ext(file))+".golden", got, *update)
		})
	}
}

// TestParamsFileRoundTrip: what export writes, in either format, loads
// back to the values it was written from, and every field of the file
// type is one the reader knows (a field added to ParamsFile or
// RankedParams but not to the reader fails here).
func TestParamsFileRoundTrip(t *testing.T) {
	vals, err := fileSchema.FromMap(map[string]any{"bias": 0.125, "mode": "b", "depth": 3, "on": true,
		"weights": []float64{0.25, 0.5, 0.75, 1}})
	if err != nil {
		t.Fatal(err)
	}
	params := vals.Map()
	params["weights"] = [][]float64{{0.25, 0.5}, {0.75, 1}} // as export writes grids: rows
	file := &fitness.ParamsFile{Game: "coin", Player: "tuned", Role: fitness.Mover, Rules: map[string]string{"size": "9"},
		Objective: "score", Settings: map[string]string{"depth": "3"}, Players: []fitness.RankedParams{
			{Rank: 1, Generation: 7, Figure: fitness.Figure{Fitness: 0.625, Games: 40, CI95: [2]float64{0.5, 0.75}}, Params: params,
				Remeasured:     &fitness.Figure{Fitness: 0.55, Games: 400, CI95: [2]float64{0.5, 0.6}},
				HallOfFameRank: 2, From: "model spsa",
				Fresh: &fitness.Fresh{Against: "baselines", Figure: fitness.Figure{Fitness: 0.54, Games: 400, CI95: [2]float64{0.49, 0.59}}, Start: &fitness.Figure{Fitness: 0.5, Games: 400, CI95: [2]float64{0.45, 0.55}},
					VsStart: &fitness.Difference{Difference: 0.04, Games: 200, CI95: [2]float64{0.01, 0.07}}},
				Rating: &fitness.Rating{Elo: 31.5, CI95: [2]float64{12, 51}, Games: 120}},
			{Rank: 2, Generation: 6, Figure: fitness.Figure{Fitness: 0.5, Games: 40, CI95: [2]float64{0.375, 0.625}}, Params: map[string]any{"bias": 0.9}},
		}}
	assertEveryFieldSet(t, reflect.ValueOf(*file))
	assertEveryFieldSet(t, reflect.ValueOf(file.Players[0]))
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		encode func() ([]byte, error)
	}{
		{"best.yaml", func() ([]byte, error) { return file.YAML("evotune export") }},
		{"best.json", file.JSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := tc.encode()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, settings, err := fitness.LoadParams(path, "coin", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: fileSchema,
				Settings: []fitness.Setting{{Name: "depth", Default: "2"}}})
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if fmt.Sprint(got.Map()) != fmt.Sprint(vals.Map()) {
				t.Fatalf("loaded %v, want %v", got.Map(), vals.Map())
			}
			if !maps.Equal(settings, fitness.Settings(file.Settings)) {
				t.Fatalf("loaded settings %v, want %v", settings, file.Settings)
			}
		})
	}
}

// assertEveryFieldSet fails on a zero field, so that the round trip
// covers every field of the type, those added later included.
func assertEveryFieldSet(t *testing.T, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		if v.Type().Field(i).Name == "Params" && v.Type().Name() == "ParamsFile" {
			continue // the hand-written alternative to Players
		}
		if v.Field(i).IsZero() {
			t.Errorf("%s.%s is not set: set it so the round trip covers it", v.Type().Name(), v.Type().Field(i).Name)
		}
	}
}
