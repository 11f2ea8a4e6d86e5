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
// 10,048 games replayed of 10,000.
func TestKillMidGenerationReplaysTheJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several processes")
	}
	cfg, want := straightDistRun(t)

	const games, batchGames = 10000, 64
	batches := (games + batchGames - 1) / batchGames
	dir := filepath.Join(t.TempDir(), "run")
	cmd := evotune("run", cfg, "--out", dir, "--quiet", "--workers", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	held := 0
	for {
		_ = cmd.Process.Signal(syscall.SIGSTOP)
		gen, n := journalState(filepath.Join(dir, rundir.JournalFile))
		if gen == 1 && n*10 >= batches*8 {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			held = n
			break
		}
		if ck, _ := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile)); bytes.Contains(ck, []byte(`"generation": 2,`)) {
			t.Fatalf("generation 2 passed 80%% unseen (journal of generation %d, %d batches)", gen+1, n)
		}
		_ = cmd.Process.Signal(syscall.SIGCONT)
		time.Sleep(time.Millisecond)
	}
	_ = cmd.Wait()
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
