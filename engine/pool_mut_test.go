package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/rundir"
)

// TestPopulationScoresSumToOne: in population games between two
// individuals whose games go either way, each game's score goes to one
// and its complement to the other: the two fitnesses sum to 1, and
// neither is 0 or 1 (a pair where one side wins every game cannot tell
// the complement from the score itself).
func TestPopulationScoresSumToOne(t *testing.T) {
	text := strings.Replace(modeConfig("  objective: score\n  population: {opponents: 1, games: 40}\n", "  elitism: 0\n"),
		"population: 6", "population: 2", 1)
	text = strings.Replace(text, "tournament-size: 2", "tournament-size: 1", 1)
	text = strings.Replace(text, "{hit_weight: 1, jitter: 0.25}", "{jitter: 0.2}", 1)
	cfg := loadText(t, t.TempDir(), text)
	r := startRunner(t, cfg, Options{Dir: t.TempDir(), Workers: 2})
	members, err := r.evaluate(context.Background(), 0, firstGeneration(t, r), [][]Member{nil})
	if err != nil {
		t.Fatal(err)
	}
	a, b := members[0][0], members[0][1]
	if !(a.Fitness > 0 && a.Fitness < 1 && b.Fitness > 0 && b.Fitness < 1) {
		t.Fatalf("fitness %v and %v: want games that go either way", a.Fitness, b.Fitness)
	}
	if math.Abs(a.Fitness+b.Fitness-1) > 1e-12 {
		t.Fatalf("fitness %v and %v: want a sum of 1", a.Fitness, b.Fitness)
	}
}

// brokenPool plays a wave through the local pool, then breaks it: it
// drops a batch's results, hands back too few, or fails.
type brokenPool struct {
	how string
}

func (p brokenPool) Play(ctx context.Context, w Wave) error {
	done := w.Done
	w.Done = func(b *Batch, res []float64) {
		switch {
		case b.Index != 1:
			done(b, res)
		case p.how == "short":
			done(b, res[1:])
		case p.how == "dropped":
		}
	}
	if p.how == "fails" {
		return errors.New("the workers went home")
	}
	return LocalPool(2).Play(ctx, w)
}

// TestBrokenPoolsStopTheRun: a pool that loses a batch, hands back the
// wrong number of results or fails stops the run with an error naming
// the generation (from 1) and the batch, before any checkpoint.
func TestBrokenPoolsStopTheRun(t *testing.T) {
	for _, tc := range []struct{ how, want string }{
		{"dropped", "engine: generation 1: the pool returned no results for batch "},
		{"short", "engine: generation 1: the pool returned no results for batch "},
		{"fails", "engine: generation 1: the workers went home"},
	} {
		t.Run(tc.how, func(t *testing.T) {
			dir := t.TempDir()
			_, err := Start(context.Background(), loadText(t, t.TempDir(), smallConfig), Options{Dir: dir, Pool: brokenPool{tc.how}, BatchGames: 16})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if tc.how != "fails" && !strings.HasSuffix(err.Error(), ".0.1") {
				t.Fatalf("err = %v, want batch 1 of generation 0 named", err)
			}
		})
	}
}

// coinBatch is the coin game played in batches, as an outside program's
// game is: the local pool hands it whole batches.
type coinBatch struct {
	coin
	batches *atomic.Int64
}

func (coinBatch) Name() string { return "coinbatch" }

func (g coinBatch) PlayBatch(ctx context.Context, ms []fitness.Match) ([]fitness.Outcome, error) {
	g.batches.Add(1)
	out := make([]fitness.Outcome, len(ms))
	for i, m := range ms {
		o, err := g.Play(ctx, m.A, m.B, m.Seed)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

var coinBatches atomic.Int64

func init() {
	catalog.Register(fitness.GameInfo{Name: "coinbatch", Summary: "coin, played in batches",
		New: func(map[string]string) (fitness.Game, error) { return coinBatch{coin{spread: 1}, &coinBatches}, nil }})
}

// gamesSeen records, per generation, the games a run announced and the
// last count of finished games it reported (Games is called
// concurrently).
type gamesSeen struct {
	mu          sync.Mutex
	gen         int
	want, last  map[int]int
	outOfBounds bool
}

func (p *gamesSeen) StartGeneration(gen, _, games int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen, p.want[gen] = gen, games
}

func (p *gamesSeen) Games(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if done > p.want[p.gen] {
		p.outOfBounds = true
	}
	p.last[p.gen] = max(p.last[p.gen], done)
}
func (p *gamesSeen) EndGeneration(int, GenStats, Member) {}

// TestBatchingGamesPlayLikeOthers: a game that plays whole batches (an
// outside program) gives the run a game played one by one gives, batch
// by batch, with every game counted in the progress.
func TestBatchingGamesPlayLikeOthers(t *testing.T) {
	best := func(game string, progress *gamesSeen) string {
		text := strings.Replace(ratedConfig, "game: coin", "game: "+game, 1)
		text = strings.Replace(text, "generations: 8", "generations: 3", 1)
		dir := t.TempDir()
		opts := Options{Dir: dir, Workers: 2, BatchGames: 8}
		if progress != nil {
			opts.Progress = progress
		}
		if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), opts); err != nil {
			t.Fatal(err)
		}
		ck, _, err := ReadCheckpoint(dir)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(ck.HallOfFame)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	want := best("coin", nil)
	before := coinBatches.Load()
	seen := &gamesSeen{want: map[int]int{}, last: map[int]int{}}
	got := best("coinbatch", seen)
	if coinBatches.Load() == before {
		t.Fatal("the batching game was never handed a batch")
	}
	if got != want {
		t.Fatalf("hall of fame\n%s\nplayed one by one\n%s", got, want)
	}
	for gen, n := range seen.want {
		if seen.last[gen] != n || seen.outOfBounds {
			t.Fatalf("generation %d: %d of %d games reported (over the count: %v)", gen, seen.last[gen], n, seen.outOfBounds)
		}
	}
	// Without a progress display the run plays as well.
	if best("coinbatch", nil) != want {
		t.Fatal("without progress, another hall of fame")
	}
}

// TestPanicLogNamesTheGeneration: a game's panic goes to run.log under
// the generation it happened in, numbered from 1, with its stack.
func TestPanicLogNamesTheGeneration(t *testing.T) {
	cfg := loadText(t, t.TempDir(), smallConfig)
	perGeneration := int64(cfg.Evolution.Population * cfg.Fitness.Baselines.Games)
	cfg.game = &panickyGame{soloRoleGame: cfg.game.(soloRoleGame), after: perGeneration}
	dir := t.TempDir()
	if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2}); !errors.Is(err, ErrGamePanicked) {
		t.Fatalf("err %v, want ErrGamePanicked", err)
	}
	log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\S+ generation 2: .*panic.*\n(.*\n)*.*panickyGame`).Match(log) {
		t.Fatalf("run.log does not name generation 2 before the stack:\n%s", log)
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
			if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2, BatchGames: 64}); err != nil {
				t.Fatal(err)
			}
			ck, _, err := ReadCheckpoint(dir)
			if err != nil {
				t.Fatal(err)
			}
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
	for _, games := range []int{2, 60} {
		t.Run(fmt.Sprint(games), func(t *testing.T) {
			text := "seed: 4\ngame: coin\nrules: {spread: 0}\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 4\n" +
				fmt.Sprintf("evolution:\n  population: 4\n  generations: 1\n  tournament-size: 2\nremeasure: {top: 2, games: %d}\n", games)
			dir := t.TempDir()
			if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			ck, _, err := ReadCheckpoint(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(ck.Remeasured) != 2 {
				t.Fatalf("remeasured %+v", ck.Remeasured)
			}
			for _, m := range ck.Remeasured {
				if m.Fitness != 0.5 || m.Games != games {
					t.Fatalf("remeasured %+v, want exactly 0.5 over %d games", m, games)
				}
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
			if _, err := Start(context.Background(), loadText(t, t.TempDir(), tc.text), Options{Dir: dir, Workers: 2}); err != nil {
				t.Fatal(err)
			}
			ck, _, err := ReadCheckpoint(dir)
			if err != nil {
				t.Fatal(err)
			}
			m := ck.Remeasured[0]
			if len(m.Genes) != 1 || m.Genes[0] != tc.genes || !(math.Abs(m.Fitness-tc.fitness) <= 1e-9) {
				t.Fatalf("remeasured %v: %.17g, want %v: %.17g", m.Genes, m.Fitness, tc.genes, tc.fitness)
			}
		})
	}
}
