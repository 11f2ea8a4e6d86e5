package mnk_test

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/mnk"
	"github.com/evotune/evotune/genome"
)

func Example() {
	// Rule options as a user writes them; m is the width, n the height.
	game, err := mnk.Info.New(map[string]string{"m": "4", "n": "4", "k": "3"})
	if err != nil {
		fmt.Println(err)
		return
	}
	perfect, err := game.NewPlayer(fitness.Mover, "perfect", genome.Values{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// 4,4,3 is a first-player win: perfect play as X wins.
	out, err := game.Play(context.Background(), perfect, perfect, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("4,4,3 perfect vs perfect:", out)

	ttt, _ := mnk.Info.New(nil) // the defaults: 3,3,3
	fmt.Println("tic-tac-toe perft:", ttt.(fitness.Perfter).Perft(9))

	tree, _ := mnk.TreeCount(mnk.TicTacToe)
	fmt.Printf("%d games (%d X wins, %d O wins, %d draws), %d positions\n",
		tree.Games(), tree.XWins, tree.OWins, tree.Draws, tree.Positions)

	_, err = mnk.Info.New(map[string]string{"k": "7"})
	fmt.Println(err)
	// Output:
	// 4,4,3 perfect vs perfect: win
	// tic-tac-toe perft: [9 72 504 3024 15120 54720 148176 200448 127872]
	// 255168 games (131184 X wins, 77904 O wins, 46080 draws), 5478 positions
	// mnk: k 7 exceeds the board 3x3
}

func ExampleGame_NewPlayer() {
	game, err := mnk.NewGame(mnk.Rules{M: 9, N: 9, K: 5}, mnk.Limits{Depth: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	var schema genome.Schema
	for _, p := range game.Players() {
		if p.Name == "tuned" {
			schema = p.Schema
		}
	}
	fmt.Println(len(schema), "knobs, first", schema[0].Name, schema[0].Range())
	params, err := schema.Defaults().With("own_open_3", genome.Value{Num: 300})
	if err != nil {
		fmt.Println(err)
		return
	}
	tuned, err := game.NewPlayer(fitness.Mover, "tuned", params)
	if err != nil {
		fmt.Println(err)
		return
	}
	random, _ := game.NewPlayer(fitness.Mover, "random", genome.Values{})
	out, err := game.Play(context.Background(), tuned, random, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("tuned vs random:", out)
	// Output:
	// 18 knobs, first own_open_1 [0.001, 1000] log
	// tuned vs random: win
}

// Gravity turns m,n,k into the drop-the-chip games: a move names a column
// and the chip falls to its lowest empty cell.
func Example_gravity() {
	seed003 := mnk.Rules{M: 3, N: 3, K: 3, Gravity: true}
	tree, _ := mnk.TreeCount(seed003)
	fmt.Printf("%v: %d games (%d X wins, %d O wins, %d draws), %d positions\n",
		seed003, tree.Games(), tree.XWins, tree.OWins, tree.Draws, tree.Positions)

	c4, _ := mnk.Info.New(map[string]string{"m": "7", "n": "6", "k": "4", "gravity": "true"})
	fmt.Println("Connect Four perft:", c4.(fitness.Perfter).Perft(8))
	// Output:
	// 3,3,3 gravity: 1310 games (616 X wins, 386 O wins, 308 draws), 694 positions
	// Connect Four perft: [7 49 343 2401 16807 117649 823536 5673234]
}
