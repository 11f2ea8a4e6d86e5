package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
)

// TestHugeWeightsDoNotOverflow: fitness weights of 1e308 overflowed their
// sum, and every fitness silently became 0. Weights are relative, so a run
// with all weights 1e308 must score exactly as one with all weights 1.
func TestHugeWeightsDoNotOverflow(t *testing.T) {
	huge := hofConfig
	for _, mode := range []string{"baselines", "population", "hall-of-fame"} {
		huge = strings.Replace(huge, "  "+mode+":\n", "  "+mode+":\n    weight: 1e308\n", 1)
	}
	if strings.Count(huge, "1e308") != 3 {
		t.Fatal("the config did not take the weights")
	}
	var csv [][]byte
	for _, text := range []string{hofConfig, huge} {
		dir := t.TempDir()
		startText(t, text, Options{Dir: dir, Workers: 2})
		csv = append(csv, readRun(t, dir)[rundir.GenerationsFile])
	}
	if !bytes.Equal(csv[0], csv[1]) {
		t.Fatalf("weights 1e308 score differently from weights 1:\n%s\n---\n%s", csv[0], csv[1])
	}
}

// soloRoleGame is what Battleship is: a solo game with roles.
type soloRoleGame interface {
	fitness.SoloGame
}

// brokenGame reports bad for every solo game after the first after.
type brokenGame struct {
	soloRoleGame
	after int64
	bad   float64
	n     atomic.Int64
}

func (g *brokenGame) PlaySolo(ctx context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	if g.n.Add(1) > g.after {
		return g.bad, nil
	}
	return g.soloRoleGame.PlaySolo(ctx, p, opp, seed)
}

// TestImpossibleResultsStopTheRun: a game that reports a cost no game
// gives (not a number, infinite, negative) ends the run with
// errImpossibleResult (exit 1), naming the game, before the generation
// is checkpointed: the last checkpoint stays intact, and the run never
// writes a checkpoint it would refuse to resume.
func TestImpossibleResultsStopTheRun(t *testing.T) {
	// 1.4e154 and 1e300 are finite, but the sums of their squares are
	// not: before, they stopped the run with "fitness is not a finite
	// number", naming no game.
	for _, bad := range []float64{math.NaN(), math.Inf(1), -1, 1.4e154, 1e300, math.MaxFloat64} {
		t.Run(fmt.Sprint(bad), func(t *testing.T) {
			cfg := loadText(t, t.TempDir(), smallConfig)
			perGeneration := int64(cfg.cfg.Evolution.Population * cfg.cfg.Fitness.Baselines.Games)
			cfg.game = &brokenGame{soloRoleGame: cfg.game.(soloRoleGame), after: perGeneration, bad: bad}
			dir := t.TempDir()
			_, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2})
			if !errors.Is(err, errImpossibleResult) || !strings.Contains(err.Error(), "generation 2") ||
				!strings.Contains(err.Error(), fmt.Sprint(bad)+" is not a result a game gives") || !strings.Contains(err.Error(), "(seed ") {
				t.Fatalf("err %v, want errImpossibleResult in generation 2", err)
			}
			ck, _, err := ReadRun(dir)
			if err != nil {
				t.Fatalf("the last checkpoint does not read: %v", err)
			}
			if ck.Generation != 1 {
				t.Fatalf("checkpoint at generation %d, want 1", ck.Generation)
			}
		})
	}
}

func TestCombineWeighsRelatively(t *testing.T) {
	var st [nModes]modeStats
	st[modeBaselines].add(0.25)
	st[modePopulation].add(0.75)
	for _, w := range [][nModes]float64{{1, 1, 0}, {1e308, 1e308, 0}, {math.MaxFloat64, math.MaxFloat64, 5}} {
		if m := combine(nil, 0, st, w); m.Fitness != 0.5 {
			t.Errorf("weights %v: fitness %v, want 0.5", w, m.Fitness)
		}
	}
}

// panickyGame panics in every solo game after the first after.
type panickyGame struct {
	soloRoleGame
	after int64
	n     atomic.Int64
}

func (g *panickyGame) PlaySolo(ctx context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	if g.n.Add(1) > g.after {
		panic("index out of range [7] with length 7")
	}
	return g.soloRoleGame.PlaySolo(ctx, p, opp, seed)
}

// TestPanickingGameStopsTheRun: a game that panics ends the run with
// errGamePanicked (exit 1, not the crash of exit 2), naming a seed,
// with the stack in run.log and the last checkpoint intact.
func TestPanickingGameStopsTheRun(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	perGeneration := int64(cfg.cfg.Evolution.Population * cfg.cfg.Fitness.Baselines.Games)
	cfg.game = &panickyGame{soloRoleGame: cfg.game.(soloRoleGame), after: perGeneration}
	dir := t.TempDir()
	_, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2})
	if !errors.Is(err, errGamePanicked) || !strings.Contains(err.Error(), "generation 2") || !strings.Contains(err.Error(), "(seed ") {
		t.Fatalf("err %v, want errGamePanicked in generation 2 with a seed", err)
	}
	if ck, _, err := ReadRun(dir); err != nil || ck.Generation != 1 {
		t.Fatalf("the last checkpoint: %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if !strings.Contains(string(log), "panickyGame") {
		t.Fatalf("run.log has no stack:\n%s", log)
	}
}
