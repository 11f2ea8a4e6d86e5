package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
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
// built without -race).
func TestGenerationMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 10^7 games")
	}
	cfg := writeConfig(t, tenMillion)
	r := procWithin(t, 5*time.Minute, nil, "run", cfg, "--out", filepath.Join(t.TempDir(), "run"), "--quiet", "--workers", "2")
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
