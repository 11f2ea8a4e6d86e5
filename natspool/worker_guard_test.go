package natspool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/buildinfo"
)

// TestWorkerGuardsItsMachine: a coordinator is anyone who reaches the
// queue, so a worker runs no program unless allowed (and starts none to
// find out), and reads a player file a config names only when it is
// the coordinator's byte for byte, hashed before anything parses it, so
// no message carries a file of the worker's back. Baselines, co-evolved
// opponents and rule options that name players (Battleship's placer)
// are all guarded; a file the coordinator has too loads as usual.
func TestWorkerGuardsItsMachine(t *testing.T) {
	dir := t.TempDir()
	const secret = "SECRET-DO-NOT-LEAK-123"
	secretFile := filepath.Join(dir, "secret.yaml")
	if err := os.WriteFile(secretFile, []byte(secret+" is the password\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	placer := filepath.Join(dir, "placer.yaml")
	placerText := []byte("temperature: 2\n")
	if err := os.WriteFile(placer, placerText, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
	marker := filepath.Join(dir, "ran")
	base := strings.Replace(smallConfig, "seeds:", "%s\nseeds:", 1)
	config := func(extra string) string { return strings.Replace(base, "%s", extra, 1) }
	for _, tc := range []struct {
		name   string
		config string
		files  map[string]string // what the coordinator says it has
		allow  bool
		want   string // "": played
		is     error
	}{
		{"a program, not allowed", config("command: [sh, -c, 'touch " + marker + "; exec false']"), nil, false, engine.ErrProgramRefused.Error(), engine.ErrProgramRefused},
		{"a baseline file the coordinator has not", strings.Replace(config(""), "    games: 24", "    games: 24\n    opponents: [tuned:"+secretFile+"]", 1),
			nil, false, "is not the coordinator's file", nil},
		{"a baseline file that differs", strings.Replace(config(""), "    games: 24", "    games: 24\n    opponents: [tuned:"+secretFile+"]", 1),
			map[string]string{"tuned:" + secretFile: sum(placerText)}, false, "is not the coordinator's file", nil},
		{"a rule's file that differs", config("rules: {placer: 'tuned:" + secretFile + "'}"),
			map[string]string{"tuned:" + secretFile: sum(placerText)}, false, "is not the coordinator's file", nil},
		{"a rule's file the coordinator has", config("rules: {placer: 'tuned:" + placer + "'}"),
			map[string]string{"tuned:" + placer: sum(placerText)}, false, "", nil},
		{"a baseline file the coordinator has", strings.Replace(config(""), "    games: 24", "    games: 24\n    opponents: [tuned:"+placer+"]", 1),
			map[string]string{"tuned:" + placer: sum(placerText)}, false, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfgFile := filepath.Join(t.TempDir(), "c.yaml")
			if err := os.WriteFile(cfgFile, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			var hash string
			if tc.want == "" {
				cfg, err := engine.Load(cfgFile)
				if err != nil {
					t.Fatal(err)
				}
				hash = cfg.Hash()
				cfg.Close()
			}
			run, err := json.Marshal(runDescription{Format: DescriptionFormat, Config: tc.config, ConfigHash: hash, Files: tc.files, Build: buildinfo.Own()})
			if err != nil {
				t.Fatal(err)
			}
			w := &Worker{AllowPrograms: tc.allow}
			defer w.Close()
			fetch := func(context.Context, string) ([]byte, error) { return run, nil }
			_, err = w.PlayBatch(context.Background(), (&batchDescription{Batch: "r.0.0", Run: "k"}).append(nil), 1, fetch)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Fatalf("got %v, want %v", err, tc.is)
			case err != nil && strings.Contains(err.Error(), secret):
				t.Fatalf("the worker's file went into the message: %v", err)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the worker ran the config's command")
			}
		})
	}
}

// smallConfig is a Battleship run of a few seconds.
const smallConfig = `name: small
seed: 7
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 24
evolution:
  population: 8
  generations: 4
  tournament-size: 2
  elitism: 1
`

// prepared is config text prepared for a run, from a file of its own.
func prepared(t testing.TB, text string) *engine.Setup {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
