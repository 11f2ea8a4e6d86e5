package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
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
	ck := runText(t, noiseConfig, Options{Dir: dir, Workers: 2})
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
	best, err := os.ReadFile(filepath.Join(dir, rundir.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fitness: ", "# selection-time", "remeasured:", "games: 4000", "fresh deals selection never saw"} {
		if !strings.Contains(string(best), want) {
			t.Fatalf("best.yaml lacks %q:\n%s", want, best)
		}
	}
	exp, _, err := export(dir, 5, true, false)
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
		if ck, _, _ := ReadRun(dir); len(ck.Remeasured) != 0 {
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
		if ck, _, _ := ReadRun(dir); len(ck.Remeasured) != 3 {
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
		if err := json.Unmarshal(want[rundir.CheckpointFile], &ck); err != nil {
			t.Fatal(err)
		}
		delete(ck, "remeasured")
		delete(ck, "verdict")
		data, _ := json.Marshal(ck)
		write(t, dir, rundir.CheckpointFile, data)
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, rundir.BestFile))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want[rundir.BestFile]) {
			t.Fatalf("best.yaml after resume:\n%s\nwant:\n%s", got, want[rundir.BestFile])
		}
	})
	t.Run("missing verdict", func(t *testing.T) {
		// A finished run of the evotune before the verdict: remeasured,
		// no verdict. Resume adds it, as a straight run has it.
		dir := t.TempDir()
		for name, data := range want {
			if name != "export" {
				write(t, dir, name, data)
			}
		}
		var ck map[string]any
		if err := json.Unmarshal(want[rundir.CheckpointFile], &ck); err != nil {
			t.Fatal(err)
		}
		delete(ck, "verdict")
		data, _ := json.Marshal(ck)
		write(t, dir, rundir.CheckpointFile, data)
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		sameRun(t, want, readRun(t, dir), "a finished run without its verdict, resumed")
	})
}

func TestRemeasureConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"no baselines", "game: coin\nplayer: tuned\nfitness:\n  objective: cost\n  hall-of-fame:\n    games: 2\nremeasure: {}\n",
			"remeasure: re-measures a solo measure against the baseline opponents"},
		{"neither off nor a mapping", noiseConfig[:strings.Index(noiseConfig, "remeasure:")] + "remeasure: maybe\n", `remeasure: "maybe": want off, or a mapping`},
		{"top zero", strings.Replace(noiseConfig, "top: 3", "top: 0", 1), "remeasure.top: 0: want from 1 to evolution.hall-of-fame (10)"},
		{"odd games", "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\nremeasure:\n  games: 3\n",
			"remeasure.games: 3: want an even number"},
		{"too many games", strings.Replace(noiseConfig, "games: 4000", "games: 1000001", 1), "remeasure.games: 1000001: more than the limit"},
		{"unknown key", noiseConfig + "  deals: 3\n", "remeasure.deals: unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("c.yaml", []byte(tc.text))
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
	if s := loadText(t, t.TempDir(), smallConfig).spendingSummary(); !strings.Contains(s, "remeasure: the best 3 on 1000 fresh games") || strings.Contains(s, "racing") {
		t.Fatalf("a config without the keys says %q; want the default remeasure alone", s)
	}
	if s := loadText(t, t.TempDir(), tunerCases[1].text).spendingSummary(); !strings.HasPrefix(s, "  remeasure: the best 3 and model spsa's own recommendation\n    against each other") {
		t.Fatalf("an spsa run head to head says %q; want the remeasure to name theta", s)
	}
	if s := loadText(t, t.TempDir(), smallConfig+"remeasure: off\n").spendingSummary(); s != "" {
		t.Fatalf("a config with remeasure: off and no other key says %q", s)
	}
	for _, tc := range []struct{ stop, want string }{
		{"stop: {window: 0, games: 7000}\n", "  stop: after the generation that brings the games to 7,000\n"},
		{"stop: {window: 3}\n", "  stop: once a line through the last 3 generations' mean fitness shows no improvement\n    at confidence 0.8\n"},
	} {
		if s := loadText(t, t.TempDir(), smallConfig+"remeasure: off\n"+tc.stop).spendingSummary(); s != tc.want {
			t.Errorf("%s: %q, want %q", tc.stop, s, tc.want)
		}
	}
	s := loadText(t, t.TempDir(), smallConfig+"remeasure: off\nstop: {window: 6, confidence: 0.9, games: 5000}\n").spendingSummary()
	if want := "  stop: once a line through the last 6 generations' mean fitness shows no improvement\n    at confidence 0.9\n" +
		"  stop: after the generation that brings the games to 5,000\n"; s != want {
		t.Fatalf("stop: says %q, want %q", s, want)
	}
}

// reRankConfig evolves coin players whose true cost is 8 + 2s (the knob s
// from 0 to 1; the rest is the deal's and the player's own noise), with
// 30 games an individual: seed 10's hall of fame ranks first a player of
// s 0.27 over two better ones (s 0.18 and 0.00).
const reRankConfig = `seed: 10
game: coin
rules: {slope: 2, own: 6}
player: tuned
fitness:
  baselines:
    games: 30
evolution:
  population: 12
  generations: 3
  tournament-size: 2
remeasure:
  top: 3
  games: 3000
`

// TestRemeasureReRanks: rank 1 by selection is not the best on fresh
// deals; the run recommends the one that is, puts it first in best.yaml
// and export, and reports it from a second fresh sample, beside the
// starting point (the defaults, s = 1/2, cost 9) on the same deals.
func TestRemeasureReRanks(t *testing.T) {
	dir := t.TempDir()
	ck := runText(t, reRankConfig, Options{Dir: dir, Workers: 2})
	s := func(m Member) float64 { return m.Genes[0] }
	truest := 0
	for i := range 3 {
		if s(ck.HallOfFame[i]) < s(ck.HallOfFame[truest]) {
			truest = i
		}
	}
	if truest == 0 {
		t.Fatalf("the hall of fame's first is the truly best (s %v): the example shows nothing", s(ck.HallOfFame[0]))
	}
	v := ck.Verdict
	if v == nil || v.Rank != truest+1 || v.Against != AgainstBaselines {
		t.Fatalf("verdict %+v: want hall-of-fame member %d (s %.3f), the best on fresh deals", v, truest+1, s(ck.HallOfFame[truest]))
	}
	// The headline is a second sample's: not the figure that ranked it,
	// and it holds the truth.
	rm := ck.Remeasured[truest]
	truth := 8 + 2*s(ck.HallOfFame[truest])
	if v.Fitness == rm.Fitness || v.Games != 3000 || v.CI95[0] > truth || v.CI95[1] < truth {
		t.Errorf("verdict %v %v over %d games (remeasure said %v); truth %v", v.Fitness, v.CI95, v.Games, rm.Fitness, truth)
	}
	if v.Start == nil || v.Difference == nil || v.StartGenes[0] != 0.5 {
		t.Fatalf("verdict without the starting point: %+v", v)
	}
	if d := v.Difference.Value - (v.Fitness - v.Start.Fitness); d > 1e-9 || d < -1e-9 {
		t.Errorf("paired difference %v, the means differ by %v", v.Difference.Value, v.Fitness-v.Start.Fitness)
	}
	if want := truth - 9; !v.Difference.Contains(want) || v.Difference.CI95[1] >= 0 {
		t.Errorf("winner - start = %v, truth %v", v.Difference, want)
	}
	// The start's own interval is far wider than the paired difference's:
	// the deals' luck cancels.
	if paired, own := v.Difference.CI95[1]-v.Difference.CI95[0], v.Start.CI95[1]-v.Start.CI95[0]; paired >= own {
		t.Errorf("paired interval %v not narrower than the start's own %v", paired, own)
	}
	exp, _, err := export(dir, 5, true, false)
	if err != nil {
		t.Fatal(err)
	}
	var doc fitness.ParamsFile
	if err := json.Unmarshal(exp, &doc); err != nil {
		t.Fatal(err)
	}
	first := doc.Players[0]
	if first.HallOfFameRank != truest+1 || first.Fresh == nil || first.Fresh.Fitness != round6(v.Fitness) || first.Params["s"] != s(ck.HallOfFame[truest]) {
		t.Fatalf("export's first: %+v, want hall-of-fame member %d with its fresh figure", first, truest+1)
	}
	for i, p := range doc.Players {
		if i > 0 && p.Fresh != nil {
			t.Errorf("export rank %d has a fresh figure: only the recommended player does", i+1)
		}
		if i > 0 && i < 3 && p.Remeasured.Fitness < doc.Players[i-1].Remeasured.Fitness {
			t.Errorf("export ranks %d and %d out of the remeasure's order", i, i+1)
		}
	}
	best, err := os.ReadFile(filepath.Join(dir, rundir.BestFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hall_of_fame_rank: " + itoa(truest+1), "fresh:", "against: baselines", "vs_start:", "the figure to quote"} {
		if !strings.Contains(string(best), want) {
			t.Errorf("best.yaml lacks %q:\n%s", want, best)
		}
	}
	// tuned:best.yaml loads the recommended player.
	vals, _, err := fitness.LoadParams(filepath.Join(dir, rundir.BestFile), "coin", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: coinSchema})
	if err != nil || vals.Get("s").Num != s(ck.HallOfFame[truest]) {
		t.Errorf("best.yaml loads s %v (%v), want %v", vals.Get("s").Num, err, s(ck.HallOfFame[truest]))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRemeasureWithoutBaselines: a head-to-head run without baselines
// ranks its best by a round among them on fresh seeds, and measures the
// winner against the starting point.
func TestRemeasureWithoutBaselines(t *testing.T) {
	const text = `seed: 4
game: coin
player: tuned
fitness:
  objective: score
  population:
    opponents: 3
    games: 10
evolution:
  population: 8
  generations: 3
  tournament-size: 2
remeasure:
  top: 3
  games: 2000
`
	dir := t.TempDir()
	res, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	ck, _, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ck.Remeasured) != 3 {
		t.Fatalf("remeasured %+v", ck.Remeasured)
	}
	// Three pairs of 2,000 games, then 2,000 against the start.
	if n := res.Final.EndGames(); n != 8000 {
		t.Errorf("the checkpoint counts %d games at the end, want 8000", n)
	}
	// Each meets the other two: scores against each other sum to 3/2
	// over the three (each pair of them splits one point per game).
	sum := 0.0
	for _, m := range ck.Remeasured {
		sum += m.Fitness
		if m.Games != 4000 {
			t.Errorf("member %d: %d games, want 2 x 2000", m.Rank, m.Games)
		}
	}
	if sum < 1.5-1e-9 || sum > 1.5+1e-9 {
		t.Errorf("round-robin scores sum to %v, want 1.5", sum)
	}
	v := ck.Verdict
	best := winnerOrder(ck.Remeasured, false)[0]
	if v == nil || v.Rank != best.Rank || v.Against != AgainstStart || v.Pairs == nil || v.Pairs.Games() != 2000 {
		t.Fatalf("verdict %+v, want the round's winner %d against the start over 2000 games", v, best.Rank)
	}
	// coin: a beats b with probability 1/2 + (s_a - s_b)/2.
	truth := 0.5 + (best.Genes[0]-0.5)/2
	if v.CI95[0] > truth || v.CI95[1] < truth {
		t.Errorf("winner against the start: %v %v, truth %v", v.Fitness, v.CI95, truth)
	}
}

// TestRemeasureWithoutAStart: without baselines and without a starting
// point (the space leaves out the player's default), the verdict is the
// winner head to head against the runner-up of the remeasure, with two
// members as with more.
func TestRemeasureWithoutAStart(t *testing.T) {
	for _, top := range []int{2, 3} {
		t.Run(fmt.Sprint("top ", top), func(t *testing.T) {
			ck := runText(t, fmt.Sprintf(noStartConfig, top), Options{Dir: t.TempDir(), Workers: 2})
			if len(ck.Remeasured) != top {
				t.Fatalf("remeasured %+v", ck.Remeasured)
			}
			order := winnerOrder(ck.Remeasured, false)
			v := ck.Verdict
			if v == nil || v.Rank != order[0].Rank || v.Against != AgainstRunnerUp || v.StartGenes != nil || v.Pairs == nil || v.Pairs.Games() != 400 {
				t.Fatalf("verdict %+v, want the winner %d against the runner-up %d over 400 games", v, order[0].Rank, order[1].Rank)
			}
			// coin: a beats b with probability 1/2 + (s_a - s_b)/2.
			truth := 0.5 + (order[0].Genes[0]-order[1].Genes[0])/2
			if v.CI95[0] > truth || v.CI95[1] < truth {
				t.Errorf("winner against the runner-up: %v %v, truth %v", v.Fitness, v.CI95, truth)
			}
		})
	}
}

// noStartConfig is a head-to-head run of remeasure.top %d whose space
// leaves out its player's default: no starting point.
const noStartConfig = `seed: 4
game: coin
player: handed
space:
  s: {}
  hand: {choices: [right]}
fitness:
  objective: score
  population:
    opponents: 3
    games: 10
evolution:
  population: 8
  generations: 2
  tournament-size: 2
remeasure:
  top: %d
  games: 400
`

// TestRemeasureOff: remeasure: off leaves a run's end as it was: no
// figures, best.yaml the hall of fame's first.
func TestRemeasureOff(t *testing.T) {
	text := strings.Replace(reRankConfig, "remeasure:\n  top: 3\n  games: 3000\n", "remeasure: off\n", 1)
	dir := t.TempDir()
	startText(t, text, Options{Dir: dir, Workers: 2})
	ck, cfg, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	if len(ck.Remeasured) != 0 || ck.Verdict != nil {
		t.Fatalf("remeasure: off, yet figures %+v %+v", ck.Remeasured, ck.Verdict)
	}
	best, _ := os.ReadFile(filepath.Join(dir, rundir.BestFile))
	if strings.Contains(string(best), "fresh") || strings.Contains(string(best), "remeasured") {
		t.Errorf("best.yaml:\n%s", best)
	}
	if on := loadText(t, t.TempDir(), strings.Replace(reRankConfig, "remeasure:\n  top: 3\n  games: 3000\n", "", 1)); on.Hash() == cfg.Hash() {
		t.Error("remeasure: off and the default hash alike: they end differently")
	}
}

// TestRemeasureOfWholeBatches: a remeasure whose games fill its batches
// exactly plays them all (no empty batch after the last), and one cut
// into several chunks plays every chunk.
func TestRemeasureOfWholeBatches(t *testing.T) {
	defer func(n int) { jobChunk = n }(jobChunk)
	for _, chunk := range []int{jobChunk, 50} {
		t.Run(fmt.Sprint(chunk), func(t *testing.T) {
			jobChunk = chunk
			text := strings.Replace(noiseConfig, "games: 4000", "games: 64", 1)
			text = strings.Replace(text, "top: 3", "top: 2", 1)
			text = strings.Replace(text, "generations: 5", "generations: 1", 1)
			dir := t.TempDir()
			ck := runText(t, text, Options{Dir: dir, Workers: 2, BatchGames: 64})
			if len(ck.Remeasured) != 2 || ck.Remeasured[0].Games != 64 || ck.Remeasured[1].Games != 64 {
				t.Fatalf("remeasured %+v, want 2 members of 64 games", ck.Remeasured)
			}
		})
	}
}

// TestScoreRemeasurePlaysSeatSwappedPairs: a head-to-head remeasure plays
// each deal twice, seats swapped: in coin with spread 0 the deal alone
// decides which seat wins, so every pair scores exactly 1 of 2 and the
// figure is exactly 1/2 (one pair: played twice from one seat it would
// be 0 or 1).
func TestScoreRemeasurePlaysSeatSwappedPairs(t *testing.T) {
	for _, games := range []int{2, 60, 1000} {
		t.Run(fmt.Sprint(games), func(t *testing.T) {
			text := "seed: 4\ngame: coin\nrules: {spread: 0}\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 4\n" +
				fmt.Sprintf("evolution:\n  population: 4\n  generations: 1\n  tournament-size: 2\nremeasure: {top: 2, games: %d}\n", games)
			dir := t.TempDir()
			ck := runText(t, text, Options{Dir: dir, Workers: 2})
			if len(ck.Remeasured) != 2 {
				t.Fatalf("remeasured %+v", ck.Remeasured)
			}
			for _, m := range ck.Remeasured {
				if m.Fitness != 0.5 || m.Games != games {
					t.Fatalf("remeasured %+v, want exactly 0.5 over %d games", m, games)
				}
			}
			// The verdict's pairs share their deals too: the winner and
			// the start score exactly one of each pair's two games.
			v := ck.Verdict
			if v == nil || v.Fitness != 0.5 || v.Start == nil || v.Start.Fitness != 0.5 || games > 2 && v.CI95 != [2]float64{0.5, 0.5} {
				t.Fatalf("verdict %+v, want exactly 0.5 for the winner and the start", v)
			}
			if games > 2 && (v.Difference == nil || v.Difference.Value != 0 || v.Difference.CI95 != [2]float64{0, 0}) {
				t.Fatalf("the verdict's difference %+v, want exactly 0", v.Difference)
			}
		})
	}
}

// TestRemeasureDealsArePinned pins the remeasured figures of two small
// runs, solo and head-to-head, so the stream the fresh deals come from
// (purposeRemeasure, generation slot 0) cannot change unnoticed: every
// finished run's remeasured figures depend on it. After an intended
// change, put the new figures here. (Within 1e-9, for platforms that
// fuse multiply-adds; another stream moves them by far more.)
func TestRemeasureDealsArePinned(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		genes      float64
		fitness    float64
	}{
		{"solo", "seed: 4\ngame: coin\nrules: {own: 6}\nplayer: tuned\nfitness:\n  baselines:\n    games: 4\n" +
			"evolution:\n  population: 4\n  generations: 1\n  tournament-size: 2\nremeasure: {top: 1, games: 10}\n", 0.007380576825548046, 7.824829858416865},
		{"score", "seed: 4\ngame: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 4\n" +
			"evolution:\n  population: 4\n  generations: 1\n  tournament-size: 2\nremeasure: {top: 1, games: 200}\n", 0.9860824048105866, 0.715},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ck := runText(t, tc.text, Options{Dir: dir, Workers: 2})
			m := ck.Remeasured[0]
			if len(m.Genes) != 1 || m.Genes[0] != tc.genes || !(math.Abs(m.Fitness-tc.fitness) <= 1e-9) {
				t.Fatalf("remeasured %v: %.17g, want %v: %.17g", m.Genes, m.Fitness, tc.genes, tc.fitness)
			}
		})
	}
}

// TestRemeasureLimits: remeasure.top runs from 1 to the hall of fame's
// size and remeasure.games from 1 (2 for head-to-head games, in pairs)
// to config.MaxGames, both ends included.
func TestRemeasureLimits(t *testing.T) {
	solo := "game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n  hall-of-fame: 5\n"
	score := "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n  hall-of-fame: 5\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"top 1", solo + "remeasure: {top: 1}\n", ""},
		{"top the hall of fame", solo + "remeasure: {top: 5}\n", ""},
		{"top above it", solo + "remeasure: {top: 6}\n", "remeasure.top: 6: want from 1 to evolution.hall-of-fame (5)"},
		{"one solo game", solo + "remeasure: {games: 1}\n", ""},
		{"no games", solo + "remeasure: {games: 0}\n", "remeasure.games: 0: want at least 1"},
		{"the most games", solo + fmt.Sprintf("remeasure: {games: %d}\n", config.MaxGames), ""},
		{"more", solo + fmt.Sprintf("remeasure: {games: %d}\n", config.MaxGames+1), fmt.Sprintf("remeasure.games: %d: more than the limit of %d", config.MaxGames+1, config.MaxGames)},
		{"two head-to-head games", score + "remeasure: {games: 2}\n", ""},
		{"one head-to-head game", score + "remeasure: {games: 1}\n", "remeasure.games: 1: want an even number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("c.yaml", []byte(tc.text))
			wantError(t, err, tc.want)
		})
	}
}

// TestCheckRemeasuredEdges: a checkpoint's remeasured figures are
// accepted up to every edge (the last rank, one game, a score of 0 or 1,
// an interval that closes on its figure) and refused one past it.
func TestCheckRemeasuredEdges(t *testing.T) {
	hof := []Member{{Genes: []float64{0.1}}, {Genes: []float64{0.2}}}
	ok := Remeasured{Rank: 2, Genes: []float64{0.2}, Figure: fitness.Figure{Fitness: 1, Games: 1, CI95: [2]float64{1, 1}}}
	for _, tc := range []struct {
		name  string
		edit  func(*Remeasured)
		score bool
		want  string
	}{
		{"the last rank, one game, a score of 1", func(*Remeasured) {}, true, ""},
		{"a score of 0", func(m *Remeasured) { m.Fitness, m.CI95 = 0, [2]float64{0, 0} }, true, ""},
		{"a cost above 1", func(m *Remeasured) { m.Fitness, m.CI95 = 7, [2]float64{7, 7} }, false, ""},
		{"a rank past the hall of fame", func(m *Remeasured) { m.Rank = 3 }, true, "remeasured[0].rank: 3, the hall of fame has 2 members"},
		{"a negative rank", func(m *Remeasured) { m.Rank = -1 }, true, "remeasured[0].rank: -1"},
		{"the model's pick (rank 0), in the space", func(m *Remeasured) { m.Rank = 0 }, true, ""},
		{"the model's pick outside the space", func(m *Remeasured) { m.Rank, m.Genes = 0, []float64{1.5} }, true, "remeasured[0].genes: "},
		{"no games", func(m *Remeasured) { m.Games = 0 }, true, "remeasured[0].games: 0"},
		{"a score above 1", func(m *Remeasured) { m.Fitness, m.CI95 = 1.5, [2]float64{1.5, 1.5} }, true, "remeasured[0].fitness: 1.5 is out of range"},
		{"a negative figure", func(m *Remeasured) { m.Fitness, m.CI95 = -0.5, [2]float64{-0.5, -0.5} }, false, "remeasured[0].fitness: -0.5 is out of range"},
		{"an interval above", func(m *Remeasured) { m.Fitness, m.CI95 = 0.5, [2]float64{0.6, 0.9} }, true, "remeasured[0].ci95: [0.6, 0.9] does not hold its fitness 0.5"},
		{"an interval below", func(m *Remeasured) { m.Fitness, m.CI95 = 0.5, [2]float64{0.1, 0.4} }, true, "remeasured[0].ci95: [0.1, 0.4] does not hold its fitness 0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := ok
			tc.edit(&m)
			err := checkRemeasured("", SpeciesState{HallOfFame: hof, Remeasured: []Remeasured{m}}, unitSpace{}, tc.score)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	pick := ok
	pick.Rank = 0
	err := checkRemeasured("", SpeciesState{HallOfFame: hof, Remeasured: []Remeasured{pick, ok, pick}}, unitSpace{}, true)
	if err == nil || !strings.HasPrefix(err.Error(), "remeasured[2].rank: a second model's recommendation") {
		t.Fatalf("two model's picks: %v", err)
	}
}

// unitSpace takes genomes of genes from 0 to 1.
type unitSpace struct{}

func (unitSpace) Check(genes []float64) error {
	for _, g := range genes {
		if !(g >= 0 && g <= 1) {
			return fmt.Errorf("gene %v outside [0, 1]", g)
		}
	}
	return nil
}

// TestRemeasureSkipsSpeciesWithoutBaselines: in a co-evolving run whose
// rivals have no baseline opponents, the remeasure plays the main
// species' best only.
func TestRemeasureSkipsSpeciesWithoutBaselines(t *testing.T) {
	text := "game: battleship\nrules: {size: 6, fleet: '3,2'}\nplayer: tuned\ncoevolve:\n  player: tuned\n  opponents: []\n" +
		"fitness:\n  baselines: {games: 2}\n  population: {opponents: 1, games: 2}\n" +
		"evolution:\n  population: 4\n  tournament-size: 2\n  generations: 1\nremeasure: {top: 1, games: 4}\n"
	dir := t.TempDir()
	ck := runText(t, text, Options{Dir: dir, Workers: 2})
	if len(ck.Remeasured) != 1 || ck.Remeasured[0].Games != 4 || ck.Rivals == nil || len(ck.Rivals.Remeasured) != 0 {
		t.Fatalf("remeasured %+v, rivals %+v", ck.Remeasured, ck.Rivals)
	}
}

// recommender is a model that recommends a fixed point.
type recommender struct {
	model.Model
	pick []float64
}

func (m recommender) Recommendation() []float64 { return m.pick }

// TestCandidates: the remeasure plays the hall of fame's top and the
// model's own recommendation; one that is a member's genome is played as
// that member, and one of the top gives its place to the next member,
// so top+1 play and no genome twice.
func TestCandidates(t *testing.T) {
	hof := []Member{{Genes: []float64{0.1}}, {Genes: []float64{0.2}}, {Genes: []float64{0.3}}, {Genes: []float64{0.4}}, {Genes: []float64{0.5}}}
	for _, tc := range []struct {
		name   string
		models []model.Model
		hof    int
		want   string // ranks:genes
	}{
		{"no model", nil, 5, "1:[0.1] 2:[0.2] 3:[0.3]"},
		{"a model that recommends nothing of its own", []model.Model{recommender{}}, 5, "1:[0.1] 2:[0.2] 3:[0.3]"},
		{"a point of its own", []model.Model{recommender{pick: []float64{0.25}}}, 5, "1:[0.1] 2:[0.2] 3:[0.3] 0:[0.25]"},
		{"one of the top", []model.Model{recommender{pick: []float64{0.2}}}, 5, "1:[0.1] 2:[0.2] 3:[0.3] 4:[0.4]"},
		{"one of the top, and no next", []model.Model{recommender{pick: []float64{0.2}}}, 3, "1:[0.1] 2:[0.2] 3:[0.3]"},
		{"a member past the top", []model.Model{recommender{pick: []float64{0.5}}}, 5, "1:[0.1] 2:[0.2] 3:[0.3] 5:[0.5]"},
		{"a hall of fame shorter than the top", []model.Model{recommender{pick: []float64{0.9}}}, 2, "1:[0.1] 2:[0.2] 0:[0.9]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &runner{models: tc.models}
			var got []string
			for _, c := range r.candidates(0, hof[:tc.hof], 3) {
				got = append(got, fmt.Sprintf("%d:%v", c.Rank, c.Genes))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Fatalf("got %s, want %s", s, tc.want)
			}
		})
	}
}

// stopAtStart closes stop as generation gen starts.
type stopAtStart struct {
	gen  int
	stop chan struct{}
}

func (s *stopAtStart) StartGeneration(gen, _, _ int) {
	if gen == s.gen {
		close(s.stop)
	}
}
func (s *stopAtStart) Games(int)                           {}
func (s *stopAtStart) EndGeneration(int, GenStats, Member) {}

// TestStopDuringTheRemeasure: a stop asked for during the last
// generation, or during the remeasure after it (which may take as long
// as generations), checkpoints the last generation without the
// remeasure's figures and ends the run there, ErrStopped and Unmeasured;
// a resume plays the remeasure, and the run is then the straight run,
// byte for byte. Before, the first Ctrl-C said the run would stop after
// the checkpoint, and the remeasure went on to the end. A stop asked for
// during the resume's remeasure leaves the checkpoint as it was.
func TestStopDuringTheRemeasure(t *testing.T) {
	text := strings.Replace(flatConfig, "stop:\n  window: 4\n", "", 1)
	text = strings.Replace(text, "generations: 40", "generations: 3", 1)
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := readRun(t, straight)

	dir := t.TempDir()
	stop := make(chan struct{})
	res, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 2, Stop: stop, Progress: &stopAtStart{gen: 2, stop: stop}})
	if !errors.Is(err, ErrStopped) || res == nil || !res.Unmeasured || res.Generation != 3 || res.Final != nil {
		t.Fatalf("stopped in the last generation: %+v, %v; want ErrStopped after generation 3, unmeasured", res, err)
	}
	ck, _, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ck.Generation != 3 || ck.Remeasured != nil || ck.Verdict != nil {
		t.Fatalf("checkpoint at generation %d, remeasured %v, verdict %v; want generation 3 without the remeasure", ck.Generation, ck.Remeasured, ck.Verdict)
	}
	// Stopped again as the resume plays the remeasure: nothing written.
	before := readRun(t, dir)
	again := make(chan struct{})
	close(again)
	res, err = Resume(context.Background(), Options{Dir: dir, Workers: 1, Stop: again})
	if !errors.Is(err, ErrStopped) || res == nil || !res.Unmeasured {
		t.Fatalf("resume stopped in its remeasure: %+v, %v", res, err)
	}
	sameRun(t, before, readRun(t, dir), "a resume stopped in its remeasure")
	res, err = Resume(context.Background(), Options{Dir: dir, Workers: 1})
	if err != nil || res.Final == nil || res.Unmeasured {
		t.Fatalf("resume: %+v, %v", res, err)
	}
	sameRun(t, want, readRun(t, dir), "stopped in the last generation, then resumed")
}

// TestRemeasureFiguresAreTheirSettings: the remeasure plays remeasure.top
// members, each remeasure.games games (coin's solo games have one
// opponent, none), and the verdict that many again beside the start,
// deal for deal; away
// from the defaults (top 2, 7 games) and at the boundary of top (the
// whole hall of fame).
func TestRemeasureFiguresAreTheirSettings(t *testing.T) {
	base := strings.Replace(noiseConfig, "  tournament-size: 2\n", "  tournament-size: 2\n  hall-of-fame: 4\n", 1)
	for _, tc := range []struct {
		name       string
		top, games int
		played     int // members the remeasure plays
	}{
		{"two of seven games", 2, 7, 2},
		{"the whole hall of fame, one game", 4, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(base, "remeasure:\n  top: 3\n  games: 4000\n", fmt.Sprintf("remeasure:\n  top: %d\n  games: %d\n", tc.top, tc.games), 1)
			ck := runText(t, text, Options{Dir: t.TempDir(), Workers: 2})
			if len(ck.Remeasured) != tc.played {
				t.Fatalf("%d remeasured, want %d", len(ck.Remeasured), tc.played)
			}
			for i, m := range ck.Remeasured {
				if m.Rank != i+1 || m.Games != tc.games || !slices.Equal(m.Genes, ck.HallOfFame[i].Genes) {
					t.Fatalf("remeasured[%d]: rank %d over %d games; want rank %d over %d", i, m.Rank, m.Games, i+1, tc.games)
				}
			}
			v := ck.Verdict
			if v == nil || v.Games != tc.games || v.Start == nil || v.Start.Games != tc.games {
				t.Fatalf("verdict %+v; want %d games, the start's as many", v, tc.games)
			}
			if n := tc.games; n > 1 && (v.Difference == nil || v.Difference.N != n) || n == 1 && v.Difference != nil {
				t.Fatalf("the verdict's difference %+v; want one a deal, %d", v.Difference, tc.games)
			}
		})
	}
}

// TestHeadToHeadVerdictIsTheGain: without baselines the verdict is the
// winner's score against the start in seat-swapped pairs, so a seat that
// wins more often cancels out of it. In a coin whose first seat wins 30
// points more often, between players whose true difference is known, the
// verdict holds the gain (the mean of the two seats' chances), not the
// seat's advantage added to it; its pairs are the games it played.
func TestHeadToHeadVerdictIsTheGain(t *testing.T) {
	text := `seed: 4
game: coin
rules: {seat: 0.6}
player: tuned
fitness:
  objective: score
  population:
    opponents: 2
    games: 4
evolution:
  population: 8
  generations: 3
  tournament-size: 2
remeasure:
  top: 2
  games: 4000
`
	ck := runText(t, text, Options{Dir: t.TempDir(), Workers: 2})
	v := ck.Verdict
	if v == nil || v.Against != AgainstStart || v.Pairs == nil || v.Pairs.Games() != v.Games || v.Games != 4000 {
		t.Fatalf("verdict %+v; want 4000 games against the start, in pairs", v)
	}
	if sc := v.Pairs.Score(); math.Abs(sc.Value-v.Fitness) > 1e-12 {
		t.Fatalf("the verdict's pairs %v score %v; the verdict says %v", *v.Pairs, sc.Value, v.Fitness)
	}
	// a's chance in the first seat and in the second, each within [0, 1].
	seats := func(a, b float64) float64 {
		d := (a - b) / 2
		return (min(1, 0.5+d+0.3) + max(0, 0.5+d-0.3)) / 2
	}
	truth := seats(v.Genes[0], v.StartGenes[0])
	if !(v.CI95[0] <= truth && truth <= v.CI95[1]) || math.Abs(v.Fitness-truth) > 0.03 {
		t.Fatalf("verdict %.4f [%.4f, %.4f]; the winner's true score against the start, seats swapped, is %.4f", v.Fitness, v.CI95[0], v.CI95[1], truth)
	}
	// The remeasure's round robin is seat-swapped too: its two figures
	// are one pairing seen from both sides.
	if rm := ck.Remeasured; len(rm) != 2 || math.Abs(rm[0].Fitness+rm[1].Fitness-1) > 1e-12 {
		t.Fatalf("round robin of two: %+v; want figures adding up to 1", rm)
	}
	truth = seats(ck.Remeasured[0].Genes[0], ck.Remeasured[1].Genes[0])
	if r := ck.Remeasured[0]; math.Abs(r.Fitness-truth) > 0.03 {
		t.Fatalf("round robin: %v against a truth of %v", r.Fitness, truth)
	}
}

// TestScoreVerdictBesideTheStart: head to head against the baselines,
// the verdict measures the winner and the start on the same
// seat-swapped pairs, and its difference is per pair, the winner's mean
// score over the pair less the start's: its mean is the two figures'
// difference, over as many pairs as the verdict played, and a seat that
// wins more often cancels from both.
func TestScoreVerdictBesideTheStart(t *testing.T) {
	text := "seed: 4\ngame: coin\nrules: {seat: 0.4}\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 4\n" +
		"evolution:\n  population: 6\n  generations: 2\n  tournament-size: 2\nremeasure: {top: 2, games: 2000}\n"
	ck := runText(t, text, Options{Dir: t.TempDir(), Workers: 2})
	v := ck.Verdict
	if v == nil || v.Against != AgainstBaselines || v.Start == nil || v.Difference == nil || v.Games != 2000 || v.Start.Games != 2000 {
		t.Fatalf("verdict %+v; want 2000 games beside the start against the baselines", v)
	}
	if d := v.Difference; d.N != 1000 || math.Abs(d.Value-(v.Fitness-v.Start.Fitness)) > 1e-12 {
		t.Fatalf("difference %+v over the pairs; the figures' difference is %v over 1000 pairs", *d, v.Fitness-v.Start.Fitness)
	}
	// Against even (strength 1/2), a player of strength s scores
	// 1/2 + (s - 1/2)/2 a game, seats swapped (0.2 either way, clamped).
	seats := func(s float64) float64 {
		d := (s - 0.5) / 2
		return (min(1, 0.5+d+0.2) + max(0, 0.5+d-0.2)) / 2
	}
	for _, f := range []struct {
		name  string
		genes []float64
		got   float64
	}{{"the winner", v.Genes, v.Fitness}, {"the start", v.StartGenes, v.Start.Fitness}} {
		if want := seats(f.genes[0]); math.Abs(f.got-want) > 0.03 {
			t.Errorf("%s (s %.3f) scores %.4f; want about %.4f, seats swapped", f.name, f.genes[0], f.got, want)
		}
	}
}
