package program_test

import (
	"math/rand/v2"
	"os"
	"strings"

	"github.com/evotune/evotune/fitness/external/program"
	"github.com/evotune/evotune/genome"
)

// A Go bot in a few lines: a coin game whose tuned player has a bias.
// In a real program, main calls program.Main(game), which serves stdin
// and stdout; here Serve reads a scripted session.
func Example() {
	game := program.Game{
		Name: "coin",
		Players: []program.Player{
			{Name: "fair"},
			{Name: "biased", Schema: genome.Schema{
				{Name: "bias", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}},
			}},
		},
		Play: func(req program.Request) (program.Outcome, error) {
			bias := func(s program.Seat) float64 {
				if s.Player == "fair" {
					return 0.5
				}
				return s.Params.Float("bias")
			}
			a, b := bias(req.Seats[0]), bias(req.Seats[1])
			rng := rand.New(rand.NewPCG(req.Seed, 0)) // every choice from the seed
			if rng.Float64()*(a+b) < a {
				return program.Win, nil
			}
			return program.Loss, nil
		},
	}
	session := strings.NewReader(`{"type":"hello","protocol":1}
{"type":"play","id":1,"seed":"18446744073709551615","rules":{},"seats":[{"player":"biased","params":{"bias":1}},{"player":"fair","params":{}}]}
{"type":"play","id":2,"seed":"7","rules":{},"seats":[{"player":"fair","params":{}},{"player":"biased","params":{"bias":1}}]}
{"type":"play","id":3,"seed":"7","rules":{},"seats":[{"player":"biased","params":{"bias":2}},{"player":"fair","params":{}}]}
`)
	if err := program.Serve(game, session, os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// {"type":"hello","protocol":1,"game":"coin","mode":"two-seat","options":[],"roles":["mover"],"players":[{"name":"fair","role":"mover","params":[]},{"name":"biased","role":"mover","params":[{"name":"bias","type":"float","min":0,"max":1,"default":0.5}]}]}
	// {"type":"result","id":1,"outcome":"loss"}
	// {"type":"result","id":2,"outcome":"loss"}
	// {"type":"error","id":3,"error":"seat 0 (biased): bias: 2 is outside [0, 1]"}
}
