package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// copyDir copies the files of a test fixture directory into a fresh one.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunFromBeforeOptInKnobsResumes resumes a run that an evotune from
// before the tuned shooter had its model and samples knobs left after
// generation 2 of configs/quickstart.yaml, and compares it with that
// evotune's uninterrupted 4-generation run (see
// testdata/before-optin-knobs/README.md). The checkpoint holds 12 genes a member;
// with model and samples searched by default it was refused as corrupt.
// Every file is byte-identical but best.yaml, which now also names the two
// knobs at their defaults, and report.svg, whose picture has changed since
// (it is drawn from the checkpoint, which is compared).
func TestRunFromBeforeOptInKnobsResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 40,000 games")
	}
	dir, files := resumeOldRun(t, "before-optin-knobs")
	for f, files := range files {
		got, want := files[0], files[1]
		if f == rundir.BestFile {
			// The knobs the old evotune lacked, at their defaults (the
			// posterior's sample budget, 256 since issue 13's third stop).
			for _, line := range []string{"      model: density\n", "      samples: 256\n"} {
				if !bytes.Contains(got, []byte(line)) {
					t.Errorf("best.yaml lacks %q", line)
				}
				got = bytes.Replace(got, []byte(line), nil, 1)
			}
		}
		// Generations run by this evotune keep their best's genes: leave
		// them out; the rest must be the old bytes.
		switch f {
		case rundir.CheckpointFile:
			got = withoutBestGenes(t, got)
			// The remeasure, on by default since, adds its figures at the
			// end, and the budget given with --generations is kept since;
			// the evolution must be the old one to the byte.
			got = withoutTopLevelKeys(got, "remeasured", "verdict", "budget")
		case rundir.BestFile:
			// best.yaml now names the remeasure's winner: derived from the
			// checkpoint compared above, its selection figures and values
			// are the hall-of-fame member's it names.
			checkWinnerFile(t, dir, got)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the uninterrupted run of the old evotune", f)
		}
	}
}

// TestQuickstartNeedsNoPins: the quickstart, which no longer pins the
// tuned shooter's opt-in knobs, evolves exactly as with the pins that
// configs carried before the knobs were opt-in.
func TestQuickstartNeedsNoPins(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 8,000 games")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "quickstart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bare := string(data)
	if strings.Contains(bare, "space:") || !strings.Contains(bare, "\nplayer: tuned\n") || !strings.Contains(bare, "games: 1000") {
		t.Fatal("configs/quickstart.yaml changed: this test wants no space section, pins the knobs after 'player: tuned' and cuts 'games: 1000'")
	}
	// A tenth of the games: the two spaces meet the same deals either way.
	bare = strings.Replace(bare, "games: 1000", "games: 100", 1)
	// Pinned at their defaults, as those configs pinned them (samples was
	// 96 then; the default budget is 256 now).
	pinned := strings.Replace(bare, "\nplayer: tuned\n", "\nplayer: tuned\nspace:\n  model: {fix: density}\n  samples: {fix: 256}\n", 1)
	runs := map[string]string{}
	for name, text := range map[string]string{"bare": bare, "pinned": pinned} {
		cfg := filepath.Join(t.TempDir(), "quickstart.yaml")
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		runs[name] = filepath.Join(t.TempDir(), "run")
		if code, out, errs := run(t, "run", cfg, "--out", runs[name], "--generations", "2", "--quiet", "--workers", "2"); code != ExitOK {
			t.Fatalf("%s: exit %d: %s%s", name, code, out, errs)
		}
	}
	for _, f := range []string{rundir.GenerationsFile, rundir.BestFile} {
		a, errA := os.ReadFile(filepath.Join(runs["bare"], f))
		b, errB := os.ReadFile(filepath.Join(runs["pinned"], f))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs:\n%s\npinned:\n%s", f, a, b)
		}
	}
	// The checkpoints differ in the config they carry, not in the state.
	state := func(dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]json.RawMessage
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		return string(c["population"]) + string(c["hall_of_fame"]) + string(c["history"])
	}
	if state(runs["bare"]) != state(runs["pinned"]) {
		t.Error("checkpoint population, hall of fame or history differ")
	}
}

// withoutBestGenes drops the best_genes lists of a checkpoint's history
// rows, as the indented encoding writes them.
func withoutBestGenes(t *testing.T, data []byte) []byte {
	t.Helper()
	var out []string
	skip := false
	for _, line := range strings.SplitAfter(string(data), "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case skip:
			skip = !strings.HasPrefix(trim, "]")
			continue
		case strings.HasPrefix(trim, `"best_genes": [`):
			skip = !strings.HasSuffix(trim, "],") && !strings.HasSuffix(trim, "]")
			// The field before it loses nothing: best_genes is last in a row.
			if n := len(out); n > 0 {
				out[n-1] = strings.Replace(out[n-1], ",\n", "\n", 1)
			}
			continue
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, ""))
}

// withoutTopLevelKeys drops top-level keys (one space of indent) and
// their values from an indented checkpoint, and the comma they leave.
func withoutTopLevelKeys(data []byte, keys ...string) []byte {
	var out []string
	end := ""
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if end != "" {
			if strings.HasPrefix(line, end) {
				end = ""
			}
			continue
		}
		for _, k := range keys {
			if strings.HasPrefix(line, ` "`+k+`": `) {
				switch {
				case strings.HasSuffix(strings.TrimSpace(line), "["):
					end = " ]"
				case strings.HasSuffix(strings.TrimSpace(line), "{"):
					end = " }"
				}
				line = ""
			}
		}
		if line != "" {
			out = append(out, line)
		}
	}
	// The last field kept may have lost its successor.
	for i := len(out) - 1; i > 0; i-- {
		if strings.HasPrefix(out[i], "}") {
			out[i-1] = strings.Replace(out[i-1], ",\n", "\n", 1)
			break
		}
	}
	return []byte(strings.Join(out, ""))
}

// withoutKeys drops the keys, at every depth, from a JSON document and
// writes it indented.
func withoutKeys(t *testing.T, data []byte, keys ...string) []byte {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var drop func(v any)
	drop = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range keys {
				delete(v, k)
			}
			for _, x := range v {
				drop(x)
			}
		case []any:
			for _, x := range v {
				drop(x)
			}
		}
	}
	drop(doc)
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkWinnerFile checks best.yaml against the run's checkpoint: its
// first player is the verdict's, with that member's selection figures.
func checkWinnerFile(t *testing.T, dir string, best []byte) {
	t.Helper()
	ckData, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	var ck struct {
		HallOfFame []struct {
			Fitness float64
			Games   int
		} `json:"hall_of_fame"`
		Verdict *struct{ Rank int } `json:"verdict"`
	}
	if err := json.Unmarshal(ckData, &ck); err != nil || ck.Verdict == nil {
		t.Fatalf("checkpoint: %v, verdict %v", err, ck.Verdict)
	}
	m := ck.HallOfFame[ck.Verdict.Rank-1]
	for _, want := range []string{
		fmt.Sprintf("hall_of_fame_rank: %d\n", ck.Verdict.Rank),
		fmt.Sprintf("games: %d\n", m.Games),
		"fresh:",
	} {
		if !bytes.Contains(best, []byte(want)) {
			t.Errorf("best.yaml lacks %q:\n%s", want, best)
		}
	}
}

// TestHadronRunFromBeforeOptInTermsResumes resumes a Hadron run of the
// evotune from before the tuned player had its opt-in terms (mobility,
// regions, unlocks, lead, tied parity; testdata/before-hadron-terms/README.md):
// its genomes keep their 6 genes, so it resumes, and it evolves exactly
// as the old evotune went on, byte for byte, but for the remeasure, on by
// default since, which adds its figures at the checkpoint's end and names
// its winner in best.yaml, which also lists the new knobs at their
// defaults (off), and for the members' intervals, computed from the
// seat-swapped pairs since.
func TestHadronRunFromBeforeOptInTermsResumes(t *testing.T) {
	dir, files := resumeOldRun(t, "before-hadron-terms")
	for f, files := range files {
		got, want := files[0], files[1]
		switch f {
		case rundir.CheckpointFile:
			got, want = withoutKeys(t, got, "remeasured", "verdict", "ci95"), withoutKeys(t, want, "ci95")
		case rundir.BestFile:
			for _, line := range []string{"lead_early: 0", "lead_late: 0", "mobility_early: 0", "mobility_late: 0", "regions_early: 0",
				"regions_late: 0", "tied_parity: false", "unlock_early: 0", "unlock_late: 0"} {
				if line = "      " + line + "\n"; !bytes.Contains(got, []byte(line)) {
					t.Errorf("best.yaml lacks %q", line)
				}
			}
			checkWinnerFile(t, dir, got)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the uninterrupted run of the old evotune:\n%s", f, got)
		}
	}
}

// resumeOldRun resumes testdata/NAME/run, a run an older evotune left
// after 2 generations, to 4 generations, and returns each file that run
// and the older evotune's uninterrupted run (testdata/NAME/want) wrote:
// got, then want, and the resumed run's directory.
func resumeOldRun(t *testing.T, name string) (string, map[string][2][]byte) {
	t.Helper()
	dir := copyDir(t, filepath.Join("testdata", name, "run"))
	if code, out, errs := run(t, "resume", dir, "--generations", "4", "--quiet", "--workers", "2"); code != ExitOK {
		t.Fatalf("resume: exit %d: %s%s", code, out, errs)
	}
	files := map[string][2][]byte{}
	for _, f := range []string{rundir.CheckpointFile, rundir.GenerationsFile, rundir.BestFile} {
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", name, "want", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = [2][]byte{got, want}
	}
	return dir, files
}
