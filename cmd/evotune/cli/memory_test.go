package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tenMillion is one generation of 10^7 games of the most trivial game
// there is (1x1 m,n,k: the first mark wins) against a random opponent.
const tenMillion = `name: ten-million
game: mnk
rules: {m: 1, n: 1, k: 1}
player: tuned
fitness:
  baselines:
    opponents: [random]
    games: 1000000
evolution:
  population: 10
  generations: 1
`

// maxGenerationRSS is the peak resident set a generation of 10^7 games
// may take. Listing the whole generation's games at once, as evotune did,
// took 2.8 GB; played in chunks it takes about 22 MB.
const maxGenerationRSS = 200 << 10 // KiB

// TestGenerationMemoryIsBounded runs a generation of 10^7 games in a real
// process and holds its peak resident set (getrusage ru_maxrss) under
// maxGenerationRSS: memory does not grow with games per generation. It
// takes about 10 s on one core, so -short skips it; CI runs it in the
// plain 'go test ./...' and under -race alike (the evotune it measures is
// built without -race). It waits as long as the test may (patience): the
// verdict is the memory, never the time, which a busy machine stretches.
func TestGenerationMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 10^7 games")
	}
	cfg := writeConfig(t, tenMillion)
	r := proc(t, nil, "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--quiet", "--workers", "2")
	if r.code != 0 || !strings.Contains(r.stdout, "over 1000000 games") {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	if r.maxRSSKiB == 0 {
		t.Skip("this system does not report peak memory")
	}
	t.Logf("peak RSS of a generation of 10^7 games: %d KiB", r.maxRSSKiB)
	if r.maxRSSKiB > maxGenerationRSS {
		t.Fatalf("peak RSS %d KiB, want at most %d KiB", r.maxRSSKiB, maxGenerationRSS)
	}
}

// TestLargeGridsCostNoMemoryPerWorker: a program whose player has the
// largest grid the protocol allows (65,536 cells, 1.3 MB of JSON a
// seat) costs evotune no more memory at 3 workers than at 1, measured
// as the peak resident set (getrusage) of whole runs. Before, every
// request of a batch copied its seats and up to 256 of them queued per
// process: 401 MB at 1 worker, 1,024 MB at 3 (now 172 and 168 MB). The
// allowance, 96 MiB, is a third of what one worker added then.
func TestLargeGridsCostNoMemoryPerWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two processes of some seconds")
	}
	if raceDetector {
		// The program is this test binary, which -race slows past half an
		// hour on 65,536-cell grids; the evotune measured is built
		// without -race, so the plain 'go test' run measures the same.
		t.Skip("plays this test binary as its program, too slow under -race")
	}
	dir := t.TempDir()
	cfg := rawbotConfig(t, dir, map[string]string{"RAWBOT_GRID": "256"}, "")
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of 64 games (the local pool's), one per individual.
	text = bytes.Replace(text, []byte("games: 20"), []byte("games: 64"), 1)
	if err := os.WriteFile(cfg, text, 0o644); err != nil {
		t.Fatal(err)
	}
	peak := map[int]int64{}
	for _, workers := range []int{1, 3} {
		r := proc(t, nil, "run", cfg, "--out", filepath.Join(dir, fmt.Sprint("run", workers)), "--quiet",
			"--workers", fmt.Sprint(workers), "--generations", "1")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if r.maxRSSKiB == 0 {
			t.Skip("this system does not report peak memory")
		}
		peak[workers] = r.maxRSSKiB
	}
	t.Logf("peak RSS with a 65,536-cell grid: %d KiB at 1 worker, %d KiB at 3", peak[1], peak[3])
	if grew := peak[3] - peak[1]; grew > 96<<10 {
		t.Fatalf("2 more workers took %d KiB more, want at most %d", grew, 96<<10)
	}
}
