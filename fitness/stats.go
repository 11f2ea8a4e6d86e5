package fitness

import (
	"math"
	"slices"

	"github.com/evotune/evotune/fitness/stats"
)

// Summary describes a sample of costs (Battleship shots, say).
type Summary struct {
	N      int        `json:"n"`
	Mean   float64    `json:"mean"`
	Median float64    `json:"median"`
	SD     float64    `json:"sd"`
	CI95   [2]float64 `json:"ci95"` // 95% interval of the mean
}

// Summarize computes the summary of xs. The interval is mean +- t*sd/sqrt(n)
// with Student's t quantile, so it stays honest for small samples.
func Summarize(xs []float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{}
	}
	mean, sd := MeanSD(xs)
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	median := sorted[n/2]
	if n%2 == 0 {
		median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return Summary{N: n, Mean: mean, Median: median, SD: sd, CI95: stats.Mean(xs).CI95}
}

// MeanSD returns the mean of xs and their sample standard deviation (the
// n-1 form), 0 for fewer than two values; the mean of no values is NaN.
// The engine's generation history and Summarize share it, so a run's
// figures and an evaluation's agree to the last bit.
func MeanSD(xs []float64) (mean, sd float64) { return stats.MeanSD(xs) }

// Tally counts the outcomes of a series of games, seen from one player.
type Tally struct {
	Wins, Draws, Losses int
}

// Add counts one outcome.
func (t *Tally) Add(o Outcome) {
	switch o {
	case Win:
		t.Wins++
	case Draw:
		t.Draws++
	default:
		t.Losses++
	}
}

// Merge adds another tally.
func (t *Tally) Merge(u Tally) {
	t.Wins += u.Wins
	t.Draws += u.Draws
	t.Losses += u.Losses
}

// Games is the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Score is the mean score: win 1, draw 1/2, loss 0. NaN with no games.
func (t Tally) Score() float64 {
	n := t.Games()
	if n == 0 {
		return math.NaN()
	}
	return (float64(t.Wins) + float64(t.Draws)/2) / float64(n)
}

// CI95 is the Wilson score interval of Score (stats.Wilson): for games
// scored one at a time. Games played in seat-swapped pairs have the
// pentanomial interval instead (stats.Pentanomial).
func (t Tally) CI95() [2]float64 { return stats.Wilson(t.Score(), t.Games()) }
