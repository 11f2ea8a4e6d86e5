package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/rundir"
)

// goodRun starts a run of text for two generations and returns its
// directory and checkpoint.
func goodRun(t testing.TB, text string) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	startText(t, text, Options{Dir: dir, Generations: 2})
	ck, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	return dir, ck
}

// edit decodes a checkpoint generically, lets change alter it, and
// encodes it again.
func edit(t testing.TB, ck []byte, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ck, &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func member(m map[string]any, section string, i int) map[string]any {
	return m[section].([]any)[i].(map[string]any)
}

// TestCorruptCheckpointsNameTheField: the checkpoint reader refuses
// trailing data, missing, out-of-range and non-finite figures, negative
// counts and oversize sections, each with a message that says "corrupt"
// and names the field. Before, `{}` was "format 0", a hall-of-fame
// fitness of -1000 reached best.yaml, and negative game counts and
// trailing data passed.
func TestCorruptCheckpointsNameTheField(t *testing.T) {
	shotsDir, shots := goodRun(t, smallConfig)
	scoreDir, score := goodRun(t, hofConfig)
	h2hDir, h2h := goodRun(t, fmt.Sprintf(noStartConfig, 2)) // a verdict head to head, in pairs
	pairs := func(d int) func() []byte {
		return func() []byte {
			return edit(t, h2h, func(m map[string]any) {
				p := m["verdict"].(map[string]any)["pentanomial"].([]any)
				p[2] = p[2].(float64) + float64(d)
			})
		}
	}
	tests := []struct {
		name string
		dir  string
		data func() []byte
		want string
	}{
		{"trailing data", shotsDir, func() []byte { return append(shots, "x"...) }, "data after the JSON document"},
		{"a second document", shotsDir, func() []byte { return append(shots, "{}"...) }, "data after the JSON document"},
		{"{}", shotsDir, func() []byte { return []byte("{}") }, "format: missing"},
		{"null", shotsDir, func() []byte { return []byte("null") }, "format: missing"},
		{"negative format", shotsDir, func() []byte { return edit(t, shots, func(m map[string]any) { m["format"] = -1 }) }, "format: -1"},
		{"no config", shotsDir, func() []byte { return edit(t, shots, func(m map[string]any) { delete(m, "config") }) }, "config: missing"},
		{"generation 0", shotsDir, func() []byte { return edit(t, shots, func(m map[string]any) { m["generation"] = 0 }) }, "generation: 0"},
		{"no population", shotsDir, func() []byte { return edit(t, shots, func(m map[string]any) { delete(m, "population") }) }, "population: missing"},
		{"hall-of-fame fitness -1000", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "hall_of_fame", 0)["fitness"] = -1000 })
		}, "hall_of_fame[0].fitness: -1000 is out of range"},
		{"score above 1", scoreDir, func() []byte {
			return edit(t, score, func(m map[string]any) { member(m, "population", 2)["fitness"] = 1.5 })
		}, "population[2].fitness: 1.5 is out of range"},
		{"non-finite fitness", shotsDir, func() []byte {
			return []byte(strings.Replace(string(shots), `"fitness": `, `"fitness": 1e999, "x": `, 1))
		}, "fitness"},
		{"interval without its fitness", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "population", 1)["ci95"] = []any{1, 2} })
		}, "population[1].ci95"},
		{"member from the future", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "hall_of_fame", 0)["generation"] = 5 })
		}, "hall_of_fame[0].generation: 5"},
		{"negative games in the history", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "history", 1)["games"] = -5 })
		}, "history[1].games: -5"},
		{"history out of order", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "history", 1)["generation"] = 1 })
		}, "history[1].generation: 1, want 2"},
		{"negative sd", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "history", 0)["sd"] = -1 })
		}, "history[0].sd: -1"},
		{"negative member games", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "population", 0)["games"] = -3 })
		}, "member with games -3"},
		{"a field this evotune does not know", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["budget_v2"] = 3 })
		}, `or a newer evotune's: it holds field "budget_v2", which this evotune does not know`},
		{"a history field this evotune does not know", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "history", 0)["p_value"] = 0.5 })
		}, `or a newer evotune's: it holds field "p_value", which this evotune does not know`},
		{"a budget past the limit", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["budget"] = config.MaxGenerations + 1 })
		}, fmt.Sprintf("budget: %d, want 1 to %d (or none)", config.MaxGenerations+1, config.MaxGenerations)},
		{"member games that adding a generation would overflow", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "hall_of_fame", 0)["games"] = 1 << 62 })
		}, "member with games 4611686018427387904"},
		{"history games past any run", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { member(m, "history", 0)["games"] = 1 << 62 })
		}, "history[0].games: 4611686018427387904"},
		{"files the config does not name", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["files"] = map[string]any{"tuned:/etc/passwd": "00"} })
		}, `files: "tuned:/etc/passwd" is not a player file the config names`},
		{"a config over the limit", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["config"] = m["config"].(string) + "#" + strings.Repeat("x", 1<<20) })
		}, "more than the limit of 1 MiB"},
		{"a verdict for a player the remeasure did not play", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["verdict"].(map[string]any)["rank"] = 0 })
		}, "verdict.rank: 0, not one the remeasure played"},
		{"a verdict with another player's genes", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) {
				m["verdict"].(map[string]any)["genes"] = member(m, "hall_of_fame", len(m["hall_of_fame"].([]any))-1)["genes"]
			})
		}, "verdict.genes: not those of the remeasured player of rank"},
		{"a verdict's difference outside its interval", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) {
				d := m["verdict"].(map[string]any)["difference"].(map[string]any)
				d["value"] = d["ci95"].([]any)[1].(float64) + 1e-9
			})
		}, "verdict.difference"},
		{"a verdict's difference of no deals", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["verdict"].(map[string]any)["difference"].(map[string]any)["n"] = 0 })
		}, "verdict.difference"},
		{"a verdict's pentanomial a pair short", h2hDir, pairs(-1), "verdict.pentanomial: 398 games in pairs, the verdict has 400"},
		{"a verdict's pentanomial a pair over", h2hDir, pairs(+1), "verdict.pentanomial: 402 games in pairs, the verdict has 400"},
		{"a verdict's start of no games", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) { m["verdict"].(map[string]any)["start"].(map[string]any)["games"] = 0 })
		}, "verdict.start"},
		{"20,000 hall-of-fame members", shotsDir, func() []byte {
			return edit(t, shots, func(m map[string]any) {
				hof := m["hall_of_fame"].([]any)
				for len(hof) < 20000 {
					hof = append(hof, hof[0])
				}
				m["hall_of_fame"] = hof
			})
		}, "hall_of_fame: 20000 members, the config keeps at most 10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{rundir.ConfigFile, rundir.CheckpointFile} {
				data, _ := os.ReadFile(filepath.Join(tc.dir, f))
				write(t, dir, f, data)
			}
			write(t, dir, rundir.CheckpointFile, tc.data())
			_, _, err := ReadRun(dir)
			if err == nil || !strings.Contains(err.Error(), "corrupt checkpoint") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a corrupt checkpoint naming %q", err, tc.want)
			}
		})
	}
}

// FuzzReadCheckpoint: no input panics the checkpoint reader, and what it
// accepts encodes and reads back to the same checkpoint.
func FuzzReadCheckpoint(f *testing.F) {
	_, good := goodRun(f, smallConfig)
	f.Add(good)
	f.Add([]byte("{}"))
	f.Add([]byte("null"))
	f.Add(append(good, " {}"...))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, rundir.CheckpointFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		ck, _, err := ReadRun(dir)
		if err != nil {
			if !strings.Contains(err.Error(), "corrupt checkpoint") && !strings.Contains(err.Error(), "checkpoint format") &&
				!strings.Contains(err.Error(), "no longer loads") {
				t.Fatalf("a refusal that does not say why: %v", err)
			}
			return
		}
		again, err := ck.encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rundir.CheckpointFile), again, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ReadRun(dir); err != nil {
			t.Fatalf("a checkpoint read once does not read again: %v", err)
		}
	})
}

// TestOversizeCheckpointIsNotRead: a checkpoint above the limit (a million
// hall-of-fame entries took 2 GB) is refused from its size, before a byte
// is read. The file is sparse: it takes no disk.
func TestOversizeCheckpointIsNotRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, rundir.CheckpointFile)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skip("no sparse files here")
	}
	f.Close()
	_, _, err = ReadRun(dir)
	if err == nil || !strings.Contains(err.Error(), "too large: more than the limit of 256 MiB") {
		t.Fatalf("err = %v", err)
	}
}

// TestRacedCMAESToldOutsideTheRange: CMA-ES's record holds what it was
// told. Without racing that is a fitness, so a score below 0 is damage;
// with racing a dropped individual may have been told a score below 0
// (ranked past a finisher scoring 0), which must read back.
func TestRacedCMAESToldOutsideTheRange(t *testing.T) {
	const text = `seed: 3
game: coin
player: tuned
fitness:
  objective: score
  baselines: {opponents: [even], games: 20}
evolution:
  model: cmaes
  population: 6
`
	for _, tc := range []struct {
		name, text string
		told       any
		want       string // "" reads
	}{
		{"without racing, below 0", text, -0.5, "cmaes_told[1][0]: -0.5 is out of range"},
		{"without racing, in range", text, 0.25, ""},
		{"with racing, below 0", text + "racing: {}\n", -0.5, ""},
		{"with racing, a row too short", text + "racing: {}\n", []any{0.5}, "cmaes_told[1]: 1 values, the config samples 6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, ck := goodRun(t, tc.text)
			dir := t.TempDir()
			data, _ := os.ReadFile(filepath.Join(src, rundir.ConfigFile))
			write(t, dir, rundir.ConfigFile, data)
			write(t, dir, rundir.CheckpointFile, edit(t, ck, func(m map[string]any) {
				rows := m["cmaes_told"].([]any)
				if row, ok := tc.told.([]any); ok {
					rows[1] = row
				} else {
					rows[1].([]any)[0] = tc.told
				}
			}))
			_, _, err := ReadRun(dir)
			wantError(t, err, tc.want)
		})
	}
}
