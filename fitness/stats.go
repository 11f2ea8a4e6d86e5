package fitness

import (
	"math"
	"slices"
)

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

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
	half := math.Inf(1)
	if n > 1 {
		half = tQuantile95(n-1) * sd / math.Sqrt(float64(n))
	}
	return Summary{N: n, Mean: mean, Median: median, SD: sd, CI95: [2]float64{mean - half, mean + half}}
}

// MeanSD returns the mean of xs and their sample standard deviation (the
// n-1 form), 0 for fewer than two values; the mean of no values is NaN.
// The engine's generation history and Summarize share it, so a run's
// figures and an evaluation's agree to the last bit.
func MeanSD(xs []float64) (mean, sd float64) {
	n := len(xs)
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean = sum / float64(n)
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if n > 1 {
		sd = math.Sqrt(ss / float64(n-1))
	}
	return mean, sd
}

// tQuantile95 is the 0.975 quantile of Student's t with df degrees of freedom.
func tQuantile95(df int) float64 {
	table := [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < len(table) {
		return table[df]
	}
	// Cornish-Fisher expansion: within 1e-4 of the exact value for df > 30.
	z := z95
	d := float64(df)
	return z + (z*z*z+z)/(4*d) + (5*z*z*z*z*z+16*z*z*z+3*z)/(96*d*d)
}

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

// CI95 is the Wilson score interval of Score. With draws the per-game
// variance is below p(1-p), so the interval is conservative; unlike the
// normal interval it never collapses to a point at 0 or 1 (100-0 still
// says how sure 100 games make us).
func (t Tally) CI95() [2]float64 {
	n := float64(t.Games())
	if n == 0 {
		return [2]float64{0, 1}
	}
	p := t.Score()
	z2 := z95 * z95
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := z95 / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return [2]float64{max(0, centre-half), min(1, centre+half)}
}
