package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestSearchModelsSurviveKills kills cmaes and random-search runs (in
// simulation, as TestKillAtEveryWriteStepResumesExactly does) at every
// write and rename of every file, resumes them at another worker count,
// and demands the very files of a run never killed. CMA-ES's state lives
// in a goroutine; only the values told, in the checkpoint, survive (with
// racing, the figures the dropped were told).
func TestSearchModelsSurviveKills(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"cmaes", strings.Replace(crashConfig, "  elitism: 1\n", "  model: cmaes\n", 1)},
		{"random-search", strings.Replace(crashConfig, "  elitism: 1\n", "  model: random-search\n", 1)},
		{"cmaes racing", strings.Replace(strings.Replace(racedConfig, "  elitism: 2\n", "  model: cmaes\n  step-size: 0.5\n", 1),
			"generations: 6", "generations: 3", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			cfgDir := t.TempDir()
			rec := &faultFS{crashAt: -1}
			useDisk(t, rec)
			straight := t.TempDir()
			if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 1}); err != nil {
				t.Fatal(err)
			}
			want := readDir(t, straight)
			for k, op := range rec.ops {
				if op.kind != "write" && op.kind != "rename" {
					continue
				}
				t.Run(fmt.Sprintf("%02d %v", k, op), func(t *testing.T) {
					killAtStepAndResume(t, cfgDir, text, k, 3, want)
				})
			}
		})
	}
}

// TestCoevolvingSearchModelsResumeExactly: with two species, each has a
// search of its own (its own CMA-ES, on its own stream), and a run
// stopped after a generation and resumed ends as one that went straight
// through; with cmaes, each species' checkpoint holds its own record.
func TestCoevolvingSearchModelsResumeExactly(t *testing.T) {
	for _, model := range []string{"cmaes", "random-search"} {
		t.Run(model, func(t *testing.T) {
			text := strings.Replace(coevolveConfig, "  elitism: 1\n", "  model: "+model+"\n", 1)
			cfgDir := t.TempDir()
			straight := t.TempDir()
			if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 1}); err != nil {
				t.Fatal(err)
			}
			want := readFilesAndExport(t, straight, true)
			dir := t.TempDir()
			stop := make(chan struct{})
			if _, err := Start(context.Background(), loadText(t, cfgDir, text),
				Options{Dir: dir, Workers: 2, Stop: stop, Progress: &stopAt{after: 1, stop: stop}}); !errors.Is(err, ErrStopped) {
				t.Fatalf("stop: %v", err)
			}
			if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 3}); err != nil {
				t.Fatal(err)
			}
			sameRun(t, want, readFilesAndExport(t, dir, true), model+", co-evolving, stopped, resumed")
			ck, _, err := ReadRun(straight)
			if err != nil {
				t.Fatal(err)
			}
			if model == "cmaes" {
				if a, b := toldOf(t, ck.SpeciesState), toldOf(t, *ck.Rivals); len(a) != 3 || len(b) != 3 {
					t.Fatalf("told %d and %d generations, want 3 each", len(a), len(b))
				}
			}
		})
	}
}
