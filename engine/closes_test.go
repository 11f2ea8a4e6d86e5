package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/rundir"
)

// closingCoin is coin with a Close, as an outside program's game has,
// counting the games made and closed.
type closingCoin struct{ coin }

var coinsOpen atomic.Int64

func (closingCoin) Close() error { coinsOpen.Add(-1); return nil }

func init() {
	catalog.Register(fitness.GameInfo{Name: "closing-coin", Summary: "coin, closed like an outside program",
		New: func(map[string]string) (fitness.Game, error) {
			coinsOpen.Add(1)
			return closingCoin{coin{spread: 1}}, nil
		}})
}

// TestReadRunClosesWhatItOpens: a checkpoint found corrupt after
// its config was loaded (which starts an outside program) closes the
// config's game, on every such error. Before, three of them (a species
// too many, files the config does not name, a damaged member) did not.
func TestReadRunClosesWhatItOpens(t *testing.T) {
	text := strings.Replace(smallConfig, "game: battleship", "game: closing-coin", 1)
	text = strings.Replace(text, "fitness:\n  baselines:\n", "fitness:\n  objective: score\n  baselines:\n    opponents: [even]\n", 1)
	dir := t.TempDir()
	cfg := loadText(t, t.TempDir(), text)
	if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 1, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	cfg.Close()
	data, err := os.ReadFile(filepath.Join(dir, rundir.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"a species too many", `"generation": 1,`, `"generation": 1, "rivals": {"population": [], "hall_of_fame": [], "history": []},`, "2 species"},
		{"a file the config does not name", `"format": 1,`, `"format": 1, "files": {"tuned:x.yaml": "00"},`, "not a player file"},
		{"a damaged member", `"fitness": [0-9.e+-]+`, `"fitness": 2`, "population[0].fitness"},
		{"another config hash", `"config_hash": "[0-9a-f]+"`, `"config_hash": "00"`, "config hash does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := regexp.MustCompile(tc.old).FindIndex(data)
			if at == nil {
				t.Fatalf("no %s in the checkpoint", tc.old)
			}
			var damaged bytes.Buffer
			damaged.Write(data[:at[0]])
			damaged.WriteString(tc.new)
			damaged.Write(data[at[1]:])
			write(t, dir, rundir.CheckpointFile, damaged.Bytes())
			before := coinsOpen.Load()
			_, _, err := ReadRun(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one saying %q", err, tc.want)
			}
			if open := coinsOpen.Load() - before; open != 0 {
				t.Fatalf("%d games left open", open)
			}
		})
	}
}
