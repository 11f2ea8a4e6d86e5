package engine

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/buildinfo"
)

// TestSpecErrorsNameTheByte: a damaged description's error names the
// byte where reading stopped, counted from the start (whatever the
// capacity of the slice it came in).
func TestSpecErrorsNameTheByte(t *testing.T) {
	header := appendString(appendString(specMagic[:], "r1.3.7"), "k") // 4 + 7 + 2 = 13 bytes
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"the magic alone", specMagic[:], "truncated or bad batch ID length at byte 4"},
		{"no player count", header, "truncated or bad players at byte 13"},
		{"a short gene", append(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 1), 0), 0), 1), 1, 2, 3, 4, 5, 6, 7, 8, 9)[:20],
			"genes 1, more than 0 at byte 17"},
		{"a game short of its bytes", append(binary.AppendUvarint(binary.AppendUvarint(append([]byte(nil), header...), 0), 1), 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)[:23],
			"games 1, more than 0 at byte 15"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeSpec(tc.data)
			if want := "engine: malformed batch description: " + tc.want; err == nil || err.Error() != want {
				t.Fatalf("got %v, want %q", err, want)
			}
		})
	}
}

// TestSpecPlayerCountLimit: a batch may list up to two players a game of
// the largest batch, and no more.
func TestSpecPlayerCountLimit(t *testing.T) {
	for _, n := range []int{2 * MaxBatchGames, 2*MaxBatchGames + 1} {
		s := batchSpec{Batch: "b", Run: "r", Players: make([]specPlayer, n)}
		for i := range s.Players {
			s.Players[i] = specPlayer{Baseline: 0}
		}
		_, err := decodeSpec(s.append(nil))
		if n <= 2*MaxBatchGames && err != nil {
			t.Fatalf("%d players: %v", n, err)
		}
		if n > 2*MaxBatchGames && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("players %d, more than %d", n, 2*MaxBatchGames))) {
			t.Fatalf("%d players: %v", n, err)
		}
	}
}

// TestResultsSizeLimit: the results of the largest batch are read; a
// message longer than MaxSpecResults is refused before it is read.
func TestResultsSizeLimit(t *testing.T) {
	b := &Batch{ID: "r.0.0", jobs: make([]job, MaxBatchGames), in: &evalState{r: &runner{cfg: &Config{Fitness: FitnessConfig{Objective: Solo}}}}}
	res, err := DecodeResults(b, encodeResults(b.ID, make([]float64, MaxBatchGames)))
	if err != nil || len(res) != MaxBatchGames {
		t.Fatalf("%d results, %v", len(res), err)
	}
	exactly := make([]byte, MaxSpecResults)
	if _, err := DecodeResults(b, exactly); err == nil || !strings.Contains(err.Error(), "not results") {
		t.Fatalf("%d bytes: %v, want them read (and found not to be results)", len(exactly), err)
	}
	want := fmt.Sprintf("engine: results of %d bytes for batch r.0.0", MaxSpecResults+1)
	if _, err := DecodeResults(b, make([]byte, MaxSpecResults+1)); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestWorkerSizeLimits: a worker reads batch and run descriptions of up
// to MaxSpec bytes, and refuses longer ones unread.
func TestWorkerSizeLimits(t *testing.T) {
	w := &Worker{}
	defer w.Close()
	fetchOf := func(data []byte) Fetch {
		return func(context.Context, string) ([]byte, error) { return data, nil }
	}
	batch := (&batchSpec{Batch: "r.0.0", Run: "k"}).append(nil)
	if _, err := w.PlaySpec(context.Background(), batch, 1, fetchOf(make([]byte, MaxSpec))); err == nil || !strings.Contains(err.Error(), "malformed run description") {
		t.Fatalf("a run description of MaxSpec bytes: %v, want it read", err)
	}
	want := fmt.Sprintf("engine: a run description of %d bytes, more than %d", MaxSpec+1, MaxSpec)
	if _, err := w.PlaySpec(context.Background(), batch, 1, fetchOf(make([]byte, MaxSpec+1))); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if _, err := w.PlaySpec(context.Background(), make([]byte, MaxSpec), 1, nil); err == nil || !strings.Contains(err.Error(), "not a batch description") {
		t.Fatalf("a batch description of MaxSpec bytes: %v, want it read", err)
	}
	want = fmt.Sprintf("engine: a batch description of %d bytes, more than %d", MaxSpec+1, MaxSpec)
	if _, err := w.PlaySpec(context.Background(), make([]byte, MaxSpec+1), 1, nil); err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestWorkerRefusesForeignPlayers: a batch naming a species or a
// baseline opponent the run does not have is an error, one past the
// last included.
func TestWorkerRefusesForeignPlayers(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	defer cfg.Close()
	run, err := json.Marshal(runSpec{Format: SpecFormat, Config: string(cfg.text), ConfigHash: cfg.Hash(), Build: buildinfo.Own()})
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(context.Context, string) ([]byte, error) { return run, nil }
	nb := len(cfg.species[0].baselines)
	for _, tc := range []struct {
		name string
		p    specPlayer
		want string
	}{
		{"the last baseline", specPlayer{Baseline: nb - 1}, ""},
		{"a species too many", specPlayer{Species: 1, Baseline: 0}, "engine: batch r.0.0: player 0 of species 1"},
		{"a baseline too many", specPlayer{Baseline: nb}, fmt.Sprintf("engine: batch r.0.0: baseline %d of %d", nb, nb)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &Worker{}
			defer w.Close()
			s := batchSpec{Batch: "r.0.0", Run: "k", Players: []specPlayer{tc.p}}
			_, err := w.PlaySpec(context.Background(), s.append(nil), 1, fetch)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
