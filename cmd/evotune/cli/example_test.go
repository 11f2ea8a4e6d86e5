package cli_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/evotune/evotune/cmd/evotune/cli"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
)

// guess is a game of a module of your own: each game hides a number in
// [0, 100), skewed towards 0 (the square of a uniform draw), and the
// closer guess wins. Alone, a player's cost is how far it missed. The
// tunable player's one knob is its guess.
type guess struct{}

// guesser is a player: a fixed guess.
type guesser struct {
	name string
	at   float64
}

func (p guesser) Name() string { return p.name }

var guessSchema = genome.Schema{
	{Name: "at", Kind: genome.Float, Min: 0, Max: 100, Default: genome.Value{Num: 80},
		Summary: "the number guessed"},
}

var guessInfo = fitness.GameInfo{
	Name:    "guess",
	Summary: "guess a hidden number skewed towards 0; the closer guess wins",
	New: func(opts map[string]string) (fitness.Game, error) {
		if len(opts) > 0 {
			return nil, fmt.Errorf("guess: no rule options, got %d", len(opts))
		}
		return guess{}, nil
	},
}

func (guess) Name() string          { return "guess" }
func (guess) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (guess) Players() []fitness.PlayerInfo {
	return []fitness.PlayerInfo{
		{Name: "middle", Role: fitness.Mover, Summary: "always 50"},
		{Name: "tuned", Role: fitness.Mover, Summary: "a tunable guess", Schema: guessSchema},
	}
}

func (guess) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	switch {
	case role != fitness.Mover:
		return nil, fmt.Errorf("guess: no %v role", role)
	case name == "middle":
		return guesser{name, 50}, nil
	case name == "tuned":
		if err := fitness.CheckParams(guessSchema, v); err != nil {
			return nil, fmt.Errorf("guess: tuned: %w", err)
		}
		return guesser{name, v.Float("at")}, nil
	}
	return nil, fmt.Errorf("guess: unknown player %q (known: middle, tuned)", name)
}

// hidden is the number of the game with seed: a pure function of it.
func hidden(seed uint64) float64 {
	u := fitness.NewRand(seed).Float64()
	return 100 * u * u
}

func (guess) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	x := hidden(seed)
	da, db := math.Abs(a.(guesser).at-x), math.Abs(b.(guesser).at-x)
	switch {
	case da < db:
		return fitness.Win, nil
	case da > db:
		return fitness.Loss, nil
	}
	return fitness.Draw, nil
}

// Solo makes guess a fitness.SoloGame: the miss, lower is better, with
// no opponent.
func (guess) Solo() fitness.Solo { return fitness.Solo{Measure: "miss"} }

func (guess) PlaySolo(_ context.Context, p, _ fitness.Player, seed uint64) (float64, error) {
	return math.Abs(p.(guesser).at - hidden(seed)), nil
}

// A Go module of your own implements fitness.Game, registers it, and gets
// the whole command line; its main is
//
//	func main() {
//		catalog.Register(guessInfo)
//		cli.Run()
//	}
//
// Here cli.Main stands in for cli.Run, to show the output: a short tuning
// run, its best guess exported (near 25, the median of the hidden number,
// which minimises the miss), and evaluated beside the default guess.
func Example() {
	catalog.Register(guessInfo)

	dir, err := os.MkdirTemp("", "guess")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// Work in dir, so the files have short names in the report.
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		fmt.Println(err)
		return
	}
	err = os.WriteFile("guess.yaml", []byte(`game: guess
player: tuned
fitness:
  baselines:
    games: 400
evolution:
  population: 12
  generations: 8
`), 0o644)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, args := range [][]string{
		{"run", "guess.yaml", "--out", "run", "--quiet"},
		{"export", "run", "-o", "best.yaml"},
	} {
		if code := cli.Main(args, io.Discard, io.Discard); code != 0 {
			fmt.Println(args[0], "exit", code)
			return
		}
	}
	params, _, err := fitness.LoadParams("best.yaml", "guess", fitness.PlayerInfo{Name: "tuned", Role: fitness.Mover, Schema: guessSchema})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("evolved guess: %.0f\n", params.Float("at"))
	cli.Main([]string{"eval", "guess", "--player", "tuned:best.yaml", "--player", "tuned",
		"--vs", "middle", "--games", "2000"}, os.Stdout, io.Discard)
	// Output:
	// evolved guess: 25
	// guess: 2000 games per player and pairing, seed 1
	//
	// player           mean miss  95% CI             median      sd    games   (lower is better)
	// tuned:best.yaml    24.602  [23.815, 25.388]    21.3  17.938     2000
	// tuned              49.425  [48.274, 50.575]    56.4  26.236     2000
	// middle             30.705  [30.030, 31.380]    33.1  15.388     2000
	//
	// paired differences of mean miss on the same deals, 95% CI (below 0: the first needs fewer):
	//   tuned:best.yaml - tuned = -24.823 [-26.602, -23.044] miss
	//   tuned:best.yaml - middle = -6.104 [-7.085, -5.122] miss
	//   tuned - middle = +18.719 [+17.794, +19.645] miss
	//
	// tuned:best.yaml vs middle: 2000 games in 1000 seat-swapped pairs: 1234 wins, 0 draws, 766 losses
	//   score 0.6170 [0.5869, 0.6471] (higher is better), Elo +82.8 [+61.0, +105.4], normalized Elo +59.1 [+43.0, +75.2]
	//   pairs scoring 0, 1/2, 1, 3/2, 2: [383, 0, 0, 0, 617]
	// tuned vs middle: 2000 games in 1000 seat-swapped pairs: 368 wins, 0 draws, 1632 losses
	//   score 0.1840 [0.1600, 0.2080] (higher is better), Elo -258.7 [-288.1, -232.2], normalized Elo -200.4 [-225.7, -175.0]
	//   pairs scoring 0, 1/2, 1, 3/2, 2: [816, 0, 0, 0, 184]
}
