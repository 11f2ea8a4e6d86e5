package external_test

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
)

// A program's game is used as a built-in one: describe it, open it with
// rule options, build players, play (one game, or a pipelined batch),
// close. Here the program is the coin game of testdata/bot.
func Example() {
	ctx := context.Background()
	c := external.Command{Argv: []string{bot}} // e.g. []string{"python3", "bots/pig.py"}
	d, err := external.Describe(ctx, c)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range d.Players {
		fmt.Printf("%s (%s): %d parameters\n", p.Name, p.Role, len(p.Schema))
	}
	g, err := d.Info(c).New(map[string]string{"draws": "yes"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fitness.Close(g) // stops the program's processes

	info, _ := fitness.Info(g, fitness.Mover, "biased")
	biased, _ := g.NewPlayer(fitness.Mover, "biased", info.Schema.Defaults())
	fixed, _ := g.NewPlayer(fitness.Mover, "fixed", genome.Values{})
	o, err := g.Play(ctx, biased, fixed, 42)
	fmt.Println(o, err)

	var ms []fitness.Match
	for seed := range uint64(8) {
		ms = append(ms, fitness.Match{A: biased, B: fixed, Seed: seed})
	}
	outs, err := g.(fitness.Batcher).PlayBatch(ctx, ms)
	fmt.Println(outs, err)
	// Output:
	// fixed (mover): 0 parameters
	// biased (mover): 5 parameters
	// draw <nil>
	// [win win win win win loss loss win] <nil>
}
