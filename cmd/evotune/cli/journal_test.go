package cli

import (
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
// (run.log says how many) and end byte-identical to a straight run.
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
	held := 0
	deadline := time.Now().Add(2 * time.Minute)
	for {
		gen, n := journalState(filepath.Join(dir, rundir.JournalFile))
		if gen == 1 && n*10 >= batches*8 {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			held = n
			break
		}
		if gen > 1 || time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("generation 2 passed 80%% unseen (journal of generation %d, %d batches)", gen+1, n)
		}
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
	if total, _ := strconv.Atoi(string(m[2])); total != games || replayed*4 < games*3 || replayed < held*batchGames {
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
