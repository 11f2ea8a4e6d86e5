package fitness_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/genome"
)

func TestDeriveSeparatesStreams(t *testing.T) {
	seen := map[uint64]string{}
	add := func(name string, v uint64) {
		t.Helper()
		if prev, ok := seen[v]; ok {
			t.Fatalf("%s and %s derive the same seed %#x", prev, name, v)
		}
		seen[v] = name
	}
	add("(1)", fitness.Derive(1))
	add("(2)", fitness.Derive(2))
	add("(1,1,2)", fitness.Derive(1, 1, 2))
	add("(1,2,1)", fitness.Derive(1, 2, 1))
	add("(1,0)", fitness.Derive(1, 0))
	add("(1,0,0)", fitness.Derive(1, 0, 0))
	for i := range uint64(1000) {
		add("(7,3,i)", fitness.Derive(7, 3, i))
	}
	// The engine's streams have four and five parts: (generation,
	// purpose, opponent, game) and (generation, purpose, offset, pairing,
	// game). Every combination is its own stream, and so is every prefix.
	for gen := range uint64(3) {
		for purpose := uint64(1); purpose <= 7; purpose++ {
			add(fmt.Sprintf("(3,%d,%d)", gen, purpose), fitness.Derive(3, gen, purpose))
			for o := range uint64(4) {
				add(fmt.Sprintf("(3,%d,%d,%d)", gen, purpose, o), fitness.Derive(3, gen, purpose, o))
				for g := range uint64(12) {
					add(fmt.Sprintf("(3,%d,%d,%d,%d)", gen, purpose, o, g), fitness.Derive(3, gen, purpose, o, g))
					add(fmt.Sprintf("(3,%d,%d,%d,%d,0)", gen, purpose, o, g), fitness.Derive(3, gen, purpose, o, g, 0))
				}
			}
		}
	}
}

// TestDeriveOrderMatters: every order of four parts, and of six, names
// its own stream, and changing any single part of a six-part name changes
// the stream.
func TestDeriveOrderMatters(t *testing.T) {
	for _, parts := range [][]uint64{{0, 1, 2, 3}, {3, 1, 4, 1 << 40, 5, 9}} {
		seen := map[uint64][]uint64{}
		for _, p := range permutations(parts) {
			v := fitness.Derive(2, p...)
			if prev, ok := seen[v]; ok {
				t.Fatalf("%v and %v derive the same seed", prev, p)
			}
			seen[v] = p
		}
		if want := factorial(len(parts)); len(seen) != want {
			t.Fatalf("%d seeds from the orders of %v, want %d", len(seen), parts, want)
		}
	}
	base := fitness.Derive(2, 3, 1, 4, 1, 5, 9)
	for i := range 6 {
		for _, delta := range []uint64{1, 1 << 32, 1 << 63} {
			p := []uint64{3, 1, 4, 1, 5, 9}
			p[i] += delta
			if fitness.Derive(2, p...) == base {
				t.Fatalf("part %d changed by %#x: same seed", i, delta)
			}
		}
	}
}

func permutations(xs []uint64) [][]uint64 {
	if len(xs) <= 1 {
		return [][]uint64{slices.Clone(xs)}
	}
	var out [][]uint64
	for i := range xs {
		rest := append(slices.Clone(xs[:i]), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]uint64{xs[i]}, p...))
		}
	}
	return out
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

// TestDeriveGolden pins the derivation: every run's results, and every
// checkpoint a resumed run continues from, depend on these exact values.
// Mix(0) is splitmix64's first output from state 0.
func TestDeriveGolden(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want uint64
	}{
		{"Mix(0)", fitness.Mix(0), 0xe220a8397b1dcdaf},
		{"Derive(1)", fitness.Derive(1), 0x910a2dec89025cc1},
		{"Derive(5, 6, 7)", fitness.Derive(5, 6, 7), 0xca41948006cbf31a},
		{"Derive(7, 3, 2, 1, 0)", fitness.Derive(7, 3, 2, 1, 0), 0xd1ba0d2759f47c50},
		{"NewRand(42)", fitness.NewRand(42).Uint64(), 0xb5461ef4414231cc},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.name, tc.got, tc.want)
		}
	}
}

func TestNewRandReproducible(t *testing.T) {
	a, b := fitness.NewRand(42), fitness.NewRand(42)
	for range 100 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed, different streams")
		}
	}
	if fitness.NewRand(42).Uint64() == fitness.NewRand(43).Uint64() {
		t.Fatal("neighbouring seeds start alike")
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name             string
		xs               []float64
		mean, median, sd float64
		half             float64 // CI half-width
	}{
		{"one value", []float64{3}, 3, 3, 0, math.Inf(1)},
		{"two values", []float64{1, 3}, 2, 2, math.Sqrt2, 12.706 * math.Sqrt2 / math.Sqrt2},
		{"odd count", []float64{5, 1, 3}, 3, 3, 2, 4.303 * 2 / math.Sqrt(3)},
		{"constant", []float64{4, 4, 4, 4}, 4, 4, 0, 0},
		// The last tabled quantile (df 30) and the first from the
		// expansion (df 31, exact 2.039513).
		{"31 values", alternate(31), 15.0 / 31, 0, math.Sqrt(15.0 * 16 / 31 / 30), 2.042 * math.Sqrt(15.0*16/31/30) / math.Sqrt(31)},
		{"32 values", alternate(32), 0.5, 0.5, math.Sqrt(8.0 / 31), 2.039513 * math.Sqrt(8.0/31) / math.Sqrt(32)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := fitness.Summarize(tc.xs)
			near := func(what string, got, want float64) {
				if math.IsInf(want, 1) && math.IsInf(got, 1) {
					return
				}
				if !(math.Abs(got-want) <= 1e-9) { // NaN fails too
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			near("mean", s.Mean, tc.mean)
			near("median", s.Median, tc.median)
			near("sd", s.SD, tc.sd)
			if got := s.CI95[1] - s.Mean; math.IsInf(tc.half, 1) != math.IsInf(got, 1) ||
				(!math.IsInf(tc.half, 1) && math.Abs(got-tc.half) > 1e-5*max(1, tc.half)) {
				t.Errorf("CI half-width = %v, want %v", got, tc.half)
			}
			if s.N != len(tc.xs) {
				t.Errorf("n = %d, want %d", s.N, len(tc.xs))
			}
			near("CI symmetry", s.Mean-s.CI95[0], s.CI95[1]-s.Mean)
		})
	}
}

// alternate returns n values 0, 1, 0, 1, ...
func alternate(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i % 2)
	}
	return xs
}

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		o, flip fitness.Outcome
		score   float64
		name    string
	}{
		{fitness.Loss, fitness.Win, 0, "loss"},
		{fitness.Draw, fitness.Draw, 0.5, "draw"},
		{fitness.Win, fitness.Loss, 1, "win"},
		{fitness.Outcome(7), fitness.Outcome(-5), 3.5, "Outcome(7)"},
	} {
		if got := tc.o.Flip(); got != tc.flip {
			t.Errorf("%v.Flip() = %v, want %v", tc.o, got, tc.flip)
		}
		if got := tc.o.Score(); got != tc.score {
			t.Errorf("%v.Score() = %v, want %v", tc.o, got, tc.score)
		}
		if got := tc.o.String(); got != tc.name {
			t.Errorf("String() = %q, want %q", got, tc.name)
		}
	}
}

func TestTallyCI(t *testing.T) {
	tests := []struct {
		name  string
		tally fitness.Tally
		score float64
		ci    [2]float64 // Wilson 95%, to 3 decimals
	}{
		{"100-0 keeps a lower bound below 1", fitness.Tally{Wins: 100}, 1, [2]float64{0.963, 1}},
		{"even", fitness.Tally{Wins: 500, Losses: 500}, 0.5, [2]float64{0.469, 0.531}},
		{"draws count half, conservatively", fitness.Tally{Draws: 10}, 0.5, [2]float64{0.237, 0.763}},
		{"no games", fitness.Tally{}, math.NaN(), [2]float64{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.tally.Score(); got != tc.score && !(math.IsNaN(got) && math.IsNaN(tc.score)) {
				t.Errorf("score %v, want %v", got, tc.score)
			}
			ci := tc.tally.CI95()
			if math.Abs(ci[0]-tc.ci[0]) > 5e-4 || math.Abs(ci[1]-tc.ci[1]) > 5e-4 {
				t.Errorf("CI %v, want %v", ci, tc.ci)
			}
		})
	}
}

func TestParallelIndependentOfWorkers(t *testing.T) {
	fn := func(i int) (uint64, error) { return fitness.Derive(9, uint64(i)), nil }
	want, err := fitness.Parallel(context.Background(), 1000, 1, fn, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 3, 8, 5000} {
		got, err := fitness.Parallel(context.Background(), 1000, w, fn, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("workers %d: result %d differs", w, i)
			}
		}
	}
}

func TestParallelStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := fitness.Parallel(ctx, 1_000_000, 1, func(i int) (int, error) {
		calls++
		if calls == 10 {
			cancel()
		}
		return i, nil
	}, nil)
	if err == nil || calls >= 1_000_000 {
		t.Fatalf("err %v after %d calls: cancellation ignored", err, calls)
	}
}

// coinGame is a toy game: the player with the larger "bias" wins more
// often. It has one tunable player and one fixed one.
type coinGame struct{}

type coin struct {
	name string
	bias float64
}

func (c coin) Name() string { return c.name }

var coinSchema = genome.Schema{
	{Name: "bias", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
	{Name: "mode", Kind: genome.Choice, Choices: []string{"a", "b"}, Default: genome.Value{Str: "a"}},
}

func (coinGame) Name() string          { return "coin" }
func (coinGame) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (coinGame) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{
		{Name: "fair", Role: fitness.Mover, Summary: "bias 1/2"},
		{Name: "tuned", Role: fitness.Mover, Summary: "tunable bias", Schema: coinSchema},
	}
}
func (coinGame) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	if role != fitness.Mover {
		return nil, os.ErrNotExist
	}
	switch name {
	case "fair":
		return coin{"fair", 0.5}, nil
	case "tuned":
		return coin{"tuned", v.Float("bias")}, nil
	}
	return nil, os.ErrNotExist
}
func (coinGame) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	x := fitness.NewRand(seed).Float64()
	pa := a.(coin).bias / (a.(coin).bias + b.(coin).bias)
	if x < pa {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}

func TestPlayPairsSwapsSeats(t *testing.T) {
	g := coinGame{}
	fair, _ := g.NewPlayer(fitness.Mover, "fair", genome.Values{})
	// Equal players on swapped seats of the same deal: every pair splits.
	tally, err := fitness.PlayPairs(context.Background(), g, fair, fair, 1000, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 500 || tally.Losses != 500 {
		t.Fatalf("equal players on swapped seats: %+v, want 500-500", tally)
	}
}

// writeIn writes a file of body called name in dir and returns its path.
func writeIn(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadParams(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeIn(t, dir, name, body) }
	tests := []struct {
		name, body string
		bias       float64
		err        string // substring of the error; "" for success
	}{
		{"bare", "bias: 0.25\n", 0.25, ""},
		{"json", `{"bias": 0.75, "mode": "b"}`, 0.75, ""},
		{"export", "game: coin\nplayer: tuned\nparams:\n  bias: 0.1\n", 0.1, ""},
		{"ranked", "game: coin\nplayers:\n  - params: {bias: 0.2}\n  - params: {bias: 0.3}\n", 0.2, ""},
		{"int as float", "bias: 1\n", 1, ""},
		{"out of range", "bias: 1.5\n", 0, "1: bias: 1.5 is above the maximum 1"},
		{"unknown", "bais: 0.5\n", 0, "1: bais: unknown parameter; want one of bias, mode"},
		{"wrong type", "bias: high\n", 0, "1: bias: want a number, got \"high\""},
		{"bad choice", "mode: c\n", 0, `1: mode: "c" is not one of the choices a, b`},
		{"other game", "game: chess\nparams: {bias: 0.5}\n", 0, `1: game: the parameters are for game "chess", not "coin"`},
		{"malformed", "bias: [\n", 0, "1: did not find expected node content"},
		{"empty", "", 0, "empty file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := write(strings.ReplaceAll(tc.name, " ", "_")+".yaml", tc.body)
			v, _, err := fitness.LoadParams(file, "coin", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: coinSchema})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), file) {
					t.Fatalf("err = %v, want one naming the file and %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Float("bias"); got != tc.bias {
				t.Fatalf("bias %v, want %v", got, tc.bias)
			}
		})
	}
	if _, _, err := fitness.LoadParams(filepath.Join(dir, "missing.yaml"), "coin", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: coinSchema}); err == nil ||
		!strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestParseSpec(t *testing.T) {
	g := coinGame{}
	file := filepath.Join(t.TempDir(), "best.yaml")
	if err := os.WriteFile(file, []byte("bias: 0.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec string
		bias float64
		err  string
	}{
		{"fair", 0.5, ""},
		{"tuned", 0.5, ""},
		{"tuned:" + file, 0.9, ""},
		{"fair:" + file, 0, "no parameters"},
		{"nobody", 0, "does not exist"},
		{":x", 0, "empty player name"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			p, err := fitness.ParseSpec(g, fitness.Mover, tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.(coin).bias; got != tc.bias {
				t.Fatalf("bias %v, want %v", got, tc.bias)
			}
		})
	}
}

// twoTunables is coinGame with a second tunable player.
type twoTunables struct{ coinGame }

func (twoTunables) Players() []fitness.PlayerInfo {
	return append(coinGame{}.Players(), fitness.PlayerInfo{Name: "other", Role: fitness.Mover, Summary: "another tunable bias", Schema: coinSchema})
}

// untunable is coinGame without its tunable player.
type untunable struct{ coinGame }

func (untunable) Players() []fitness.PlayerInfo { return coinGame{}.Players()[:1] }

// TestParseSpecSuggestsAFile: a player file's path given without NAME:
// is refused with the spec it stands for: the player an export in it
// names, else tuned; a name that is no path gets no suggestion.
func TestParseSpecSuggestsAFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeIn(t, dir, name, body) }
	other := write("other.yaml", "game: coin\nplayer: other\nrole: mover\nparams: {bias: 0.2}\n")
	nobody := write("nobody.yaml", "game: coin\nplayer: nobody\nparams: {bias: 0.2}\n")
	write("champion", "bias: 0.2\n")
	tests := []struct {
		name string
		g    fitness.Game
		spec string
		want string // the suggestion, "" for none
	}{
		{"a path that does not exist", coinGame{}, "runs/x/best.yaml", "tuned:runs/x/best.yaml"},
		{"a file name", coinGame{}, "best.json", "tuned:best.json"},
		{"an export of another tunable player", twoTunables{}, other, "other:" + other},
		{"an export of a player the game lacks", twoTunables{}, nobody, "tuned:" + nobody},
		{"a file without extension", coinGame{}, "champion", "tuned:champion"},
		{"a name", coinGame{}, "nobody", ""},
		{"no tunable player", untunable{}, "runs/x/best.yaml", ""},
	}
	t.Chdir(dir) // "champion" is a file here
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := fitness.ParseSpec(tc.g, fitness.Mover, tc.spec)
			if err == nil {
				t.Fatal("accepted")
			}
			suggests := strings.Contains(err.Error(), "did you mean")
			if tc.want == "" && suggests || tc.want != "" && !strings.HasSuffix(err.Error(), "; did you mean "+tc.want+"?") {
				t.Fatalf("%v; want the suggestion %q", err, tc.want)
			}
		})
	}
}

func TestEvaluateIndependentOfWorkers(t *testing.T) {
	g := coinGame{}
	fair, _ := g.NewPlayer(fitness.Mover, "fair", genome.Values{})
	strong, _ := g.NewPlayer(fitness.Mover, "tuned", mustWith(t, coinSchema.Defaults(), "bias", 0.8))
	req := fitness.EvalRequest{
		Game:      g,
		Players:   []fitness.Contender{{Label: "strong", Player: strong}},
		Opponents: []fitness.Contender{{Label: "fair", Player: fair}},
		Games:     999, Seed: 5,
	}
	var reports []fitness.EvalReport
	for _, w := range []int{1, 2, 7} {
		req.Workers = w
		rep, err := fitness.Evaluate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, rep)
	}
	for _, r := range reports[1:] {
		if r.Matches[0] != reports[0].Matches[0] {
			t.Fatalf("reports differ with worker count: %+v vs %+v", r.Matches[0], reports[0].Matches[0])
		}
	}
	m := reports[0].Matches[0]
	if m.Games != 999 || m.CI95[0] <= 0.5 {
		t.Fatalf("bias 0.8 vs 0.5 should score ~0.615 with CI above 0.5, got %+v", m)
	}
}

func mustWith(t testing.TB, v genome.Values, name string, x float64) genome.Values {
	t.Helper()
	out, err := v.With(name, genome.Value{Num: x})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// seatGame records the seed and the first seat of every game: the first
// seat wins.
type seatGame struct {
	coinGame
	mu    sync.Mutex
	games map[uint64][]string
}

func (g *seatGame) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.games[seed] = append(g.games[seed], a.Name())
	return fitness.Win, nil
}

// TestPlayPairsDealsEachPairOnce: n games are n/2 deals, each played
// twice with the seats swapped; another match seed gives other deals.
func TestPlayPairsDealsEachPairOnce(t *testing.T) {
	g := &seatGame{games: map[uint64][]string{}}
	a, b := coin{"a", 0.5}, coin{"b", 0.5}
	tally, err := fitness.PlayPairs(context.Background(), g, a, b, 40, 9, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 20 || tally.Losses != 20 {
		t.Fatalf("the first seat always wins: tally %+v, want 20-20", tally)
	}
	if len(g.games) != 20 {
		t.Fatalf("40 games on %d deals, want 20", len(g.games))
	}
	for seed, seats := range g.games {
		slices.Sort(seats)
		if !slices.Equal(seats, []string{"a", "b"}) {
			t.Fatalf("deal %#x: first seats %v, want a and b once each", seed, seats)
		}
	}
	if _, err := fitness.PlayPairs(context.Background(), g, a, b, 40, 10, 3, nil); err != nil {
		t.Fatal(err)
	}
	if len(g.games) != 40 {
		t.Fatalf("match seeds 9 and 10 share %d deals", 40-len(g.games)+20)
	}
}

// TestParallelProgressCounts: progress counts every finished call once,
// up to n, and Parallel returns every result.
func TestParallelProgressCounts(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{10, 1}, {1000, 1}, {1000, 3}, {7, 16}} {
		t.Run(fmt.Sprintf("%d on %d", tc.n, tc.workers), func(t *testing.T) {
			var mu sync.Mutex
			var counts []int
			out, err := fitness.Parallel(context.Background(), tc.n, tc.workers, func(i int) (int, error) { return i * i, nil }, func(done int) {
				mu.Lock()
				counts = append(counts, done)
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range out {
				if x != i*i {
					t.Fatalf("result %d = %d", i, x)
				}
			}
			slices.Sort(counts)
			if len(counts) == 0 || counts[len(counts)-1] != tc.n {
				t.Fatalf("progress %v, want it to reach %d", counts, tc.n)
			}
			for i := 1; i < len(counts); i++ {
				if counts[i] == counts[i-1] {
					t.Fatalf("progress told %d twice: %v", counts[i], counts)
				}
			}
			if tc.workers == 1 && tc.n == 10 && !slices.Equal(counts, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
				t.Fatalf("one worker, 10 calls: progress %v", counts)
			}
		})
	}
	if out, err := fitness.Parallel(context.Background(), 0, 4, func(int) (int, error) { return 1, nil }, nil); err != nil || len(out) != 0 {
		t.Fatalf("no work: %v, %v", out, err)
	}
}

// TestPlayPairsOddCount: an odd count ends with the first game of a pair,
// a in the first seat.
func TestPlayPairsOddCount(t *testing.T) {
	g := &seatGame{games: map[uint64][]string{}}
	tally, err := fitness.PlayPairs(context.Background(), g, coin{"a", 0.5}, coin{"b", 0.5}, 3, 9, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 2 || tally.Losses != 1 {
		t.Fatalf("3 games where the first seat wins: %+v, want 2-1 for a", tally)
	}
}

func TestEvaluateOneGame(t *testing.T) {
	g := coinGame{}
	fair, _ := g.NewPlayer(fitness.Mover, "fair", genome.Values{})
	req := fitness.EvalRequest{Game: g, Players: []fitness.Contender{{Label: "a", Player: fair}},
		Opponents: []fitness.Contender{{Label: "b", Player: fair}}, Games: 1, Seed: 1, Workers: 1}
	rep, err := fitness.Evaluate(context.Background(), req)
	if err != nil || len(rep.Matches) != 1 || rep.Matches[0].Games != 1 {
		t.Fatalf("one game: %+v, %v", rep, err)
	}
	req.Games = 0
	if _, err := fitness.Evaluate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "at least 1") {
		t.Fatalf("no games: %v", err)
	}
}

// roleGame has a shooter and a placer of one name, and a mover.
type roleGame struct{ coinGame }

func (roleGame) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{
		{Name: "both", Role: fitness.Role("shooter"), Schema: coinSchema},
		{Name: "both", Role: fitness.Role("placer")},
		{Name: "any", Role: fitness.Mover},
	}
}

func TestInfoByRole(t *testing.T) {
	g := roleGame{}
	for _, tc := range []struct {
		role    fitness.Role
		name    string
		ok      bool
		tunable bool
	}{
		{fitness.Role("shooter"), "both", true, true},
		{fitness.Role("placer"), "both", true, false},
		{fitness.Role("shooter"), "any", false, false}, // a player is found in its own role only
		{fitness.Role("placer"), "nobody", false, false},
	} {
		info, ok := fitness.Info(g, tc.role, tc.name)
		if ok != tc.ok || info.Tunable() != tc.tunable || (ok && info.Name != tc.name) {
			t.Errorf("Info(%v, %q) = %+v, %v; want found %v, tunable %v", tc.role, tc.name, info, ok, tc.ok, tc.tunable)
		}
	}
}

func TestLoadParamsRole(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(file, []byte("role: shooter\nparams: {bias: 0.3}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		role fitness.Role
		err  string
	}{
		{fitness.Role("shooter"), ""},
		{fitness.Mover, ""}, // one-role games do not check roles
		{fitness.Role("placer"), "for a shooter, not a placer"},
	} {
		_, _, err := fitness.LoadParams(file, "coin", fitness.PlayerInfo{Name: "tuned", Role: tc.role, Schema: coinSchema})
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("role %v: %v, want %q", tc.role, err, tc.err)
		}
	}
}

// soloCoin is coinGame with a solo measure: the cost of a game is a
// uniform draw scaled by the player's bias and its opponent's, by default
// the house, of the house role.
type soloCoin struct{ coinGame }

const house fitness.Role = "house"

func (soloCoin) Roles() []fitness.Role { return []fitness.Role{fitness.Mover, house} }
func (g soloCoin) Players() []fitness.PlayerInfo {
	return append(g.coinGame.Players(), fitness.PlayerInfo{Name: "house", Role: house})
}
func (g soloCoin) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	if role == house && name == "house" {
		return coin{"house", 1}, nil
	}
	return g.coinGame.NewPlayer(role, name, v)
}
func (soloCoin) Solo() fitness.Solo {
	return fitness.Solo{Measure: "draws", Opponent: house, DefaultOpponent: "house"}
}
func (soloCoin) PlaySolo(_ context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	return p.(coin).bias * opp.(coin).bias * fitness.NewRand(seed).Float64(), nil
}

// TestEvaluateSolo: solo games of every player and opponent on the same
// deals (the same draw scaled by the bias), against the game's solo
// opponent unless one is named, counted in the progress with the
// head-to-head games.
func TestEvaluateSolo(t *testing.T) {
	g := soloCoin{}
	req := fitness.EvalRequest{Game: g,
		Players:   []fitness.Contender{{Label: "half", Player: coin{"half", 0.5}}},
		Opponents: []fitness.Contender{{Label: "one", Player: coin{"one", 1}}},
		Games:     20, Seed: 3, Workers: 2}
	if n := req.Total(); n != 20+2*20 {
		t.Fatalf("Total %d, want 20 head to head + 2 x 20 solo", n)
	}
	var mu sync.Mutex
	most := 0
	req.Progress = func(done int) { mu.Lock(); most = max(most, done); mu.Unlock() }
	rep, err := fitness.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if most != req.Total() {
		t.Errorf("progress reached %d of %d", most, req.Total())
	}
	if len(rep.Players) != 2 || rep.Players[0].Name != "half" || rep.Players[1].Name != "one" || rep.Players[0].Measure != "draws" {
		t.Fatalf("players %+v", rep.Players)
	}
	half, one := rep.Players[0].Solo, rep.Players[1].Solo
	if half.N != 20 || math.Abs(half.Mean-one.Mean/2) > 1e-12 {
		t.Errorf("solo means %v and %v: the same deals give half the cost at half the bias", half.Mean, one.Mean)
	}
	doc, err := json.Marshal(rep.Players[0])
	if err != nil || !strings.HasPrefix(string(doc), `{"draws":{"n":20,`) || !strings.Contains(string(doc), `"name":"half"`) {
		t.Errorf("player JSON %s, %v", doc, err)
	}
	req.SoloOpponent, req.Progress = coin{"double", 2}, nil
	rep2, err := fitness.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep2.Players[0].Solo.Mean; math.Abs(got-2*half.Mean) > 1e-12 {
		t.Errorf("against a named solo opponent of twice the bias: mean %v, want %v", got, 2*half.Mean)
	}
	if (fitness.EvalRequest{Game: coinGame{}, Players: req.Players, Opponents: req.Opponents, Games: 20}).Total() != 20 {
		t.Error("a game without solo games counts solo games")
	}
	two, three := make([]fitness.Contender, 2), make([]fitness.Contender, 3)
	if n := (fitness.EvalRequest{Game: g, Players: two, Opponents: three, Games: 10}).Total(); n != 2*3*10+(2+3)*10 {
		t.Errorf("2 players, 3 opponents, 10 games: Total %d, want %d", n, 2*3*10+(2+3)*10)
	}
}

func TestRoleNames(t *testing.T) {
	for r, want := range map[fitness.Role]string{fitness.Mover: "mover", fitness.Role("shooter"): "shooter", fitness.Role("placer"): "placer", house: "house"} {
		if r.String() != want {
			t.Errorf("%q: %q, want %q", string(r), r.String(), want)
		}
	}
}

func TestLoadParamsExports(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, err string }{
		{"empty params", "game: coin\nplayer: tuned\nparams:\n", "3: params: no parameter values found"},
		{"players without params", "game: coin\nplayers:\n  - rank: 1\n", ": params: no parameter values found"},
		{"another player", "player: fair\nparams: {bias: 0.5}\n", `for player "fair", not "tuned"`},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml")
		if err := os.WriteFile(file, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := fitness.LoadParams(file, "coin", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: coinSchema}); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
}

func TestParallelReportsLowestFailingIndex(t *testing.T) {
	// Games 300, 301 and 700 fail; whatever the worker count and whichever
	// fails first in time, the error is game 300's, every game below it
	// ran, and no game past the last failure of a worker was started.
	failing := map[int]bool{300: true, 301: true, 700: true}
	for _, w := range []int{1, 2, 3, 8, 64} {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) {
			var ran [1000]atomic.Bool
			out, err := fitness.Parallel(context.Background(), 1000, w, func(i int) (int, error) {
				ran[i].Store(true)
				if failing[i] {
					return 0, fmt.Errorf("game %d failed", i)
				}
				return i + 1, nil
			}, nil)
			if err == nil || err.Error() != "game 300 failed" {
				t.Fatalf("err %v, want game 300's", err)
			}
			for i := range 300 {
				if !ran[i].Load() || out[i] != i+1 {
					t.Fatalf("game %d below the failure did not run", i)
				}
			}
			if w == 1 && ran[301].Load() {
				t.Fatalf("one worker went on past the failure")
			}
		})
	}
}

// seededErr is an error of a game that names its seed itself.
type seededErr struct{}

func (seededErr) Error() string    { return "outside: game with seed 3 crashed" }
func (seededErr) GameSeed() uint64 { return 3 }

func TestFailedNamesTheSeedOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"plain", errors.New("boom"), "game seed 7: boom"},
		{"already a game error", &fitness.GameError{Seed: 3, Err: errors.New("boom")}, "game seed 3: boom"},
		{"cancelled", context.Canceled, "context canceled"},
		{"seeded by the game", seededErr{}, "outside: game with seed 3 crashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := fitness.Failed(7, tc.err)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// batchingCoin is coinGame with a PlayBatch that counts its calls and
// fails every game whose seed is in fail.
type batchingCoin struct {
	coinGame
	batches *atomic.Int64
	fail    map[uint64]bool
}

func (g batchingCoin) PlayBatch(ctx context.Context, ms []fitness.Match) ([]fitness.Outcome, error) {
	g.batches.Add(1)
	out := make([]fitness.Outcome, len(ms))
	for i, m := range ms {
		if g.fail[m.Seed] {
			return nil, &fitness.GameError{Seed: m.Seed, Err: errors.New("crashed")}
		}
		out[i], _ = g.Play(ctx, m.A, m.B, m.Seed)
	}
	return out, nil
}

func TestPlayMatchesBatches(t *testing.T) {
	g := coinGame{}
	fair, _ := g.NewPlayer(fitness.Mover, "fair", genome.Values{})
	strong, _ := g.NewPlayer(fitness.Mover, "tuned", mustWith(t, coinSchema.Defaults(), "bias", 0.8))
	ms := make([]fitness.Match, 1000)
	for i := range ms {
		ms[i] = fitness.Match{A: strong, B: fair, Seed: fitness.Derive(4, uint64(i))}
	}
	want, err := fitness.PlayMatches(context.Background(), g, ms, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			bg := batchingCoin{coinGame: g, batches: new(atomic.Int64)}
			var done atomic.Int64
			got, err := fitness.PlayMatches(context.Background(), bg, ms, workers, func(d int) { done.Store(int64(d)) })
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatal("batched outcomes differ from one-by-one")
			}
			if n := bg.batches.Load(); n != (1000+fitness.BatchSize-1)/fitness.BatchSize {
				t.Fatalf("%d batches", n)
			}
			if done.Load() == 0 {
				t.Fatal("no progress reported")
			}
			// Games 150 and 700 fail: whatever the workers, game 150's
			// error (its batch is the lowest failing one) comes back.
			bg.fail = map[uint64]bool{ms[700].Seed: true, ms[150].Seed: true}
			_, err = fitness.PlayMatches(context.Background(), bg, ms, workers, nil)
			var ge *fitness.GameError
			if !errors.As(err, &ge) || ge.Seed != ms[150].Seed {
				t.Fatalf("error %v, want game 150's", err)
			}
		})
	}
}

// rolesGame is coinGame declaring the roles it is given.
type rolesGame struct {
	coinGame
	roles []fitness.Role
}

func (g rolesGame) Roles() []fitness.Role { return g.roles }

func TestOtherRole(t *testing.T) {
	a, b, c := fitness.Role("a"), fitness.Role("b"), fitness.Role("c")
	for _, tc := range []struct {
		name  string
		roles []fitness.Role
		role  fitness.Role
		other fitness.Role
		ok    bool
	}{
		{"first of two", []fitness.Role{a, b}, a, b, true},
		{"second of two", []fitness.Role{a, b}, b, a, true},
		{"not declared", []fitness.Role{a, b}, c, "", false},
		{"one role", []fitness.Role{a}, a, "", false},
		{"three roles", []fitness.Role{a, b, c}, a, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other, ok := fitness.OtherRole(rolesGame{roles: tc.roles}, tc.role)
			if other != tc.other || ok != tc.ok {
				t.Fatalf("OtherRole(%v, %v) = %q, %v; want %q, %v", tc.roles, tc.role, other, ok, tc.other, tc.ok)
			}
		})
	}
}

// TestEvaluatePairsAndDifferences: head-to-head intervals come from the
// seat-swapped pairs, and every two players' solo costs are compared on
// their shared deals.
func TestEvaluatePairsAndDifferences(t *testing.T) {
	g := soloCoin{}
	fair := coin{"fair", 0.5}
	// A player against itself, where the first seat decides: every pair
	// splits 1-1, so the score is exactly 1/2 (a per-game interval would
	// say +-0.03 over 1,000 games).
	req := fitness.EvalRequest{Game: g, Players: []fitness.Contender{{Label: "a", Player: fair}, {Label: "b", Player: coin{"b", 0.25}}},
		Opponents: []fitness.Contender{{Label: "a", Player: fair}}, Games: 1000, Seed: 4, Workers: 3}
	rep, err := fitness.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	self := rep.Matches[0]
	if self.Pairs != (stats.Pentanomial{0, 0, 500, 0, 0}) || self.Score != 0.5 || self.CI95[1]-self.CI95[0] > 1e-3 {
		t.Errorf("a player against itself: pairs %v, score %v %v; want every pair split and a point interval", self.Pairs, self.Score, self.CI95)
	}
	if self.Elo.Value != 0 || self.NormalizedElo.Value != 0 {
		t.Errorf("a player against itself: Elo %v, normalized %v", self.Elo, self.NormalizedElo)
	}
	weaker := rep.Matches[1]
	if weaker.Pairs.Pairs() != 500 || !weaker.Elo.Contains(stats.EloOf(weaker.Score)) || weaker.Elo.CI95[1] >= 0 {
		t.Errorf("bias 0.25 against 0.5: %+v", weaker)
	}
	if want := weaker.Pairs.Score().CI95; weaker.CI95 != want {
		t.Errorf("score interval %v, want the pairs' %v", weaker.CI95, want)
	}
	// Solo: a, b (half a's cost on every deal) and the opponent a again.
	if len(rep.Differences) != 3 {
		t.Fatalf("differences %+v, want one for each of the 3 pairs of players", rep.Differences)
	}
	d := rep.Differences[0]
	if d.A != "a" || d.B != "b" || d.Measure != "draws" || d.Difference.N != 1000 {
		t.Fatalf("first difference %+v", d)
	}
	if a, b := rep.Players[0].Solo.Mean, rep.Players[1].Solo.Mean; math.Abs(d.Difference.Value-(a-b)) > 1e-12 || !d.Difference.Contains(a-b) {
		t.Errorf("a - b = %v, means %v and %v", d.Difference, a, b)
	}
	if same := rep.Differences[1]; same.Difference.Value != 0 || same.Difference.CI95 != [2]float64{0, 0} {
		t.Errorf("a player against itself on the same deals: %+v", same)
	}
	// The paired interval is far narrower than the two means' together.
	sa, sb := rep.Players[0].Solo, rep.Players[1].Solo
	if paired := d.Difference.CI95[1] - d.Difference.CI95[0]; paired >= (sa.CI95[1]-sa.CI95[0]+sb.CI95[1]-sb.CI95[0])/2 {
		t.Errorf("paired interval %v not narrower than the means' %v, %v", d.Difference.CI95, sa.CI95, sb.CI95)
	}
}

// TestSoloAdmits: a cost is one a game gives when it lies from 0 to
// MaxCost, within the game's own bounds, and whole if its costs are:
// the nearest costs past each bound are refused (200 shots on a board of
// 100 cells was taken, being below 2^53).
func TestSoloAdmits(t *testing.T) {
	bship := fitness.Solo{Measure: "shots", Least: 17, Most: 100, Whole: true}
	open := fitness.Solo{Measure: "turns"}
	for _, tc := range []struct {
		name string
		s    fitness.Solo
		cost float64
		want bool
	}{
		{"the fleet's cells", bship, 17, true},
		{"one shot fewer than the fleet's cells", bship, 16, false},
		{"the board's cells", bship, 100, true},
		{"one shot past the board", bship, 101, false},
		{"200 shots on 100 cells", bship, 200, false},
		{"half a shot", bship, 50.5, false},
		{"a shot and a hair", bship, math.Nextafter(50, 51), false},
		{"NaN", bship, math.NaN(), false},
		{"0 of an open measure", open, 0, true},
		{"below 0", open, math.Nextafter(0, -1), false},
		{"a fraction of an open measure", open, 0.25, true},
		{"2^53", open, fitness.MaxCost, true},
		{"past 2^53", open, math.Nextafter(fitness.MaxCost, math.Inf(1)), false},
		{"infinite", open, math.Inf(1), false},
		{"a game's bound past 2^53 bounds nothing more", fitness.Solo{Most: 1e300}, 1e20, false},
	} {
		if got := tc.s.Admits(tc.cost); got != tc.want {
			t.Errorf("%s: Admits(%v) = %v, want %v", tc.name, tc.cost, got, tc.want)
		}
	}
	if got := bship.Bounds(); got != "a whole number of shots from 17 to 100" {
		t.Errorf("Bounds: %q", got)
	}
	if got := open.Bounds(); got != "a cost from 0 to 2^53" {
		t.Errorf("Bounds: %q", got)
	}
}

// fixedCost is a solo game of one player whose every game costs cost,
// played one at a time; fixedCostBatcher plays it in batches (as an
// outside program plays them).
type fixedCost struct {
	solo fitness.Solo
	cost func(seed uint64) float64
}

type fixedCostBatcher struct{ fixedCost }

func (fixedCost) Name() string          { return "fixed" }
func (fixedCost) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (fixedCost) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{{Name: "p", Role: fitness.Mover}}
}
func (fixedCost) NewPlayer(fitness.Role, string, genome.Values) (fitness.Player, error) {
	return nil, nil
}
func (fixedCost) Play(context.Context, fitness.Player, fitness.Player, uint64) (fitness.Outcome, error) {
	return fitness.Draw, fitness.ErrNoHeadToHead
}
func (g fixedCost) Solo() fitness.Solo { return g.solo }
func (g fixedCost) PlaySolo(_ context.Context, _, _ fitness.Player, seed uint64) (float64, error) {
	return g.cost(seed), nil
}
func (g fixedCostBatcher) PlaySoloBatch(_ context.Context, ms []fitness.Match) ([]float64, error) {
	out := make([]float64, len(ms))
	for i, m := range ms {
		out[i] = g.cost(m.Seed)
	}
	return out, nil
}

// TestPlaySoloMatchesRefusesImpossibleCosts: a cost the game's rules rule
// out, as an outside program may send (below 0, past 2^53, past the
// game's own bounds), fails the game that gave it, naming its seed, where
// eval, sprt and compare read costs; costs at each bound are taken. Only
// the engine's runs checked them: eval and sprt reported a mean of -3
// turns, and of 1e300 with an infinite interval.
func TestPlaySoloMatchesRefusesImpossibleCosts(t *testing.T) {
	bship := fitness.Solo{Measure: "shots", Least: 17, Most: 100, Whole: true}
	open := fitness.Solo{Measure: "turns"}
	for _, tc := range []struct {
		name string
		solo fitness.Solo
		bad  float64
		want string // "" where the cost is taken
	}{
		{"a negative cost", open, -3, "turns -3: not a cost the game gives (want a cost from 0 to 2^53)"},
		{"just below 0", open, math.Nextafter(0, -1), "turns -5e-324: not a cost"},
		{"1e300", open, 1e300, "turns 1e+300: not a cost"},
		{"just past 2^53", open, math.Nextafter(fitness.MaxCost, math.Inf(1)), "turns 9.007199254740994e+15: not a cost"},
		{"NaN", open, math.NaN(), "turns NaN: not a cost"},
		{"one shot past the board", bship, 101, "shots 101: not a cost the game gives (want a whole number of shots from 17 to 100)"},
		{"one shot fewer than the fleet", bship, 16, "shots 16: not a cost"},
		{"half a shot", bship, 50.5, "shots 50.5: not a cost"},
		{"an unnamed measure", fitness.Solo{}, -1, "cost -1: not a cost"},
		{"0", open, 0, ""},
		{"2^53", open, fitness.MaxCost, ""},
		{"the fleet's cells", bship, 17, ""},
		{"the board's cells", bship, 100, ""},
	} {
		for _, batches := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, batches %v", tc.name, batches), func(t *testing.T) {
				const badSeed = 1000 + 70 // in the second batch of 64
				g := fixedCost{solo: tc.solo, cost: func(seed uint64) float64 {
					if seed == badSeed || seed == badSeed+5 {
						return tc.bad
					}
					return 50
				}}
				var game fitness.SoloGame = g
				if batches {
					game = fixedCostBatcher{g}
				}
				ms := make([]fitness.Match, 200)
				for i := range ms {
					ms[i].Seed = 1000 + uint64(i)
				}
				costs, err := fitness.PlaySoloMatches(context.Background(), game, ms, 3, nil)
				if tc.want == "" {
					if err != nil || len(costs) != len(ms) || costs[70] != tc.bad {
						t.Fatalf("%v refused: %v", tc.bad, err)
					}
					return
				}
				var ge *fitness.GameError
				if !errors.Is(err, fitness.ErrImpossibleCost) || !errors.As(err, &ge) || ge.Seed != badSeed || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err %v; want ErrImpossibleCost of the game of seed %d saying %q", err, badSeed, tc.want)
				}
			})
		}
	}
}
