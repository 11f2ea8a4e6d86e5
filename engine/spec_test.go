package engine

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/buildinfo"
)

// goodSpec has players of both kinds, a game without a second player
// and a flipped one.
var goodSpec = batchSpec{
	Batch: "r1.3.7", Run: "0123abcd",
	Players: []specPlayer{
		{Species: 0, Genes: []float64{0.5, -1, math.Inf(1)}, Baseline: -1},
		{Species: 1, Baseline: 2},
		{Species: 0, Genes: []float64{}, Baseline: -1},
	},
	Games: []specGame{{A: 0, B: 1, Seed: 1 << 63, Flip: true}, {A: 2, B: -1, Seed: 42}},
}

// TestSpecRoundTrip: a batch description reads back as written, and
// every truncation of it is an error, never a panic.
func TestSpecRoundTrip(t *testing.T) {
	data := goodSpec.append(nil)
	got, err := decodeSpec(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, goodSpec) {
		t.Fatalf("read back %+v, want %+v", *got, goodSpec)
	}
	for n := range len(data) {
		if _, err := decodeSpec(data[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes read without error", n, len(data))
		}
	}
}

// TestMalformedSpecs: a description of another kind or version, damaged
// or hostile, is one error naming what is wrong.
func TestMalformedSpecs(t *testing.T) {
	good := goodSpec.append(nil)
	withFormat := func(f byte) []byte {
		d := append([]byte(nil), good...)
		d[3] = f
		return d
	}
	// header is the magic, the batch ID and the run key of goodSpec.
	header := appendString(appendString(specMagic[:], "r1.3.7"), "k")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a batch description"},
		{"json of format 1", []byte(`{"format":1,"batch":"r.0.0"}`), "not a batch description"},
		{"results", encodeResults("r.0.0", []float64{1}), "not a batch description"},
		{"format 1", withFormat(1), "a batch description of format 1, this evotune reads 2"},
		{"a byte after the end", append(append([]byte(nil), good...), 0), "1 bytes after the end"},
		{"more players than bytes", binary.AppendUvarint(append([]byte(nil), header...), 1<<40), "players"},
		{"a long ID", appendString(specMagic[:], strings.Repeat("x", 2000)), "batch ID length 2000, more than 1000"},
		{"a bad player kind", append(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 1), 0), 7, 0, 0), "bad player kind"},
		{"a game of a player not listed", append(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 0), 1), 2),
			make([]byte, 10)...), "player A 2, more than 0"},
		{"a bad flip", append(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 0), 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9), "bad flip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeSpec(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "engine: malformed batch description: ") {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestDecodeResults: a worker's answer is taken only whole, for its own
// batch, one result per game that a game can give: a finite cost >= 0 in
// a solo run, a score of 0, 1/2 or 1 in a score run.
func TestDecodeResults(t *testing.T) {
	solo := &evalState{r: &runner{cfg: &Config{Fitness: FitnessConfig{Objective: Solo}}}}
	score := &evalState{r: &runner{cfg: &Config{Fitness: FitnessConfig{Objective: Score}}}}
	b := &Batch{ID: "r1.0.4", jobs: make([]job, 3), in: solo}
	good := encodeResults("r1.0.4", []float64{0.25, 1, 3})
	for _, tc := range []struct {
		name  string
		data  []byte
		in    *evalState
		taken []float64
		want  string // "": taken
	}{
		{"good", good, solo, []float64{0.25, 1, 3}, ""},
		{"good scores", encodeResults("r1.0.4", []float64{0, 0.5, 1}), score, []float64{0, 0.5, 1}, ""},
		{"json", []byte(`{"batch":"r1.0.4","results":[1,2,3]}`), solo, nil, "not results"},
		{"a batch description", goodSpec.append(nil), solo, nil, "not results"},
		{"format 1", append([]byte("EVR\x01"), good[4:]...), solo, nil, "results of format 1"},
		{"another batch", encodeResults("r1.0.5", []float64{0.25, 1, 3}), solo, nil, `results for batch "r1.0.5" where r1.0.4 was expected`},
		{"too few", encodeResults("r1.0.4", []float64{0.25, 1}), solo, nil, "2 results for the 3 games"},
		{"not finite", encodeResults("r1.0.4", []float64{0.25, math.NaN(), 1}), solo, nil, "game 1 (seed 0): NaN is not a result a game gives"},
		{"infinite", encodeResults("r1.0.4", []float64{0.25, 1, math.Inf(1)}), solo, nil, "game 2 (seed 0): +Inf is not"},
		{"a negative cost", encodeResults("r1.0.4", []float64{0.25, 1, -3}), solo, nil, "game 2 (seed 0): -3 is not a result a game gives (want a finite cost >= 0)"},
		{"a score of 1/4", encodeResults("r1.0.4", []float64{0.25, 1, 0}), score, nil, "game 0 (seed 0): 0.25 is not a result a game gives (want a score of 0, 1/2 or 1)"},
		{"a score above 1", encodeResults("r1.0.4", []float64{0, 2, 0}), score, nil, "game 1 (seed 0): 2 is not"},
		{"truncated", good[:len(good)-1], solo, nil, "results 3, more than 2"},
		{"a byte after the end", append(append([]byte(nil), good...), 0), solo, nil, "1 bytes after the end"},
		{"oversized", make([]byte, MaxSpecResults+1), solo, nil, "results of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.in = tc.in
			res, err := DecodeResults(b, tc.data)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && !reflect.DeepEqual(res, tc.taken):
				t.Fatalf("read %v", res)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestWorkerRunDescriptions: a worker fetches a run's description once,
// and refuses one it cannot fetch, read or trust with one error.
func TestWorkerRunDescriptions(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	defer cfg.Close()
	good, err := json.Marshal(runSpec{Format: SpecFormat, Config: string(cfg.text), ConfigHash: cfg.Hash(), Build: buildinfo.Own()})
	if err != nil {
		t.Fatal(err)
	}
	rewrite := func(f func(*runSpec)) []byte {
		s := runSpec{Format: SpecFormat, Config: string(cfg.text), ConfigHash: cfg.Hash(), Build: buildinfo.Own()}
		f(&s)
		data, _ := json.Marshal(s)
		return data
	}
	batch := (&batchSpec{Batch: "r.0.0", Run: "k"}).append(nil)
	for _, tc := range []struct {
		name  string
		run   []byte
		fetch error
		want  string // "": played
	}{
		{"good", good, nil, ""},
		{"not stored", nil, errors.New("no such key"), "batch r.0.0: the run's description: no such key"},
		{"malformed", []byte(`{"format":2,"config":`), nil, "malformed run description"},
		{"an unknown field", []byte(`{"format":2,"configs":"x"}`), nil, "malformed run description"},
		{"format 1", rewrite(func(s *runSpec) { s.Format = 1 }), nil, "run description format 1, this evotune reads 2"},
		{"a config that does not load", rewrite(func(s *runSpec) { s.Config = "game: nosuchgame\n" }), nil, "does not load on this worker"},
		{"another hash", rewrite(func(s *runSpec) { s.ConfigHash = "feed" }), nil, "another meaning on this worker"},
		{"player files", rewrite(func(s *runSpec) { s.Files = map[string]string{"p:x.yaml": "00"} }), nil, "player files the config names differ"},
		{"a coordinator of another architecture", rewrite(func(s *runSpec) {
			s.Build.Arch, s.Build.ArchLevel, s.Build.Executable = "arm64", "GOARM64=v8.0", strings.Repeat("0", 64)
		}), nil, "batch r.0.0: another build, another architecture: this worker is " + buildinfo.Own().Short()},
		{"a coordinator of another binary", rewrite(func(s *runSpec) { s.Build.Executable = strings.Repeat("0", 64) }), nil, "another build"},
		{"a coordinator of no known build", rewrite(func(s *runSpec) { s.Build = buildinfo.Info{} }), nil, "another build, the coordinator's build is unknown"},
		{"oversized", make([]byte, MaxSpec+1), nil, "a run description of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Worker{}
			defer w.Close()
			fetches := 0
			fetch := func(_ context.Context, key string) ([]byte, error) {
				fetches++
				if key != "k" {
					t.Errorf("fetched %q", key)
				}
				return tc.run, tc.fetch
			}
			for range 2 {
				ans, err := w.PlaySpec(context.Background(), batch, 1, fetch)
				switch {
				case tc.want == "" && err != nil:
					t.Fatal(err)
				case tc.want == "":
					if res, err := DecodeResults(&Batch{ID: "r.0.0", in: &evalState{r: &runner{cfg: &Config{}}}}, ans); err != nil || len(res) != 0 {
						t.Fatalf("answer %v, %v", res, err)
					}
				case err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n"):
					t.Fatalf("got %v, want one line saying %q", err, tc.want)
				}
			}
			if tc.want == "" && fetches != 1 {
				t.Errorf("fetched %d times for two batches of one run", fetches)
			}
		})
	}
}
