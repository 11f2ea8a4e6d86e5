package main

import (
	"math"
	"testing"
)

// TestQuantiles: the median and quartiles of a list, infinite entries (a
// run that never reached its target) included.
func TestQuantiles(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		xs            []float64
		med, lo, high float64
	}{
		{[]float64{3, 1, 2, 5, 4}, 3, 2, 4},
		{[]float64{8000, inf, 16000, inf, inf}, inf, 16000, inf},
		{[]float64{8000, 8000, 16000, inf, inf}, 16000, 8000, inf},
		{[]float64{1, 2, 3, 4}, 2.5, 1.75, 3.25},
	} {
		med, lo, hi := quantiles(tc.xs)
		if med != tc.med || lo != tc.lo || hi != tc.high {
			t.Errorf("quantiles(%v) = %v, %v, %v; want %v, %v, %v", tc.xs, med, lo, hi, tc.med, tc.lo, tc.high)
		}
	}
}
