package engine

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/evotune/evotune/fitness"
)

func sqrt(x float64) float64 { return math.Sqrt(x) }

// GenStats is one row of generations.csv.
type GenStats struct {
	Generation int     `json:"generation"` // counted from 1
	Best       float64 `json:"best"`       // the generation's best fitness
	Mean       float64 `json:"mean"`
	SD         float64 `json:"sd"`
	Games      int     `json:"games"`           // games played in the generation
	Saved      int     `json:"saved,omitempty"` // games racing did not play
	// BestGenes is the genome of the run's best after the generation (the
	// hall of fame's first), for report.svg's knob picture.
	BestGenes []float64 `json:"best_genes,omitempty"`
	// Faults counts the generation's games lost to faults by players
	// that are processes (UCI engines, bots), by player and kind; on the
	// main species' row, absent where there were none.
	Faults FaultCounts `json:"faults,omitempty"`
}

func (r *runner) stats(gen int, sorted []Member, games int) GenStats {
	fit := make([]float64, len(sorted))
	for i, m := range sorted {
		fit[i] = m.Fitness
	}
	mean, sd := fitness.MeanSD(fit)
	return GenStats{Generation: gen + 1, Best: sorted[0].Fitness, Mean: mean, SD: sd, Games: games}
}

// csv renders the history; numbers in Go's shortest exact form, so a
// resumed run writes the same bytes.
func historyCSV(h []GenStats) []byte {
	var b bytes.Buffer
	b.WriteString("generation,best,mean,sd,games\n")
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
	for _, s := range h {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%d\n", s.Generation, f(s.Best), f(s.Mean), f(s.SD), s.Games)
	}
	return b.Bytes()
}
