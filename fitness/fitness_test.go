package fitness_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
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
	if fitness.Derive(5, 6, 7) != fitness.Derive(5, 6, 7) {
		t.Fatal("Derive is not a pure function")
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := fitness.Summarize(tc.xs)
			near := func(what string, got, want float64) {
				if math.IsInf(want, 1) && math.IsInf(got, 1) {
					return
				}
				if math.Abs(got-want) > 1e-9 {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			near("mean", s.Mean, tc.mean)
			near("median", s.Median, tc.median)
			near("sd", s.SD, tc.sd)
			near("CI half-width", s.CI95[1]-s.Mean, tc.half)
			near("CI symmetry", s.Mean-s.CI95[0], s.CI95[1]-s.Mean)
		})
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
	fn := func(i int) uint64 { return fitness.Derive(9, uint64(i)) }
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
	_, err := fitness.Parallel(ctx, 1_000_000, 1, func(i int) int {
		calls++
		if calls == 10 {
			cancel()
		}
		return i
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

func (coinGame) Name() string { return "coin" }
func (coinGame) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{
		{Name: "fair", Role: fitness.Mover, Summary: "bias 1/2"},
		{Name: "tuned", Role: fitness.Mover, Summary: "tunable bias", Schema: coinSchema},
	}
}
func (coinGame) NewPlayer(name string, v genome.Values) (fitness.Player, error) {
	switch name {
	case "fair":
		return coin{"fair", 0.5}, nil
	case "tuned":
		return coin{"tuned", v.Float("bias")}, nil
	}
	return nil, os.ErrNotExist
}
func (coinGame) Play(a, b fitness.Player, seed uint64) fitness.Outcome {
	x := fitness.NewRand(seed).Float64()
	pa := a.(coin).bias / (a.(coin).bias + b.(coin).bias)
	if x < pa {
		return fitness.Win
	}
	return fitness.Loss
}

func TestPlayPairsSwapsSeats(t *testing.T) {
	g := coinGame{}
	fair, _ := g.NewPlayer("fair", genome.Values{})
	// Equal players on swapped seats of the same deal: every pair splits.
	tally, err := fitness.PlayPairs(context.Background(), g, fair, fair, 1000, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Wins != 500 || tally.Losses != 500 {
		t.Fatalf("equal players on swapped seats: %+v, want 500-500", tally)
	}
}

func TestLoadParams(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
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
		{"out of range", "bias: 1.5\n", 0, "bias: 1.5 is outside [0, 1]"},
		{"unknown", "bais: 0.5\n", 0, `unknown parameter "bais"`},
		{"wrong type", "bias: high\n", 0, "bias: want a number"},
		{"bad choice", "mode: c\n", 0, `mode: "c" is not one of a, b`},
		{"other game", "game: chess\nparams: {bias: 0.5}\n", 0, `for game "chess"`},
		{"malformed", "bias: [\n", 0, "line"},
		{"empty", "", 0, "empty file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := write(strings.ReplaceAll(tc.name, " ", "_")+".yaml", tc.body)
			v, err := fitness.LoadParams(file, "coin", fitness.Mover, "tuned", coinSchema)
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
	if _, err := fitness.LoadParams(filepath.Join(dir, "missing.yaml"), "coin", fitness.Mover, "tuned", coinSchema); err == nil ||
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

func TestEvaluateIndependentOfWorkers(t *testing.T) {
	g := coinGame{}
	fair, _ := g.NewPlayer("fair", genome.Values{})
	strong, _ := g.NewPlayer("tuned", mustWith(t, coinSchema.Defaults(), "bias", 0.8))
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
