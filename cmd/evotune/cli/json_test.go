package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestEveryJSONHasNoNull: every command's --json output decodes, and no
// value in it is null: an empty list is [], a map without keys {}. eval
// used to write "matches": null without --vs and "players": null for a
// game without a solo measure.
func TestEveryJSONHasNoNull(t *testing.T) {
	bad := writeConfig(t, "game: battleship\nplayer: tuned\nevolution: {population: -1}\n")
	quick := writeConfig(t, strings.Replace(killConfig, "generations: 6", "generations: 2", 1))
	tests := []struct {
		name string
		args []string
		code ExitCode
	}{
		{"eval solo", []string{"eval", "battleship", "--player", "random", "--games", "4", "--json"}, ExitOK},
		{"eval head to head", []string{"eval", "hadron", "--rule", "size=5", "--player", "random", "--vs", "random", "--games", "2", "--json"}, ExitOK},
		{"eval series", []string{"eval", "battleship", "--player", "learner", "--series", "2", "--games", "4", "--json"}, ExitOK},
		{"perft", []string{"perft", "mnk", "--depth", "2", "--json"}, ExitOK},
		{"games", []string{"games", "--json"}, ExitOK},
		{"games battleship", []string{"games", "battleship", "--json"}, ExitOK},
		{"games hadron", []string{"games", "hadron", "--json"}, ExitOK},
		{"games mnk under gravity", []string{"games", "mnk", "--rule", "gravity=true", "--json"}, ExitOK},
		{"export", []string{"export", filepath.Join("testdata", "no-rivals"), "--top", "2", "--json"}, ExitOK},
		{"validate", []string{"validate", quick, "--json"}, ExitOK},
		{"validate a bad config", []string{"validate", bad, "--json"}, ExitUsage},
		{"validate a missing file", []string{"validate", filepath.Join(t.TempDir(), "none.yaml"), "--json"}, ExitUsage},
		{"version", []string{"version", "--json"}, ExitOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, errs)
			}
			dec := json.NewDecoder(strings.NewReader(out))
			dec.UseNumber()
			var doc any
			if err := dec.Decode(&doc); err != nil || dec.More() {
				t.Fatalf("not one JSON document (%v):\n%s", err, out)
			}
			if path := nullIn(doc, "$"); path != "" {
				t.Fatalf("null at %s:\n%s", path, out)
			}
		})
	}
}

// nullIn returns the path of the first null in a decoded document, "" if
// there is none.
func nullIn(v any, path string) string {
	switch v := v.(type) {
	case nil:
		return path
	case map[string]any:
		for k, x := range v {
			if p := nullIn(x, path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		for i, x := range v {
			if p := nullIn(x, path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	}
	return ""
}

// TestWriteJSONFillsNilsWithoutChangingThem: nil lists and maps at any
// depth (in structs, slices, maps, behind pointers and interfaces) are
// written empty, omitempty still omits them, and the value given is left
// as it was.
func TestWriteJSONFillsNilsWithoutChangingThem(t *testing.T) {
	type inner struct {
		List []int           `json:"list"`
		Map  map[string]int  `json:"map"`
		Gone []int           `json:"gone,omitempty"`
		Raw  json.RawMessage `json:"raw,omitempty"`
	}
	type outer struct {
		In    inner            `json:"in"`
		Ptr   *inner           `json:"ptr"`
		Ins   []inner          `json:"ins"`
		ByKey map[string]inner `json:"by_key"`
		Any   any              `json:"any"`
		Nil   *inner           `json:"nil"`
		Arr   [1]inner         `json:"arr"`
		hid   []int
	}
	v := outer{Ptr: &inner{}, Ins: []inner{{}}, ByKey: map[string]inner{"k": {}}, Any: inner{}, hid: nil}
	before := reflect.ValueOf(v).Field(1).Pointer()
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	want := `{"in":{"list":[],"map":{}},"ptr":{"list":[],"map":{}},"ins":[{"list":[],"map":{}}],"by_key":{"k":{"list":[],"map":{}}},"any":{"list":[],"map":{}},"nil":null,"arr":[{"list":[],"map":{}}]}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, b.Bytes()); err != nil || compact.String() != want {
		t.Fatalf("%v\n%s\nwant\n%s", err, compact.String(), want)
	}
	if v.Ptr.List != nil || v.Ins[0].List != nil || v.ByKey["k"].Map != nil || v.Any.(inner).List != nil || reflect.ValueOf(v).Field(1).Pointer() != before {
		t.Fatal("the value given was changed")
	}
}
