package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// TestCheckpointHeaderEdges: each of the header's ranges at its edges, the
// last value accepted and the first refused.
func TestCheckpointHeaderEdges(t *testing.T) {
	good := func() *Checkpoint {
		return &Checkpoint{Format: CheckpointFormat, ConfigHash: "h", Config: "c", Generation: 1}
	}
	tests := []struct {
		name   string
		change func(*Checkpoint)
		want   string
	}{
		{"as written", func(*Checkpoint) {}, ""},
		{"format missing", func(c *Checkpoint) { c.Format = 0 }, "format: missing"},
		{"format -1", func(c *Checkpoint) { c.Format = -1 }, "format: -1"},
		{"config at the limit", func(c *Checkpoint) { c.Config = strings.Repeat("x", fileio.MaxConfig) }, ""},
		{"config past the limit", func(c *Checkpoint) { c.Config = strings.Repeat("x", fileio.MaxConfig+1) }, "config: 1048577 bytes, more than the limit of 1 MiB"},
		{"generation at the limit", func(c *Checkpoint) { c.Generation = config.MaxGenerations }, ""},
		{"generation past the limit", func(c *Checkpoint) { c.Generation = config.MaxGenerations + 1 }, "generation: 100001, want 1 to 100000"},
		{"generation 0", func(c *Checkpoint) { c.Generation = 0 }, "generation: 0, want 1 to 100000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ck := good()
			tc.change(ck)
			err := ck.checkHeader()
			if got := fmt.Sprint(err); (tc.want == "") != (err == nil) || err != nil && got != tc.want {
				t.Fatalf("checkHeader: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCheckpointSpeciesEdges: a member's generation, a history row's games
// and its best genes, each at its edges, on a real two-generation run.
func TestCheckpointSpeciesEdges(t *testing.T) {
	dir := t.TempDir()
	startText(t, smallConfig, Options{Dir: dir, Generations: 2})
	tests := []struct {
		name   string
		change func(*Checkpoint)
		want   string
	}{
		{"as written", func(*Checkpoint) {}, ""},
		{"a member of the last generation", func(c *Checkpoint) { c.Population[0].Generation = 1 }, ""},
		{"a member of the checkpoint's own generation", func(c *Checkpoint) { c.Population[0].Generation = 2 },
			"population[0].generation: 2, from after the checkpoint's 2 generations"},
		{"a generation of no games", func(c *Checkpoint) { c.History[1].Games = 0 }, ""},
		{"a generation of -1 games", func(c *Checkpoint) { c.History[1].Games = -1 }, "history[1].games: -1"},
		{"a row without best genes", func(c *Checkpoint) { c.History[0].BestGenes = nil }, ""},
		{"a row's best genes outside the space", func(c *Checkpoint) {
			c.History[0].BestGenes = append([]float64(nil), c.History[0].BestGenes...)
			c.History[0].BestGenes[0] = 99
		}, "history[0].best_genes: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ck, cfg, err := ReadRun(dir)
			if err != nil {
				t.Fatal(err)
			}
			if ck.History[0].BestGenes == nil {
				t.Fatal("the run's history has no best genes to edit")
			}
			tc.change(ck)
			err = ck.checkSpecies(cfg, 0, ck.SpeciesState)
			if (tc.want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("checkSpecies: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestForeignDirectoryNamesItsFiles: a run refused a directory of the
// user's files names the first five, sorted, and counts the rest, and
// leaves the directory as it was.
func TestForeignDirectoryNamesItsFiles(t *testing.T) {
	for _, tc := range []struct {
		files int
		found string
	}{
		{1, "(found f1)"},
		{5, "(found f1, f2, f3, f4, f5)"},
		{6, "(found f1, f2, f3, f4, f5, and 1 more)"},
		{9, "(found f1, f2, f3, f4, f5, and 4 more)"},
	} {
		t.Run(fmt.Sprint(tc.files), func(t *testing.T) {
			dir := t.TempDir()
			for i := tc.files; i >= 1; i-- {
				write(t, dir, fmt.Sprintf("f%d", i), nil)
			}
			_, err := Start(context.Background(), loadText(t, t.TempDir(), smallConfig), Options{Dir: dir, Generations: 1})
			if !errors.Is(err, rundir.ErrNotEvotuneDir) || !strings.Contains(err.Error(), tc.found+": choose another -o/--output") {
				t.Fatalf("err %v, want %v naming %s", err, rundir.ErrNotEvotuneDir, tc.found)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != tc.files {
				t.Fatalf("%d files after the refusal, want %d", len(entries), tc.files)
			}
		})
	}
}

// TestSwitchWriterDropsUntilSet: a program's stderr is dropped until the
// run opens its log, then forwarded.
func TestSwitchWriterDropsUntilSet(t *testing.T) {
	var s switchWriter
	if n, err := s.Write([]byte("before\n")); n != 7 || err != nil {
		t.Fatalf("write before set: %d, %v", n, err)
	}
	var log bytes.Buffer
	s.set(&log)
	if n, err := s.Write([]byte("after\n")); n != 6 || err != nil {
		t.Fatalf("write after set: %d, %v", n, err)
	}
	if log.String() != "after\n" {
		t.Fatalf("the log holds %q, want only what came after set", log.String())
	}
}

// bridge builds examples/bridge, an outside program, into its gitignored
// place (the path configs/bridge-mnk.yaml names), once per test binary.
var bridge = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "build", "-o", "../examples/bridge/bridge", "../examples/bridge").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build examples/bridge: %v\n%s", err, out)
	}
	return filepath.Abs("../examples/bridge/bridge")
})

// TestProgramTimeout: a program's timeout is a positive duration; anything
// else is refused at its key before the program starts.
func TestProgramTimeout(t *testing.T) {
	bin, err := bridge()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		timeout string
		want    time.Duration
		err     string
	}{
		{"5s", 5 * time.Second, ""},
		{"1ns", time.Nanosecond, ""},
		{"0s", 0, `timeout: "0s": want a positive duration`},
		{"-1s", 0, `timeout: "-1s": want a positive duration`},
		{"soon", 0, `timeout: "soon": want a positive duration`},
	} {
		t.Run(tc.timeout, func(t *testing.T) {
			text := fmt.Sprintf("command: [%s, mnk]\nplayer: tuned\ntimeout: %s\nfitness: {baselines: {opponents: [greedy], games: 2}}\n", bin, tc.timeout)
			cfg, err := parse("program.yaml", []byte(text))
			if !wantError(t, err, tc.err) {
				return
			}
			defer cfg.Close()
			if cfg.program.cmd.Timeout != tc.want {
				t.Fatalf("timeout %v, want %v", cfg.program.cmd.Timeout, tc.want)
			}
		})
	}
}
