package hadron_test

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/hadron"
)

// Build the game from rule options as the CLI does, pit the tuned player
// (here with Aenigma's defaults) against greedy, and count moves.
func Example() {
	g, err := hadron.Info.New(map[string]string{"size": "5", "depth": "3"})
	if err != nil {
		fmt.Println(err)
		return
	}
	game := g.(*hadron.Game)
	tuned, _ := game.NewPlayer(fitness.Mover, "tuned", hadron.Schema(5).Defaults())
	greedy, _ := game.NewPlayer(fitness.Mover, "greedy", hadron.Schema(5).Defaults())
	r, _ := game.PlayRecord(tuned, greedy, 2024)
	replayed, err := game.Play(context.Background(), tuned, greedy, 2024)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(replayed == fitness.Win == (r.Winner == hadron.White))
	fmt.Println(game.Perft(3))

	_, err = hadron.Info.New(map[string]string{"size": "2"})
	fmt.Println(err)
	// Output:
	// true
	// [25 520 9032]
	// hadron: size 2: must be at least 3
}

func ExampleBoard() {
	b, _ := hadron.NewBoard(3)
	b2, _ := hadron.ParseCell("B2", 3)
	_ = b.Play(b2)
	fmt.Print(b)
	fmt.Println(b.Legal())
	f := b.Features()
	fmt.Println(f.Legal, f.Specials(b.ToMove()), f.Parity())
	// Output:
	// to-move: black
	//   1 2 3
	// A . . .
	// B . W .
	// C . . .
	// [A1 A3 C1 C3]
	// 4 0 -1
}
