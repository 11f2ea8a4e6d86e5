package program_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/evotune/evotune/fitness/external/program"
	"github.com/evotune/evotune/genome"
)

// FuzzServe: whatever evotune's side sends, the program never panics, and
// every line it writes is one JSON object.
func FuzzServe(f *testing.F) {
	f.Add([]byte(hello + `{"type":"play","id":1,"seed":"3","rules":{"r":"b"},"seats":[{"player":"t","params":{"x":0.5,"g":[1,2,3,4],"c":"u"}},{"player":"a","params":{}}]}` + "\n"))
	f.Add([]byte(hello + `{"type":"play","id":1,"seed":"3","rules":{},"seats":[{"player":"t","params":{"x":"no"}},null]}` + "\n"))
	f.Add([]byte(hello + "{}\n[]\n"))
	g := program.Game{
		Name:    "g",
		Options: []program.Option{{Name: "r", Default: "a", Choices: []string{"a", "b"}}},
		Players: []program.Player{{Name: "a"}, {Name: "t", Schema: genome.Schema{
			{Name: "x", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
			{Name: "g", Kind: genome.Grid, Rows: 2, Cols: 2, Min: 0, Max: 9, Symmetry: genome.Full, Default: genome.Value{Cells: []float64{1, 2, 3, 4}}},
			{Name: "c", Kind: genome.Choice, Choices: []string{"u", "v"}, Default: genome.Value{Str: "u"}},
		}}},
		Play: func(r program.Request) (program.Outcome, error) {
			return program.Outcome(r.Seed % 3), nil
		},
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		program.Serve(g, bytes.NewReader(in), &out)
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 && out.Len() == 0 {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal(line, &v); err != nil {
				t.Fatalf("line %q is not a JSON object: %v", line, err)
			}
		}
	})
}
