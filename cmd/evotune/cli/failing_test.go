package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
)

// flaky is a game that cannot be played on about one seed in every (rule
// option, default 500), as an outside program that crashes would: the run
// must stop with one line naming the seed, not panic.
type flaky struct {
	every  uint64
	panics bool // fail by panicking, as a buggy game would
}

type flakyPlayer struct{ edge float64 }

func (flakyPlayer) Name() string { return "edge" }

var flakySchema = genome.Schema{{Name: "edge", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}}}

func (flaky) Name() string          { return "flaky" }
func (flaky) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (flaky) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{{Name: "edge", Role: fitness.Mover, Schema: flakySchema}}
}
func (flaky) NewPlayer(_ fitness.Role, _ string, v genome.Values) (fitness.Player, error) {
	if err := fitness.CheckParams(flakySchema, v); err != nil {
		return nil, err
	}
	return flakyPlayer{v.Float("edge")}, nil
}
func (g flaky) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if seed%g.every == 7 {
		if g.panics {
			panic("flaky: the game broke")
		}
		return 0, errors.New("flaky: the program crashed")
	}
	if fitness.NewRand(seed).Float64() < a.(flakyPlayer).edge {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}

func init() {
	catalog.Register(fitness.GameInfo{Name: "flaky", Summary: "fails on some seeds",
		New: func(opts map[string]string) (fitness.Game, error) {
			g := flaky{every: 500}
			if s, ok := opts["every"]; ok {
				if _, err := fmt.Sscan(s, &g.every); err != nil || g.every <= 7 {
					return nil, fmt.Errorf("flaky: every %q: want a number above 7", s)
				}
			}
			g.panics = opts["panic"] == "true"
			return g, nil
		}})
}

var seedLine = regexp.MustCompile(`^evotune (eval|run): .*game seed (\d+): flaky: the program crashed\n$`)

// firstFailingSeed is the seed of the lowest-index failing game of an
// eval of flaky: PlayPairs' seeds in order.
func firstFailingSeed(seed uint64, games int) uint64 {
	for i := range games {
		s := fitness.Derive(fitness.Derive(seed, 2), uint64(i/2))
		if s%500 == 7 {
			return s
		}
	}
	return 0
}

func TestFailingGameStopsEvalNamingTheSeed(t *testing.T) {
	want := firstFailingSeed(3, 4000)
	if want == 0 {
		t.Fatal("no failing game in the eval: pick another seed")
	}
	for _, workers := range []string{"1", "2", "7"} {
		t.Run("workers="+workers, func(t *testing.T) {
			code, _, errs := run(t, "eval", "flaky", "--player", "edge", "--vs", "edge", "--games", "4000",
				"--seed", "3", "--workers", workers)
			if code != ExitFailure {
				t.Fatalf("exit %d, want %d: %s", code, ExitFailure, errs)
			}
			m := seedLine.FindStringSubmatch(errs)
			if m == nil || m[2] != fmt.Sprint(want) {
				t.Fatalf("stderr %q, want one line naming seed %d, the first failing game's", errs, want)
			}
		})
	}
}

// TestPanickingGameStopsEval: a game that panics during eval is a runtime
// failure (exit 1, one line naming the seed of the lowest failing game),
// not a crash with a stack trace and exit 2.
func TestPanickingGameStopsEval(t *testing.T) {
	want := firstFailingSeed(3, 4000)
	for _, workers := range []string{"1", "2"} {
		t.Run("workers="+workers, func(t *testing.T) {
			code, _, errs := run(t, "eval", "flaky", "--rule", "panic=true", "--player", "edge", "--vs", "edge",
				"--games", "4000", "--seed", "3", "--workers", workers)
			line := fmt.Sprintf("game seed %d: panic: flaky: the game broke\n", want)
			if code != ExitFailure || !strings.HasSuffix(errs, line) || strings.Count(errs, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q: want exit %d and one line ending %q", code, errs, ExitFailure, line)
			}
		})
	}
}

// TestFailingGameStopsRunCleanly runs the real command: the failure of a
// game in some generation stops the run with exit 1 and one line naming
// the seed; the checkpoint of the last good generation stays readable.
func TestFailingGameStopsRunCleanly(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "flaky.yaml")
	if err := os.WriteFile(cfg, []byte("game: flaky\nrules: {every: 40}\nplayer: edge\nfitness:\n  objective: score\n  baselines:\n    games: 20\n    opponents: [edge]\nevolution:\n  population: 8\n  generations: 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	cmd := evotune("run", cfg, "--out", out, "--quiet")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := runWatched(t, cmd)
	var exit interface{ ExitCode() int }
	if !errors.As(err, &exit) || exit.ExitCode() != int(ExitFailure) {
		t.Fatalf("run: %v, want exit 1; stderr: %s", err, stderr.String())
	}
	m := seedLine.FindStringSubmatch(stderr.String())
	if m == nil || !strings.Contains(stderr.String(), "generation ") {
		t.Fatalf("stderr %q: want one line naming the generation and the seed", stderr.String())
	}
	if strings.Contains(stderr.String(), "generation 1:") {
		t.Fatal("the first generation failed: pick a config whose failure comes later")
	}
	if _, _, err := engine.ReadRun(out); err != nil {
		t.Fatalf("checkpoint of the last good generation: %v", err)
	}
}
