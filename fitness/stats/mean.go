package stats

import "math"

// Z95 is the two-sided 95% quantile of the standard normal distribution.
const Z95 = 1.959963984540054

// Estimate is a figure with its 95% interval and the sample it comes
// from: N observations (deals, or game pairs).
type Estimate struct {
	Value float64    `json:"value"`
	CI95  [2]float64 `json:"ci95"`
	N     int        `json:"n"`
}

// Contains reports whether x lies in the interval.
func (e Estimate) Contains(x float64) bool { return e.CI95[0] <= x && x <= e.CI95[1] }

// MeanSD returns the mean of xs and their sample standard deviation (the
// n-1 form), 0 for fewer than two values; the mean of no values is NaN.
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

// Mean is the mean of xs with Student's t interval, mean +- t * sd /
// sqrt(n): honest for small samples. One value has an infinite interval;
// none has a NaN value.
func Mean(xs []float64) Estimate {
	n := len(xs)
	if n == 0 {
		return Estimate{Value: math.NaN(), CI95: [2]float64{math.Inf(-1), math.Inf(1)}}
	}
	mean, sd := MeanSD(xs)
	half := math.Inf(1)
	if n > 1 {
		half = TQuantile95(n-1) * sd / math.Sqrt(float64(n))
	}
	return Estimate{Value: mean, CI95: [2]float64{mean - half, mean + half}, N: n}
}

// PairedDifference is the mean of x[i] - y[i] with Student's t interval
// from the variance of the differences: the comparison of two players
// measured on the same deals, where the deals' common luck cancels. It
// panics if the lengths differ (a programmer's error).
func PairedDifference(x, y []float64) Estimate {
	if len(x) != len(y) {
		panic("stats: paired samples of different lengths")
	}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	return Mean(d)
}

// TQuantile95 is the 0.975 quantile of Student's t with df degrees of
// freedom: exact to three decimals up to 30, the Cornish-Fisher expansion
// (within 1e-4) above.
func TQuantile95(df int) float64 {
	table := [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < 1 {
		return math.Inf(1)
	}
	if df < len(table) {
		return table[df]
	}
	z := Z95
	d := float64(df)
	return z + (z*z*z+z)/(4*d) + (5*z*z*z*z*z+16*z*z*z+3*z)/(96*d*d)
}

// Wilson is the Wilson score interval of a mean score p over n games
// scored one at a time: the interval for games that are not paired. With
// draws the per-game variance is below p(1-p), so it is conservative;
// unlike the normal interval it never collapses to a point at 0 or 1.
func Wilson(p float64, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	nf := float64(n)
	z2 := Z95 * Z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := Z95 / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return [2]float64{max(0, centre-half), min(1, centre+half)}
}
