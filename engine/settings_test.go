package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
)

// settingsConfig tunes Hadron at depth 2 against baselines and the hall
// of fame; %s are the rules' depth, the tuned player and the baseline.
const settingsConfig = `
seed: 3
game: hadron
rules: {size: 5, depth: %s}
player: %s
space:
  w1_late: {}
  t: {}
fitness:
  objective: score
  baselines:
    opponents: [%s, greedy]
    games: 4
  hall-of-fame:
    members: 2
    games: 2
evolution:
  population: 4
  generations: 2
  tournament-size: 2
  elitism: 1
`

// TestPlayerSettingsPlayInRuns: a run whose players carry their own depth
// (player: tuned@depth=2, a baseline aenigma@depth=2, in a game whose rule
// says depth 1) plays every game, baselines, hall of fame and the
// remeasure of the best, as the run whose rule says depth 2; its export
// carries the tuned player's settings, and loading it plays at that depth.
func TestPlayerSettingsPlayInRuns(t *testing.T) {
	history := func(depth, player, baseline string) (string, []byte) {
		t.Helper()
		dir := t.TempDir()
		cfg := loadText(t, t.TempDir(), fmt.Sprintf(settingsConfig, depth, player, baseline))
		if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		exp, _, err := export(dir, 1, false, false)
		if err != nil {
			t.Fatal(err)
		}
		csv, err := os.ReadFile(filepath.Join(dir, rundir.GenerationsFile))
		if err != nil {
			t.Fatal(err)
		}
		ck, _, err := ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(ck.Remeasured) == 0 || ck.Verdict == nil {
			t.Fatal("the run re-measured nothing")
		}
		remeasure, err := json.Marshal([]any{ck.Remeasured, ck.Verdict})
		if err != nil {
			t.Fatal(err)
		}
		return string(csv) + string(remeasure), exp
	}
	want, plain := history("2", "tuned", "aenigma")
	got, exp := history("1", "tuned@depth=2", "aenigma@depth=2")
	if got != want {
		t.Fatalf("with settings at depth 2 under a depth-1 rule:\n%s\nwith the depth-2 rule:\n%s", got, want)
	}
	if shallow, _ := history("1", "tuned", "aenigma"); shallow == want {
		t.Fatal("the depth-1 run played as the depth-2 one: the test cannot tell settings from rules")
	}
	if bytes.Contains(plain, []byte("settings:")) || !bytes.Contains(exp, []byte("settings:\n  depth: \"2\"")) {
		t.Fatalf("the export of the run with settings should carry them, the other not:\n%s\n---\n%s", exp, plain)
	}
	// The export loads with its settings: tuned:FILE in a depth-1 game
	// plays as the same values in a depth-2 game.
	file := filepath.Join(t.TempDir(), "best.yaml")
	if err := os.WriteFile(file, exp, 0o644); err != nil {
		t.Fatal(err)
	}
	plainFile := filepath.Join(t.TempDir(), "plain.yaml")
	if err := os.WriteFile(plainFile, []byte(strings.Replace(string(exp), "settings:\n  depth: \"2\"\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	d1, d2 := hadronGame(t, "1"), hadronGame(t, "2")
	loaded, err := fitness.ParseSpec(d1, fitness.Mover, "tuned:"+file)
	if err != nil {
		t.Fatal(err)
	}
	same, err := fitness.ParseSpec(d2, fitness.Mover, "tuned:"+plainFile)
	if err != nil {
		t.Fatal(err)
	}
	g1, g2 := outcomesAgainstGreedy(t, d1, loaded), outcomesAgainstGreedy(t, d2, same)
	if g1 != g2 {
		t.Fatalf("the export's settings were not applied: %s, want %s", g1, g2)
	}
}

func hadronGame(t *testing.T, depth string) fitness.Game {
	t.Helper()
	cfg, err := parse("h.yaml", []byte(fmt.Sprintf("game: hadron\nrules: {size: 5, depth: %s}\nplayer: tuned\nfitness: {objective: score, baselines: {opponents: [greedy]}}\n", depth)))
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Game()
}

// outcomesAgainstGreedy plays p against greedy on a few seeds and returns the outcomes.
func outcomesAgainstGreedy(t *testing.T, g fitness.Game, p fitness.Player) string {
	t.Helper()
	opp, err := fitness.ParseSpec(g, fitness.Mover, "greedy")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for seed := range uint64(8) {
		o, err := g.Play(context.Background(), p, opp, seed)
		if err != nil {
			t.Fatal(err)
		}
		sb.WriteString(o.String() + " ")
	}
	return sb.String()
}
