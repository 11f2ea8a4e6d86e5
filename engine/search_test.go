package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchModelsSurviveKills kills cmaes and random-search runs (in
// simulation, as TestKillAtEveryWriteStepResumesExactly does) at every
// write and rename of every file, resumes them at another worker count,
// and demands the very files of a run never killed. CMA-ES's state lives
// in a goroutine; only the values told, in the checkpoint, survive.
func TestSearchModelsSurviveKills(t *testing.T) {
	for _, model := range []string{"cmaes", "random-search"} {
		t.Run(model, func(t *testing.T) {
			text := strings.Replace(crashConfig, "  elitism: 1\n", "  model: "+model+"\n", 1)
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
					dir := t.TempDir()
					fs := &faultFS{crashAt: k}
					useDisk(t, fs)
					killed, err := survive(func() error {
						_, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 1})
						return err
					})
					if !killed {
						t.Fatalf("no kill at step %d (%v): %v", k, op, err)
					}
					fs.crashAt = -1
					if _, err := os.Stat(filepath.Join(dir, fileCheckpoint)); err == nil {
						if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 3}); err != nil {
							t.Fatal(err)
						}
					} else if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 3}); err != nil {
						t.Fatal(err)
					}
					sameFiles(t, want, readDir(t, dir), "killed, resumed")
				})
			}
		})
	}
}
