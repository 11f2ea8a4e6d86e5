package sprtfile

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/stats"
)

func state() *State {
	return &State{SPRT: Format, State: InProgress, PID: 7, Test: Test{Game: "mnk", A: "classic", B: "greedy", Kind: "pentanomial",
		H1: 50, Unit: "logistic Elo", Alpha: 0.05, Beta: 0.05, Bounds: [2]float64{-2.94, 2.94}, Seed: 5}, MaxGames: 1000,
		Games: 80, LLR: 1.5, Estimate: &stats.Estimate{Value: 100, CI95: [2]float64{80, 120}, N: 40},
		Batches: []Batch{{Games: 40, LLR: 0.7}, {Games: 80, LLR: 1.5}}}
}

// TestWriteThenRead: a state reads back as written; a clean sweep's
// infinite Elo is left out rather than failing the write.
func TestWriteThenRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a"+Suffix)
	for _, tc := range []struct {
		name string
		edit func(*State)
		want func(*State)
	}{
		{"as written", func(*State) {}, func(*State) {}},
		{"an infinite estimate", func(s *State) { s.Estimate.CI95[1] = math.Inf(1) }, func(s *State) { s.Estimate = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, want := state(), state()
			tc.edit(in)
			tc.want(want)
			if err := Write(path, in); err != nil {
				t.Fatal(err)
			}
			got, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("read %+v, want %+v", got, want)
			}
		})
	}
}

// TestDecodeRefuses: what is not a state file is ErrNotState, saying why.
func TestDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, says string
		edit       func(*State)
	}{
		{"another format", "format 2", func(s *State) { s.SPRT = 2 }},
		{"no format", "format 0", func(s *State) { s.SPRT = 0 }},
		{"an unknown state", `state "paused"`, func(s *State) { s.State = "paused" }},
		{"bounds the wrong way", "bounds", func(s *State) { s.Bounds = [2]float64{1, -1} }},
		{"games past the cap", "80 games of 40", func(s *State) { s.MaxGames = 40 }},
		{"batches out of order", "batch 2", func(s *State) { s.Batches[1].Games = 40 }},
		{"a batch past the games", "batch 2", func(s *State) { s.Batches[1].Games = 90 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := state()
			tc.edit(s)
			data, _ := json.Marshal(s)
			_, err := Decode(data)
			if !errors.Is(err, ErrNotState) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("%v, want ErrNotState saying %q", err, tc.says)
			}
		})
	}
	for _, data := range []string{"", "{}", "[]", `{"sprt": 1, "extra": true}`, "not json", `{"sprt":1}{"sprt":1}`} {
		if _, err := Decode([]byte(data)); !errors.Is(err, ErrNotState) {
			t.Errorf("%q: %v, want ErrNotState", data, err)
		}
	}
	link := filepath.Join(t.TempDir(), "l"+Suffix)
	target := filepath.Join(t.TempDir(), "t"+Suffix)
	if err := Write(target, state()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(link); err == nil {
		t.Error("Read follows a link")
	}
}

// FuzzDecode: Decode never panics, and what it accepts encodes and
// decodes to itself.
func FuzzDecode(f *testing.F) {
	good, _ := json.Marshal(state())
	f.Add(good)
	f.Add([]byte(`{"sprt":1,"state":"finished","bounds":[-1,1],"max_games":0,"games":0,"batches":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(s)
		if err != nil {
			return // a value JSON cannot hold, read from a number it can: not ours to write
		}
		s2, err := Decode(again)
		if err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("%s decodes, encodes as %s, which decodes to %+v (%v)", data, again, s2, err)
		}
	})
}
