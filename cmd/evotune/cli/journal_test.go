package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/rundir"
	"github.com/evotune/evotune/rundir/rundirtest"
)

// TestKillMidGenerationReplaysTheJournal SIGKILLs a real `evotune run`
// once the journal holds 80% of generation 2's batches; the resume must
// read at least 75% of that generation's games back from the journal
// (run.log says how many), all the journal held, and end byte-identical
// to a straight run.
//
// The run goes on a moment at a time (SIGCONT, a millisecond, SIGSTOP)
// and the journal is read while it is stopped, so a busy machine that
// starves the poller cannot let generation 2 pass 80% unseen: before,
// the test then failed, or, seeing every batch in, wanted 157 x 64 =
// 10,048 games replayed of 10,000. The journal's writer can still lag
// the games; a run whose generation 2 was checkpointed before its
// journal showed 80% is run again (killAt80).
func TestKillMidGenerationReplaysTheJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)

	const games, batchGames = 10000, 64
	batches := (games + batchGames - 1) / batchGames
	var dir string
	held := 0
	for attempt := 1; held == 0; attempt++ {
		if attempt > 5 {
			t.Fatal("generation 2 passed 80% unseen in 5 runs")
		}
		dir = filepath.Join(t.TempDir(), "run")
		held = killAt80(t, cfg, dir, batches)
	}
	mustRun(t, "resume", dir, "--quiet", "--workers", "2")
	log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`generation 2: (\d+) of (\d+) games replayed from the journal`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("run.log says no game of generation 2 was replayed:\n%s", log)
	}
	replayed, _ := strconv.Atoi(string(m[1]))
	// The last batch holds what is left of the 10,000 games (16), so the
	// journal's batches hold at most the generation's games.
	if total, _ := strconv.Atoi(string(m[2])); total != games || replayed*4 < games*3 || replayed < min(held*batchGames, games) {
		t.Errorf("%d of %d games replayed, the journal held %d batches at the kill; want at least 75%% of %d", replayed, total, held, games)
	}
	got := rundirtest.Read(t, dir, false)
	rundirtest.Same(t, want, got, "the uninterrupted run vs resumed")
}

// killAt80 runs cfg into dir and SIGKILLs it once the journal holds 80%
// of generation 2's batches, returning how many it held; 0 when the
// generation was checkpointed first. The journal's writer may lag the
// games (it holds lines in memory up to a bound), so on a busy machine
// the generation can end before its journal shows 80%: then the caller
// runs again, rather than kill a finished run and find nothing to
// replay.
func killAt80(t *testing.T, cfg, dir string, batches int) int {
	t.Helper()
	cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	for {
		_ = cmd.Process.Signal(syscall.SIGSTOP)
		// Stopped, the process writes neither file: the two agree.
		if ck, _ := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile)); bytes.Contains(ck, []byte(`"generation": 2,`)) {
			return 0
		}
		if gen, n := journalState(filepath.Join(dir, rundir.JournalFile)); gen == 1 && n*10 >= batches*8 {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			return n
		}
		_ = cmd.Process.Signal(syscall.SIGCONT)
		time.Sleep(time.Millisecond)
	}
}

// journalState reads a journal as it is being written: the generation
// of its header (from 0; -1 for none) and the batches it holds.
func journalState(path string) (gen, batches int) {
	data, err := os.ReadFile(path)
	if err != nil {
		return -1, 0
	}
	lines := strings.Split(string(data), "\n")
	var hdr struct {
		Generation *int `json:"generation"`
	}
	if json.Unmarshal([]byte(lines[0]), &hdr) != nil || hdr.Generation == nil {
		return -1, 0
	}
	for _, l := range lines[1 : len(lines)-1] { // the last has no newline yet
		if strings.HasSuffix(l, "}") {
			batches++
		}
	}
	return *hdr.Generation, batches
}
