package engine

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/evotune/evotune/fitness"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noiseConfig evolves coin players whose cost is pure noise (mean 5 + 3
// for every genome: the deal's and the player's own): whatever the hall
// of fame says below 8 is the winner's curse.
const noiseConfig = `seed: 3
game: coin
rules: {own: 6}
player: tuned
fitness:
  baselines:
    games: 20
evolution:
  population: 16
  generations: 5
  tournament-size: 2
remeasure:
  top: 3
  games: 4000
`

// TestRemeasureIsUnbiased: the hall of fame's best of many noisy scores
// is far below the true cost 8 (lower is better), while the remeasured
// figures, on fresh deals, hold it. Without the fresh stream (re-using
// selection's deals) the figures would keep the bias.
func TestRemeasureIsUnbiased(t *testing.T) {
	dir := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), noiseConfig), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ck, _, err := ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	if best := ck.HallOfFame[0].Fitness; best > 7.5 {
		t.Fatalf("the selection-time best is %v: the example should show the winner's curse (well below 8)", best)
	}
	if len(ck.Remeasured) != 3 {
		t.Fatalf("%d remeasured, want 3", len(ck.Remeasured))
	}
	for i, m := range ck.Remeasured {
		half := (m.CI95[1] - m.CI95[0]) / 2
		t.Logf("rank %d: selection %.3f over %d games, remeasured %.3f [%.3f, %.3f] over %d",
			m.Rank, ck.HallOfFame[i].Fitness, ck.HallOfFame[i].Games, m.Fitness, m.CI95[0], m.CI95[1], m.Games)
		if m.Rank != i+1 || m.Games != 4000 {
			t.Fatalf("remeasured %d: rank %d, %d games; want rank %d, 4000 games", i, m.Rank, m.Games, i+1)
		}
		if m.Fitness < 8-3*half || m.Fitness > 8+3*half {
			t.Fatalf("remeasured %d: %v, interval half-width %v: the truth 8 is far outside", i, m.Fitness, half)
		}
	}
	best, err := os.ReadFile(filepath.Join(dir, fileBest))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fitness: ", "# selection-time", "remeasured:", "games: 4000", "fresh deals selection never saw"} {
		if !strings.Contains(string(best), want) {
			t.Fatalf("best.yaml lacks %q:\n%s", want, best)
		}
	}
	exp, _, err := Export(dir, 5, JSON, false)
	if err != nil {
		t.Fatal(err)
	}
	var doc fitness.ParamsFile
	if err := json.Unmarshal(exp, &doc); err != nil {
		t.Fatal(err)
	}
	for i, p := range doc.Players {
		if (p.Remeasured != nil) != (i < 3) {
			t.Fatalf("export rank %d: remeasured %v, want figures for the top 3 only", i+1, p.Remeasured)
		}
	}
}

// TestRemeasureResumesExactly: a run stopped before its end, or resumed
// with a raised budget after it, remeasures as a straight run does; and
// a finished checkpoint without the figures (an older evotune's) gets
// them on resume.
func TestRemeasureResumesExactly(t *testing.T) {
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, noiseConfig), Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := readRun(t, straight)

	t.Run("stopped", func(t *testing.T) {
		dir := t.TempDir()
		stop := make(chan struct{})
		_, err := Start(context.Background(), loadText(t, cfgDir, noiseConfig), Options{Dir: dir, Workers: 1, Stop: stop, Progress: &stopAt{after: 2, stop: stop}})
		if !errors.Is(err, ErrStopped) {
			t.Fatalf("err %v, want ErrStopped", err)
		}
		if ck, _, _ := ReadCheckpoint(dir); len(ck.Remeasured) != 0 {
			t.Fatal("a stopped run has remeasured figures: the end is not reached")
		}
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		sameRun(t, want, readRun(t, dir), "stopped and resumed")
	})
	t.Run("budget raised", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Start(context.Background(), loadText(t, cfgDir, noiseConfig), Options{Dir: dir, Workers: 2, Generations: 3}); err != nil {
			t.Fatal(err)
		}
		if ck, _, _ := ReadCheckpoint(dir); len(ck.Remeasured) != 3 {
			t.Fatal("a run that reached its budget of 3 is not remeasured")
		}
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 1, Generations: 5}); err != nil {
			t.Fatal(err)
		}
		sameRun(t, want, readRun(t, dir), "raised from 3 to 5")
	})
	t.Run("missing figures", func(t *testing.T) {
		dir := t.TempDir()
		for name, data := range want {
			if name != "export" {
				write(t, dir, name, data)
			}
		}
		var ck map[string]any
		if err := json.Unmarshal(want[fileCheckpoint], &ck); err != nil {
			t.Fatal(err)
		}
		delete(ck, "remeasured")
		data, _ := json.Marshal(ck)
		write(t, dir, fileCheckpoint, data)
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, fileBest))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want[fileBest]) {
			t.Fatalf("best.yaml after resume:\n%s\nwant:\n%s", got, want[fileBest])
		}
	})
}

func TestRemeasureConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"no baselines", "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  population:\n    games: 2\nremeasure: {}\n",
			"remeasure: re-measures against the baseline opponents"},
		{"top zero", strings.Replace(noiseConfig, "top: 3", "top: 0", 1), "remeasure.top: 0: want from 1 to evolution.hall-of-fame (10)"},
		{"odd games", "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\nremeasure:\n  games: 3\n",
			"remeasure.games: 3: want an even number"},
		{"too many games", strings.Replace(noiseConfig, "games: 4000", "games: 1000001", 1), "remeasure.games: 1000001: more than the limit"},
		{"unknown key", noiseConfig + "  deals: 3\n", "remeasure.deals: unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestSummaryNamesSpending(t *testing.T) {
	cfg := loadText(t, t.TempDir(), racedConfig+"remeasure: {top: 2}\n")
	for _, want := range []string{"racing: 5 rounds at confidence 0.95, keeping the best 2", "remeasure: the best 2 on 1000 fresh games"} {
		if !strings.Contains(cfg.Summary(), want) {
			t.Fatalf("summary lacks %q:\n%s", want, cfg.Summary())
		}
	}
	if s := loadText(t, t.TempDir(), smallConfig).spendingSummary(); s != "" {
		t.Fatalf("a config without the keys says %q", s)
	}
}
