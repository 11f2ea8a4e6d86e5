package natspool

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/buildinfo"
)

// goodBatch has players of both kinds, a game without a second player
// and a flipped one.
var goodBatch = batchDescription{
	Batch: "r1.3.7", Run: "0123abcd",
	Players: []engine.BatchPlayer{
		{Species: 0, Genes: []float64{0.5, -1, math.Inf(1)}, Baseline: -1},
		{Species: 1, Baseline: 2},
		{Species: 0, Genes: []float64{}, Baseline: -1},
	},
	Games: []engine.BatchGame{{A: 0, B: 1, Seed: 1 << 63, Flip: true}, {A: 2, B: -1, Seed: 42}},
}

// TestSpecRoundTrip: a batch description reads back as written, and
// every truncation of it is an error, never a panic.
func TestSpecRoundTrip(t *testing.T) {
	data := goodBatch.append(nil)
	got, err := decodeBatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, goodBatch) {
		t.Fatalf("read back %+v, want %+v", *got, goodBatch)
	}
	for n := range len(data) {
		if _, err := decodeBatch(data[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes read without error", n, len(data))
		}
	}
}

// TestMalformedDescriptions: a description of another kind or version, damaged
// or hostile, is one error naming what is wrong.
func TestMalformedDescriptions(t *testing.T) {
	good := goodBatch.append(nil)
	withFormat := func(f byte) []byte {
		d := append([]byte(nil), good...)
		d[3] = f
		return d
	}
	// header is the magic, the batch ID and the run key of goodBatch.
	header := appendString(appendString(batchMagic[:], "r1.3.7"), "k")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a batch description"},
		{"json of format 1", []byte(`{"format":1,"batch":"r.0.0"}`), "not a batch description"},
		{"results", encodeResults("r.0.0", engine.Played{Results: []float64{1}}), "not a batch description"},
		{"the format before", withFormat(DescriptionFormat - 1), fmt.Sprintf("a batch description of format %d, this evotune reads %d", DescriptionFormat-1, DescriptionFormat)},
		{"a byte after the end", append(append([]byte(nil), good...), 0), "1 bytes after the end"},
		{"more players than bytes", binary.AppendUvarint(append([]byte(nil), header...), 1<<40), "players"},
		{"a long ID", appendString(batchMagic[:], strings.Repeat("x", 2000)), "batch ID length 2000, more than 1000"},
		{"a bad player kind", append(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 1), 0), 7, 0, 0), "bad player kind"},
		{"a game of a player not listed", append(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 0), 1), 2),
			make([]byte, 10)...), "player A 2, more than 0"},
		{"a bad flip", append(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 0), 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9), "bad flip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeBatch(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "natspool: malformed batch description: ") {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestReadResults: a worker's answer is taken only whole, for its own
// batch, one result per game (whether a game can give each is
// engine.Batch.Check's, which decodeResults asks).
func TestReadResults(t *testing.T) {
	good := encodeResults("r1.0.4", engine.Played{Results: []float64{0.25, 1, 3}})
	notes := []engine.Note{{Game: 1, Fault: fitness.FaultCrash, Player: "uci:dev", Record: "[Event \"evotune\"]\n"}}
	withNotes := encodeResults("r1.0.4", engine.Played{Results: []float64{0.25, 1, 3}, Notes: notes})
	unknownNote := `[{"game":1,"fault":"crash","player":"uci:dev","colour":"white"}]`
	if p, err := readResults("r1.0.4", 3, withNotes); err != nil || !reflect.DeepEqual(p.Notes, notes) {
		t.Fatalf("notes read back as %+v, %v; want %+v", p.Notes, err, notes)
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		taken []float64
		want  string // "": taken
	}{
		{"good", good, []float64{0.25, 1, 3}, ""},
		{"json", []byte(`{"batch":"r1.0.4","results":[1,2,3]}`), nil, "not results"},
		{"a batch description", goodBatch.append(nil), nil, "not results"},
		{"the format before", append([]byte{'E', 'V', 'R', DescriptionFormat - 1}, good[4:]...), nil, fmt.Sprintf("results of format %d", DescriptionFormat-1)},
		{"another batch", encodeResults("r1.0.5", engine.Played{Results: []float64{0.25, 1, 3}}), nil, `results for batch "r1.0.5" where r1.0.4 was expected`},
		{"too few", encodeResults("r1.0.4", engine.Played{Results: []float64{0.25, 1}}), nil, "2 results for the 3 games"},
		{"truncated", good[:len(good)-2], nil, "results 3, more than 2"},
		{"no notes' length", good[:len(good)-1], nil, "bad notes length"},
		{"notes", withNotes, []float64{0.25, 1, 3}, ""},
		{"notes cut short", withNotes[:len(withNotes)-1], nil, "notes"},
		{"notes not JSON", append(append([]byte(nil), good[:len(good)-1]...), 3, 'a', 'b', 'c'), nil, "malformed notes"},
		{"a note of an unknown field", append(append([]byte(nil), good[:len(good)-1]...), append([]byte{byte(len(unknownNote))}, unknownNote...)...), nil, "malformed notes"},
		{"a byte after the end", append(append([]byte(nil), good...), 0), nil, "1 bytes after the end"},
		{"oversized", make([]byte, MaxResults+1), nil, "results of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := readResults("r1.0.4", 3, tc.data)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && !reflect.DeepEqual(res.Results, tc.taken):
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
	cfg := prepared(t, smallConfig)
	defer cfg.Close()
	good, err := json.Marshal(runDescription{Format: DescriptionFormat, Config: string(cfg.Config().Text()), ConfigHash: cfg.Hash(), Build: buildinfo.Own()})
	if err != nil {
		t.Fatal(err)
	}
	rewrite := func(f func(*runDescription)) []byte {
		s := runDescription{Format: DescriptionFormat, Config: string(cfg.Config().Text()), ConfigHash: cfg.Hash(), Build: buildinfo.Own()}
		f(&s)
		data, _ := json.Marshal(s)
		return data
	}
	batch := (&batchDescription{Batch: "r.0.0", Run: "k"}).append(nil)
	// A run whose config names no model, begun when generational was
	// every config's default: its hash is the old default's, which is
	// the hash of the config naming generational.
	const unnamed = "game: battleship\nplayer: tuned\nfitness: {baselines: {games: 24}}\nevolution: {population: 8, generations: 4}\n"
	legacy := prepared(t, strings.Replace(unnamed, "evolution: {", "evolution: {model: generational, ", 1))
	legacy.Close()
	for _, tc := range []struct {
		name  string
		run   []byte
		fetch error
		want  string // "": played
	}{
		{"good", good, nil, ""},
		{"a run begun under the old default", rewrite(func(s *runDescription) { s.Config, s.ConfigHash = unnamed, legacy.Hash() }), nil, ""},
		{"not stored", nil, errors.New("no such key"), "batch r.0.0: the run's description: no such key"},
		{"malformed", []byte(`{"format":2,"config":`), nil, "malformed run description"},
		{"an unknown field", []byte(`{"format":2,"configs":"x"}`), nil, "malformed run description"},
		{"the format before", rewrite(func(s *runDescription) { s.Format = DescriptionFormat - 1 }), nil, fmt.Sprintf("run description format %d, this evotune reads %d", DescriptionFormat-1, DescriptionFormat)},
		{"a config that does not load", rewrite(func(s *runDescription) { s.Config = "game: nosuchgame\n" }), nil, "does not load on this worker"},
		{"another hash", rewrite(func(s *runDescription) { s.ConfigHash = "feed" }), nil, "another meaning on this worker"},
		{"player files", rewrite(func(s *runDescription) { s.Files = map[string]string{"p:x.yaml": "00"} }), nil, "player files the config names differ"},
		{"a coordinator of another architecture", rewrite(func(s *runDescription) {
			s.Build.Arch, s.Build.ArchLevel, s.Build.Executable = "arm64", "GOARM64=v8.0", strings.Repeat("0", 64)
		}), nil, "batch r.0.0: another build, another architecture: this worker is " + buildinfo.Own().Short()},
		{"a coordinator of another binary", rewrite(func(s *runDescription) { s.Build.Executable = strings.Repeat("0", 64) }), nil, "another build"},
		{"a coordinator of no known build", rewrite(func(s *runDescription) { s.Build = buildinfo.Info{} }), nil, "another build, the coordinator's build is unknown"},
		{"oversized", make([]byte, MaxDescription+1), nil, "a run description of"},
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
				ans, err := w.PlayBatch(context.Background(), batch, 1, fetch)
				switch {
				case tc.want == "" && err != nil:
					t.Fatal(err)
				case tc.want == "":
					if res, err := readResults("r.0.0", 0, ans); err != nil || len(res.Results) != 0 {
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

// TestDescriptionErrorsNameTheByte: a damaged description's error names the
// byte where reading stopped, counted from the start (whatever the
// capacity of the slice it came in).
func TestDescriptionErrorsNameTheByte(t *testing.T) {
	header := appendString(appendString(batchMagic[:], "r1.3.7"), "k") // 4 + 7 + 2 = 13 bytes
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"the magic alone", batchMagic[:], "truncated or bad batch ID length at byte 4"},
		{"no player count", header, "truncated or bad players at byte 13"},
		{"a short gene", append(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 1), 0), 0), 1), 1, 2, 3, 4, 5, 6, 7, 8, 9)[:20],
			"genes 1, more than 0 at byte 17"},
		{"a game short of its bytes", append(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 0), 1), 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)[:23],
			"games 1, more than 0 at byte 15"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeBatch(tc.data)
			if want := "natspool: malformed batch description: " + tc.want; err == nil || err.Error() != want {
				t.Fatalf("got %v, want %q", err, want)
			}
		})
	}
}

// TestBatchPlayerCountLimit: a batch may list up to two players a game of
// the largest batch, and no more.
func TestBatchPlayerCountLimit(t *testing.T) {
	for _, n := range []int{2 * engine.MaxBatchGames, 2*engine.MaxBatchGames + 1} {
		s := batchDescription{Batch: "b", Run: "r", Players: make([]engine.BatchPlayer, n)}
		for i := range s.Players {
			s.Players[i] = engine.BatchPlayer{Baseline: 0}
		}
		_, err := decodeBatch(s.append(nil))
		if n <= 2*engine.MaxBatchGames && err != nil {
			t.Fatalf("%d players: %v", n, err)
		}
		if n > 2*engine.MaxBatchGames && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("players %d, more than %d", n, 2*engine.MaxBatchGames))) {
			t.Fatalf("%d players: %v", n, err)
		}
	}
}

// TestResultsSizeLimit: the results of the largest batch are read; a
// message longer than MaxResults is refused before it is read.
func TestResultsSizeLimit(t *testing.T) {
	res, err := readResults("r.0.0", engine.MaxBatchGames, encodeResults("r.0.0", engine.Played{Results: make([]float64, engine.MaxBatchGames)}))
	if err != nil || len(res.Results) != engine.MaxBatchGames {
		t.Fatalf("%d results, %v", len(res.Results), err)
	}
	exactly := make([]byte, MaxResults)
	if _, err := readResults("r.0.0", engine.MaxBatchGames, exactly); err == nil || !strings.Contains(err.Error(), "not results") {
		t.Fatalf("%d bytes: %v, want them read (and found not to be results)", len(exactly), err)
	}
	want := fmt.Sprintf("natspool: results of %d bytes for batch r.0.0", MaxResults+1)
	if _, err := readResults("r.0.0", engine.MaxBatchGames, make([]byte, MaxResults+1)); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestWorkerSizeLimits: a worker reads batch and run descriptions of up
// to MaxDescription bytes, and refuses longer ones unread.
func TestWorkerSizeLimits(t *testing.T) {
	w := &Worker{}
	defer w.Close()
	fetchOf := func(data []byte) Fetch {
		return func(context.Context, string) ([]byte, error) { return data, nil }
	}
	batch := (&batchDescription{Batch: "r.0.0", Run: "k"}).append(nil)
	if _, err := w.PlayBatch(context.Background(), batch, 1, fetchOf(make([]byte, MaxDescription))); err == nil || !strings.Contains(err.Error(), "malformed run description") {
		t.Fatalf("a run description of MaxDescription bytes: %v, want it read", err)
	}
	want := fmt.Sprintf("natspool: a run description of %d bytes, more than %d", MaxDescription+1, MaxDescription)
	if _, err := w.PlayBatch(context.Background(), batch, 1, fetchOf(make([]byte, MaxDescription+1))); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if _, err := w.PlayBatch(context.Background(), make([]byte, MaxDescription), 1, nil); err == nil || !strings.Contains(err.Error(), "not a batch description") {
		t.Fatalf("a batch description of MaxDescription bytes: %v, want it read", err)
	}
	want = fmt.Sprintf("natspool: a batch description of %d bytes, more than %d", MaxDescription+1, MaxDescription)
	if _, err := w.PlayBatch(context.Background(), make([]byte, MaxDescription+1), 1, nil); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestWorkerRefusesForeignPlayers: a batch naming a species or a
// baseline opponent the run does not have is an error, one past the
// last included.
func TestWorkerRefusesForeignPlayers(t *testing.T) {
	cfg := prepared(t, smallConfig)
	defer cfg.Close()
	run, err := json.Marshal(runDescription{Format: DescriptionFormat, Config: string(cfg.Config().Text()), ConfigHash: cfg.Hash(), Build: buildinfo.Own()})
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(context.Context, string) ([]byte, error) { return run, nil }
	baselines, _, err := cfg.Baselines()
	if err != nil {
		t.Fatal(err)
	}
	nb := len(baselines)
	for _, tc := range []struct {
		name string
		p    engine.BatchPlayer
		want string
	}{
		{"the last baseline", engine.BatchPlayer{Baseline: nb - 1}, ""},
		{"a species too many", engine.BatchPlayer{Species: 1, Baseline: 0}, "engine: batch r.0.0: player 0 of species 1"},
		{"a baseline too many", engine.BatchPlayer{Baseline: nb}, fmt.Sprintf("engine: batch r.0.0: baseline %d of %d", nb, nb)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Worker{}
			defer w.Close()
			s := batchDescription{Batch: "r.0.0", Run: "k", Players: []engine.BatchPlayer{tc.p}}
			_, err := w.PlayBatch(context.Background(), s.append(nil), 1, fetch)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestWorkerRefusalsAreTheWorkers: what no batch of the run could avoid
// on this worker (a batch format of another version, a run description
// it cannot fetch, read or load, an outside program it may not run)
// wraps ErrRefused, so the coordinator does not count it against the
// batch; what is the batch's own (a malformed description, a player the
// run does not have) does not.
func TestWorkerRefusalsAreTheWorkers(t *testing.T) {
	cfg := prepared(t, smallConfig)
	defer cfg.Close()
	run, err := json.Marshal(runDescription{Format: DescriptionFormat, Config: string(cfg.Config().Text()), ConfigHash: cfg.Hash(), Build: buildinfo.Own()})
	if err != nil {
		t.Fatal(err)
	}
	fetchOf := func(data []byte, err error) Fetch {
		return func(context.Context, string) ([]byte, error) { return data, err }
	}
	good := (&batchDescription{Batch: "r.0.0", Run: "k"}).append(nil)
	other := append([]byte(nil), good...)
	other[3] = DescriptionFormat + 1
	program, _ := json.Marshal(runDescription{Format: DescriptionFormat, Config: "command: [sh, -c, 'exit 1']\nplayer: tuned\n", Build: buildinfo.Own()})
	for _, tc := range []struct {
		name    string
		batch   []byte
		fetch   Fetch
		refusal bool
	}{
		{"another batch format", other, fetchOf(run, nil), true},
		{"a run description not to be had", good, fetchOf(nil, errors.New("unreachable")), true},
		{"a run description of another format", good, fetchOf([]byte(`{"format":3}`), nil), true},
		{"another meaning of the config", good, fetchOf(bytes.Replace(run, []byte(cfg.Hash()), []byte("x"), 1), nil), true},
		{"a program, not allowed", good, fetchOf(program, nil), true},
		{"a malformed batch", good[:len(good)-1], fetchOf(run, nil), false},
		{"a player the run does not have", (&batchDescription{Batch: "r.0.0", Run: "k", Players: []engine.BatchPlayer{{Species: 5}}}).append(nil), fetchOf(run, nil), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Worker{}
			defer w.Close()
			_, err := w.PlayBatch(context.Background(), tc.batch, 1, tc.fetch)
			if err == nil || errors.Is(err, ErrRefused) != tc.refusal {
				t.Fatalf("got %v, want an error, a refusal: %v", err, tc.refusal)
			}
		})
	}
}
