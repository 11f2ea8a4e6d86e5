package stats

import (
	"math"
	"testing"
)

// TestTQuantile95: Student's 0.975 quantile from the table up to 30
// degrees of freedom and the Cornish-Fisher expansion above, against the
// quantile computed by integrating Student's density (to 1e-7), within
// the 1e-4 the expansion promises; infinite below one degree.
func TestTQuantile95(t *testing.T) {
	for _, tc := range []struct {
		df   int
		want float64
		tol  float64
	}{
		{1, 12.706, 0}, {2, 4.303, 0}, {29, 2.045, 0}, {30, 2.042, 0},
		{31, 2.0395134, 1e-4}, {40, 2.0210754, 1e-4}, {60, 2.0002978, 1e-4}, {120, 1.9799304, 1e-4}, {1000, 1.9623391, 1e-4},
	} {
		if got := TQuantile95(tc.df); math.Abs(got-tc.want) > tc.tol {
			t.Errorf("TQuantile95(%d) = %.7f, want %.7f within %g", tc.df, got, tc.want, tc.tol)
		}
	}
	for _, df := range []int{0, -1} {
		if got := TQuantile95(df); !math.IsInf(got, 1) {
			t.Errorf("TQuantile95(%d) = %v, want +Inf", df, got)
		}
	}
}

// TestMeanByHand: a mean, its sample standard deviation (the n-1 form)
// and Student's interval worked by hand; one value has an infinite
// interval and no spread; none, a NaN mean.
func TestMeanByHand(t *testing.T) {
	xs := []float64{2, 4, 4, 4, 5, 5, 7, 9} // mean 5, squares about it 32
	m, sd := MeanSD(xs)
	if m != 5 || math.Abs(sd-math.Sqrt(32.0/7)) > 1e-15 {
		t.Fatalf("MeanSD: %v, %v; want 5, sqrt(32/7)", m, sd)
	}
	e := Mean(xs)
	half := 2.365 * math.Sqrt(32.0/7) / math.Sqrt(8)
	if e.Value != 5 || e.N != 8 || math.Abs(e.CI95[0]-(5-half)) > 1e-12 || math.Abs(e.CI95[1]-(5+half)) > 1e-12 {
		t.Fatalf("Mean: %+v; want 5 +- %v over 8", e, half)
	}
	if m, sd := MeanSD([]float64{3}); m != 3 || sd != 0 {
		t.Fatalf("one value: %v, %v", m, sd)
	}
	if e := Mean([]float64{3}); e.Value != 3 || e.N != 1 || !math.IsInf(e.CI95[0], -1) || !math.IsInf(e.CI95[1], 1) {
		t.Fatalf("one value: %+v", e)
	}
	if e := Mean(nil); !math.IsNaN(e.Value) || e.N != 0 {
		t.Fatalf("no value: %+v", e)
	}
	d := PairedDifference([]float64{3, 5, 9}, []float64{1, 2, 3}) // 2, 3, 6: mean 11/3
	if math.Abs(d.Value-11.0/3) > 1e-15 || d.N != 3 {
		t.Fatalf("PairedDifference: %+v", d)
	}
	// An interval holds its ends.
	if !e.Contains(5) || !(Estimate{CI95: [2]float64{1, 2}}).Contains(1) || !(Estimate{CI95: [2]float64{1, 2}}).Contains(2) ||
		(Estimate{CI95: [2]float64{1, 2}}).Contains(math.Nextafter(2, 3)) || (Estimate{CI95: [2]float64{1, 2}}).Contains(math.Nextafter(1, 0)) {
		t.Fatal("Contains at the interval's ends")
	}
}

// TestWilsonByHand: Wilson's interval for 8 of 10, worked by hand, and
// its ends at 0 and 1 and for no games.
func TestWilsonByHand(t *testing.T) {
	z := Z95
	n, p := 10.0, 0.8
	centre := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	got := Wilson(p, 10)
	if math.Abs(got[0]-(centre-half)) > 1e-15 || math.Abs(got[1]-(centre+half)) > 1e-15 {
		t.Fatalf("Wilson(0.8, 10) = %v, want [%v, %v]", got, centre-half, centre+half)
	}
	// 0.8 of 10 by hand: [0.4902, 0.9433].
	if math.Abs(got[0]-0.4902) > 1e-4 || math.Abs(got[1]-0.9433) > 1e-4 {
		t.Fatalf("Wilson(0.8, 10) = %v, want about [0.4902, 0.9433]", got)
	}
	if w := Wilson(1, 5); w[1] != 1 || !(w[0] > 0.5 && w[0] < 1) {
		t.Fatalf("Wilson(1, 5) = %v", w)
	}
	if w := Wilson(0, 5); w[0] != 0 || !(w[1] > 0 && w[1] < 0.5) {
		t.Fatalf("Wilson(0, 5) = %v", w)
	}
	if w := Wilson(0.5, 0); w != [2]float64{0, 1} {
		t.Fatalf("Wilson of no games = %v", w)
	}
}
