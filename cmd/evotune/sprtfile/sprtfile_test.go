package sprtfile

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/stats"
)

func state() *State {
	lo, hi := stats.WaldBounds(0.05, 0.05)
	return &State{SPRT: Format, State: InProgress, PID: 7, Test: Test{Game: "mnk", A: "classic", B: "greedy", Kind: "pentanomial",
		H1: 50, Unit: "logistic Elo", Alpha: 0.05, Beta: 0.05, Bounds: [2]float64{lo, hi}, Seed: 5}, MaxGames: 1000,
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
		// The nearest wrong inputs: each one step past what a test writes.
		{"a batch one game past the games", "batch 2", func(s *State) { s.Batches[1].Games = 81 }},
		{"two batches at one count", "batch 2", func(s *State) { s.Batches[1].Games = s.Batches[0].Games }},
		{"a batch of no games", "batch 1", func(s *State) { s.Batches[0].Games = 0 }},
		{"games one past the cap", "80 games of 79", func(s *State) { s.MaxGames = 79 }},
		{"negative games", "-1 games of 1000", func(s *State) { s.Games, s.Batches = -1, nil }},
		{"a lower bound of 0", "bounds", func(s *State) { s.Bounds[0] = 0 }},
		{"an upper bound of 0", "bounds", func(s *State) { s.Bounds[1] = 0 }},
		{"bounds of other error rates", "bounds", func(s *State) { s.Beta = 0.1 }},
		{"bounds a hair off", "bounds", func(s *State) { s.Bounds[1] *= 1 + 1e-9 }},
		{"alpha a half", "bounds", func(s *State) { s.Alpha = 0.5 }},
		// Past the error rates a test takes, with the bounds they give.
		{"alpha a half, its bounds", "bounds", func(s *State) { s.Alpha = 0.5; s.Bounds[0], s.Bounds[1] = stats.WaldBounds(s.Alpha, s.Beta) }},
		{"beta a half, its bounds", "bounds", func(s *State) { s.Beta = 0.5; s.Bounds[0], s.Bounds[1] = stats.WaldBounds(s.Alpha, s.Beta) }},
		{"games not the last batch's", "80 games, LLR 1.5, but the last batch is", func(s *State) { s.Batches = s.Batches[:1] }},
		{"an LLR not the last batch's", "but the last batch is", func(s *State) { s.LLR = 1.6 }},
		{"games without batches", "but the last batch is", func(s *State) { s.Batches = nil }},
		{"an estimate outside its interval", "estimate", func(s *State) { s.Estimate.Value = 121 }},
		{"a verdict in progress", `verdict "H1 accepted"`, func(s *State) { s.Verdict = "H1 accepted" }},
		{"H1 without its bound", `verdict "H1 accepted"`, func(s *State) { s.State, s.Verdict = Finished, "H1 accepted" }},
		{"finished without a verdict", `verdict ""`, func(s *State) { s.State = Finished }},
		{"no verdict before the cap", `verdict "no verdict"`, func(s *State) { s.State, s.Verdict = Finished, "no verdict" }},
		{"H0 at H1's bound", `verdict "H0 accepted"`, func(s *State) {
			s.State, s.Verdict, s.LLR = Finished, "H0 accepted", s.Bounds[1]
			s.Batches[1].LLR = s.LLR
		}},
		{"a state of another case", `state "Finished"`, func(s *State) { s.State = "Finished" }},
		{"format 1 and one", "format 2", func(s *State) { s.SPRT = Format + 1 }},
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
	// At the edges, read: games at the cap, a batch at the games, each
	// verdict where its LLR reaches it.
	for _, edit := range []func(*State){
		func(s *State) { s.MaxGames = s.Games },
		func(s *State) { s.Batches, s.Games, s.LLR, s.Estimate = nil, 0, 0, nil },
		func(s *State) { s.State, s.Verdict, s.MaxGames = Finished, "no verdict", s.Games },
		func(s *State) {
			s.State, s.Verdict, s.LLR, s.Batches[1].LLR = Finished, "H1 accepted", s.Bounds[1], s.Bounds[1]
		},
		func(s *State) {
			s.State, s.Verdict, s.LLR, s.Batches[1].LLR = Finished, "H0 accepted", s.Bounds[0], s.Bounds[0]
		},
		func(s *State) { s.State = Stopped },
		func(s *State) { s.Estimate.Value = s.Estimate.CI95[1] },
	} {
		st := state()
		edit(st)
		data, _ := json.Marshal(st)
		if _, err := Decode(data); err != nil {
			t.Errorf("%+v: %v", st, err)
		}
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

// TestWriter: the state file of a test in progress names the process
// writing it, unless that process is gone or is the one asking; a test
// that ended, a file that is not a state and no file name nobody.
func TestWriter(t *testing.T) {
	dir := t.TempDir()
	other := exec.Command("sleep", "600")
	if err := other.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	self := os.Getpid()
	write := func(name string, edit func(*State)) string {
		p := filepath.Join(dir, name)
		s := state()
		edit(s)
		if err := Write(p, s); err != nil {
			t.Fatal(err)
		}
		return p
	}
	junk := filepath.Join(dir, "junk"+Suffix)
	if err := os.WriteFile(junk, []byte(`{"state": "in progress"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       int
	}{
		{"a live test of another process", write("live", func(s *State) { s.PID = other.Process.Pid }), other.Process.Pid},
		{"its own", write("own", func(s *State) { s.PID = self }), 0},
		{"its process gone", write("gone", func(s *State) { s.PID = gone.Process.Pid }), 0},
		{"finished", write("finished", func(s *State) { s.PID, s.State, s.Verdict = other.Process.Pid, Finished, "H0 accepted" }), 0},
		{"stopped", write("stopped", func(s *State) { s.PID, s.State = other.Process.Pid, Stopped }), 0},
		{"no pid", write("nopid", func(s *State) { s.PID = 0 }), 0},
		{"not a state", junk, 0},
		{"no file", filepath.Join(dir, "none"), 0},
	} {
		if got := Writer(tc.path, self); got != tc.want {
			t.Errorf("%s: writer %d, want %d", tc.name, got, tc.want)
		}
	}
}
