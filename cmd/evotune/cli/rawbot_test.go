package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
)

// rawbot is an outside program that this test binary becomes when
// EVOTUNE_AS_RAWBOT=1: a solo game ("walk", cost "steps") written against
// the protocol's lines directly, so it can break the protocol in ways
// fitness/external/program never would. Its cost is a pure function of
// the seed and the knob. It misbehaves on request:
// RAWBOT_COST=X answers cost X for every game whose seed is odd;
// RAWBOT_TWICE=1 answers every request twice; RAWBOT_STDERR=TEXT writes
// TEXT to stderr on every game (RAWBOT_STDERR_LINES=N times); RAWBOT_SUMMARY=TEXT
// is its summary;
// RAWBOT_GRID=N gives its player an NxN grid too (which it ignores).
func rawbot() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	summary := os.Getenv("RAWBOT_SUMMARY")
	if summary == "" {
		summary = "a seeded walk"
	}
	params := []any{map[string]any{"name": "pace", "type": "float", "min": 0, "max": 1, "default": 0.5}}
	if side, _ := strconv.Atoi(os.Getenv("RAWBOT_GRID")); side > 0 {
		cells := make([]float64, side*side)
		for i := range cells {
			cells[i] = 0.5
		}
		params = append(params, map[string]any{"name": "grid", "type": "grid", "rows": side, "cols": side, "min": 0, "max": 1, "default": cells})
	}
	offer, _ := json.Marshal(map[string]any{
		"type": "hello", "protocol": 1, "game": "walk", "summary": summary, "mode": "solo", "measure": "steps",
		"options": []any{}, "roles": []string{"walker"},
		"players": []any{map[string]any{"name": "tuned", "role": "walker", "params": params}},
	})
	badCost, _ := strconv.ParseFloat(os.Getenv("RAWBOT_COST"), 64)
	twice := os.Getenv("RAWBOT_TWICE") == "1"
	stderr := os.Getenv("RAWBOT_STDERR")
	stderrLines, _ := strconv.Atoi(os.Getenv("RAWBOT_STDERR_LINES"))
	for in.Scan() {
		var req struct {
			Type  string `json:"type"`
			ID    uint64 `json:"id"`
			Seed  string `json:"seed"`
			Seats []struct {
				Params struct {
					Pace float64 `json:"pace"`
				} `json:"params"`
			} `json:"seats"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "rawbot:", err)
			os.Exit(2)
		}
		if req.Type == "hello" {
			out.Write(offer)
			out.WriteByte('\n')
			out.Flush()
			continue
		}
		seed, _ := strconv.ParseUint(req.Seed, 10, 64)
		cost := float64(seed%17) + 10*math.Abs(req.Seats[0].Params.Pace-0.3)
		if badCost != 0 && seed%2 == 1 {
			cost = badCost
		}
		if stderr != "" {
			for range max(1, stderrLines) {
				fmt.Fprintln(os.Stderr, stderr)
			}
		}
		reply, _ := json.Marshal(map[string]any{"type": "result", "id": req.ID, "cost": cost})
		for range 1 + btoi(twice) {
			out.Write(reply)
			out.WriteByte('\n')
		}
		out.Flush()
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rawbotConfig is a short solo run of rawbot, with extra environment
// env.
func rawbotConfig(t *testing.T, dir string, env map[string]string, extra string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("name: walk\nseed: 2\ncommand: [%s]\nenv:\n  EVOTUNE_AS_RAWBOT: \"1\"\n", exe)
	for k, v := range env {
		text += fmt.Sprintf("  %s: %q\n", k, v)
	}
	text += `player: tuned
fitness:
  baselines:
    games: 20
evolution:
  population: 6
  generations: 2
  tournament-size: 2
` + extra
	cfg := fmt.Sprintf("%s/walk.yaml", dir)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}
