package battleship

import (
	"context"

	"github.com/evotune/evotune/fitness"
)

// mustSolo is mustPlay for solo games.
func mustSolo(g fitness.SoloGame, p, opp fitness.Player, seed uint64) float64 {
	cost, err := g.PlaySolo(context.Background(), p, opp, seed)
	if err != nil {
		panic(err)
	}
	return cost
}
