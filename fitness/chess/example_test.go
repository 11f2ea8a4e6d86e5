package chess_test

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/chess"
)

// Two built-in players meet from 4 random plies, with fishtest's resign
// rule; the record says how the game went.
func ExampleGame_PlayRecord() {
	g, err := chess.Info.New(map[string]string{"random-plies": "4", "resign-moves": "3", "resign-score": "600"})
	if err != nil {
		panic(err)
	}
	tiny, _ := g.NewPlayer(fitness.Mover, "tiny", chess.Schema().Defaults())
	random, _ := g.NewPlayer(fitness.Mover, "random", chess.Schema().Defaults())
	rec, err := g.(*chess.Game).PlayRecord(context.Background(), tiny, random, 7)
	if err != nil {
		panic(err)
	}
	fmt.Println(rec.White, "vs", rec.Black, rec.Result(), "by", rec.Termination)
	fmt.Println("opening:", rec.Moves[:rec.Opening.Plies])
	last := rec.Replies[len(rec.Replies)-1]
	fmt.Println("moves:", len(rec.Moves), "last:", rec.Moves[len(rec.Moves)-1], "mate in", last.Mate)
	// Output:
	// tiny vs random 1-0 by checkmate
	// opening: [a2a3 a7a6 g1h3 g8f6]
	// moves: 57 last: d1g4 mate in 1
}

// Perft counts from the fen rule's position.
func ExampleGame_Perft() {
	g, err := chess.Info.New(map[string]string{"fen": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.(fitness.Perfter).Perft(4))
	// Output: [14 191 2812 43238]
}
