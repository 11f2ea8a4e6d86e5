package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/rundir"
)

// specPool plays every batch the way a remote worker does: from what a
// worker is told of it (Batch.Plays), on a Setup of the worker's own,
// prepared from the run's config text ForWorker, its results checked as a
// coordinator checks them (Batch.Check), last batch first, so results
// arrive in the reverse of their order. A worker's Setups are kept by
// the config's hash, and counted.
type specPool struct {
	workers  int
	setups   map[string]*Setup
	prepared int
}

// close closes the worker's Setups.
func (p *specPool) close() {
	for _, s := range p.setups {
		s.Close()
	}
}

func (p *specPool) Play(ctx context.Context, w Wave) error {
	done := 0
	for _, b := range slices.Backward(w.Batches) {
		run := b.Run()
		ws, ok := p.setups[run.Hash()]
		if !ok {
			c, err := config.Parse("batch "+b.ID+"#config", run.Config().Text())
			if err != nil {
				return err
			}
			if ws, err = Prepare(c, ForWorker(false, run.Files(), run.Hash(), run.EngineFiles())); err != nil {
				return err
			}
			if p.setups == nil {
				p.setups = map[string]*Setup{}
			}
			p.setups[run.Hash()] = ws
			p.prepared++
		}
		players, games := b.Plays()
		res, err := ws.PlayBatch(ctx, b.ID, players, games, p.workers)
		if err != nil {
			return err
		}
		if err := b.Check(res); err != nil {
			return err
		}
		w.Done(b, res)
		done += b.Games()
		if w.Games != nil {
			w.Games(done)
		}
	}
	return ctx.Err()
}

// TestRemotePlayMatchesLocal: batches played from what a worker is told
// of them, on a Setup the worker prepared itself, in reverse order and in batches
// of another size, give the files of a local run byte for byte, in every
// fitness mode, with co-evolved rivals, racing rounds and ratings.
func TestRemotePlayMatchesLocal(t *testing.T) {
	for _, tc := range []struct{ name, config string }{
		{"shots", smallConfig}, {"three modes", hofConfig}, {"co-evolution", coevolveConfig},
		{"racing", racedConfig}, {"ratings", ratedConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rivals := tc.config == coevolveConfig
			local := t.TempDir()
			startText(t, tc.config, Options{Dir: local, Workers: 2})
			remote := t.TempDir()
			pool := &specPool{workers: 2}
			defer pool.close()
			if _, err := Start(context.Background(), loadText(t, t.TempDir(), tc.config),
				Options{Dir: remote, Pool: pool, BatchGames: 7}); err != nil {
				t.Fatal(err)
			}
			if pool.prepared != 1 {
				t.Errorf("the worker prepared the run %d times; want once", pool.prepared)
			}
			sameRun(t, readFilesAndExport(t, local, rivals), readFilesAndExport(t, remote, rivals), "remote vs local")
		})
	}
}

// killPool plays batches locally and, once generation gen has finished
// after batches, cancels the run, as a kill would stop it: the batches
// done so far are in the journal.
type killPool struct {
	inner       Pool
	gen, after  int
	cancel      context.CancelFunc
	done        atomic.Int64
	playedOfGen atomic.Int64 // games of generation gen it was asked to play
}

func (p *killPool) Play(ctx context.Context, w Wave) error {
	done := w.Done
	for _, b := range w.Batches {
		if b.Gen == p.gen {
			p.playedOfGen.Add(int64(b.Games()))
		}
	}
	w.Done = func(b *Batch, res Played) {
		done(b, res)
		if b.Gen == p.gen && p.cancel != nil && p.done.Add(1) == int64(p.after) {
			p.cancel()
		}
	}
	return p.inner.Play(ctx, w)
}

// TestJournalReplaysAKilledGeneration: a run stopped after 80% of a
// generation's batches resumes from the journal, plays only the missing
// batches and ends byte-identical to a straight run, whatever befell the
// journal's tail.
func TestJournalReplaysAKilledGeneration(t *testing.T) {
	const (
		batchGames = 8
		killGen    = 1
	)
	cfgDir := t.TempDir()
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, smallConfig), Options{Dir: straight, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := readRun(t, straight)
	games := 8 * 24 // population x baseline games
	batches := games / batchGames
	after := batches * 8 / 10
	tests := []struct {
		name   string
		damage func(t *testing.T, path string)
		// replayed is how many games the resume must read back, given
		// the batches the journal held.
		replayed func(held int) int
	}{
		{"intact", func(*testing.T, string) {}, func(held int) int { return held * batchGames }},
		{"torn last line", func(t *testing.T, path string) {
			appendTo(t, path, `{"batch":23,"results":[1,2,3`)
		}, func(held int) int { return held * batchGames }},
		{"garbled line", func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			lines := bytes.SplitAfter(data, []byte("\n"))
			lines[2] = bytes.Replace(lines[2], []byte(`"results":[`), []byte(`"results":[9`), 1)
			os.WriteFile(path, bytes.Join(lines, nil), 0o644)
		}, func(held int) int { return (held - 1) * batchGames }},
		{"a line of impossible results with a good checksum", func(t *testing.T, path string) {
			forgeFirstResult(t, path, -1000) // shots: a cost no game gives
		}, func(held int) int { return (held - 1) * batchGames }},
		{"a line of a finite but huge cost with a good checksum", func(t *testing.T, path string) {
			forgeFirstResult(t, path, 1e300) // finite, but its square is not
		}, func(held int) int { return (held - 1) * batchGames }},
		{"another generation's journal", func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.Replace(data, []byte(`"generation":1,`), []byte(`"generation":0,`), 1), 0o644)
		}, func(int) int { return 0 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			kill := &killPool{inner: LocalPool(1), gen: killGen, after: after, cancel: cancel}
			_, err := Start(ctx, loadText(t, cfgDir, smallConfig), Options{Dir: dir, Pool: kill, BatchGames: batchGames})
			if err == nil {
				t.Fatal("the run was not stopped")
			}
			path := filepath.Join(dir, rundir.JournalFile)
			held := journalBatches(t, path)
			if held < after || held == batches {
				t.Fatalf("the journal holds %d batches; the run was stopped after %d of %d", held, after, batches)
			}
			tc.damage(t, path)
			resumed := &killPool{inner: LocalPool(2), gen: killGen}
			seen := &gamesSeen{want: map[int]int{}, last: map[int]int{}}
			if _, err := Resume(context.Background(), Options{Dir: dir, Pool: resumed, BatchGames: batchGames, Progress: seen}); err != nil {
				t.Fatal(err)
			}
			// The progress counts the games read back with those played.
			for gen, want := range seen.want {
				if seen.last[gen] != want || seen.outOfBounds {
					t.Errorf("generation %d: progress reached %d of %d games (past the end: %v)", gen, seen.last[gen], want, seen.outOfBounds)
				}
			}
			sameRun(t, want, readRun(t, dir), "killed at 80% of a generation, resumed")
			wantReplayed := tc.replayed(held)
			if got := int(resumed.playedOfGen.Load()); got != games-wantReplayed {
				t.Errorf("the resume played %d games of the killed generation, want %d (%d replayed)", got, games-wantReplayed, wantReplayed)
			}
			if got := loggedReplays(t, dir); got != wantReplayed {
				t.Errorf("run.log says %d games replayed, want %d", got, wantReplayed)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("the finished run left its journal: %v", err)
			}
		})
	}
}

// forgeFirstResult makes the first result of the journal's second batch
// line x, with the checksum that line then needs.
func forgeFirstResult(t *testing.T, path string, x float64) {
	t.Helper()
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	var e struct {
		Batch   int       `json:"batch"`
		Results []float64 `json:"results"`
	}
	if err := json.Unmarshal(lines[2], &e); err != nil {
		t.Fatal(err)
	}
	e.Results[0] = x
	lines[2] = rundir.EntryLine(e.Batch, e.Results)
	os.WriteFile(path, bytes.Join(lines, nil), 0o644)
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// journalBatches counts the batch lines of a journal.
func journalBatches(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range bytes.Lines(data) {
		var e struct {
			Results []float64 `json:"results"`
		}
		if json.Unmarshal(line, &e) == nil && e.Results != nil {
			n++
		}
	}
	return n
}

var replayLine = regexp.MustCompile(`generation \d+: (\d+) of \d+ games replayed from the journal`)

// loggedReplays is the games run.log says were replayed.
func loggedReplays(t *testing.T, dir string) int {
	t.Helper()
	log, err := os.ReadFile(filepath.Join(dir, rundir.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range replayLine.FindAllSubmatch(log, -1) {
		k, _ := strconv.Atoi(string(m[1]))
		n += k
	}
	return n
}

func TestAutoBatchGames(t *testing.T) {
	for _, tc := range []struct{ games, want int }{
		{0, 64}, {1, 64}, {4096, 64}, {4097, 128}, {20_000, 320}, {65_536, 1024}, {10_000_000, 1024},
	} {
		if got := autoBatchGames(tc.games); got != tc.want {
			t.Errorf("autoBatchGames(%d) = %d, want %d", tc.games, got, tc.want)
		}
	}
}

// sizePool records the size of each generation's first batch.
type sizePool struct {
	specPool
	first map[int]int
}

func (p *sizePool) Play(ctx context.Context, w Wave) error {
	for _, b := range w.Batches {
		if b.Index == 0 {
			p.first[b.Gen] = b.Games()
		}
	}
	return p.specPool.Play(ctx, w)
}

// TestPoolsCutByGeneration: on a pool other than the local one, a run
// without a batch size cuts each generation by its number of games
// (autoBatchGames), and its files are still a local run's.
func TestPoolsCutByGeneration(t *testing.T) {
	config := strings.Replace(smallConfig, "games: 24", "games: 600", 1) // 4,800 games a generation: batches of 128
	config = strings.Replace(config, "generations: 4", "generations: 2", 1)
	local := t.TempDir()
	startText(t, config, Options{Dir: local, Workers: 2})
	pool := &sizePool{specPool: specPool{workers: 2}, first: map[int]int{}}
	defer pool.close()
	remote := t.TempDir()
	startText(t, config, Options{Dir: remote, Pool: pool})
	if pool.first[0] != 128 || pool.first[1] != 128 {
		t.Errorf("first batches of %v games, want 128 in each generation", pool.first)
	}
	sameRun(t, readFilesAndExport(t, local, false), readFilesAndExport(t, remote, false), "cut by generation vs local")
}

// brokenPool plays a wave through the local pool, then breaks it: it
// drops a batch's results, hands back too few, or fails.
type brokenPool struct {
	how string
}

func (p brokenPool) Play(ctx context.Context, w Wave) error {
	done := w.Done
	w.Done = func(b *Batch, res Played) {
		switch {
		case b.Index != 1:
			done(b, res)
		case p.how == "short":
			done(b, Played{Results: res.Results[1:]})
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
		ck, _, err := ReadRun(dir)
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
