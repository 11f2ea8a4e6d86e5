package cli

import (
	"fmt"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/internal/plot"
)

// seriesSVG draws eval --series's learning curves: each player's mean
// measure by game of the series, with its 95% interval as a band.
func seriesSVG(rep fitness.SeriesReport) []byte {
	c := plot.Curves{Title: fmt.Sprintf("%s: mean %s by game of the series (%d series of %d, seed %d)", rep.Game, rep.Measure, rep.Series, rep.Length, rep.Seed),
		First: "game 1", Steps: rep.Length}
	for _, p := range rep.Players {
		l := plot.Curve{Legend: fmt.Sprintf("%s: %.3f over all games", p.Name, p.Overall.Mean)}
		for _, s := range p.ByGame {
			l.Y, l.Lo, l.Hi = append(l.Y, s.Mean), append(l.Lo, s.CI95[0]), append(l.Hi, s.CI95[1])
		}
		c.Lines = append(c.Lines, l)
	}
	return c.SVG()
}
