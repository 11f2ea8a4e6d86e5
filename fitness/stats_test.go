package fitness_test

import (
	"math"
	"testing"

	"github.com/evotune/evotune/fitness"
)

func TestMeanSD(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		mean, sd float64
	}{
		{"one value has no spread", []float64{3}, 3, 0},
		{"sample form divides by n-1", []float64{1, 3}, 2, math.Sqrt2},
		{"three values", []float64{5, 1, 3}, 3, 2},
		{"constant", []float64{4, 4, 4, 4}, 4, 0},
		{"negative values", []float64{-2, -4, -6}, -4, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mean, sd := fitness.MeanSD(tc.xs)
			if math.Abs(mean-tc.mean) > 1e-12 || math.Abs(sd-tc.sd) > 1e-12 {
				t.Errorf("MeanSD(%v) = %v, %v, want %v, %v", tc.xs, mean, sd, tc.mean, tc.sd)
			}
			// Summarize reports the same figures, bit for bit.
			if s := fitness.Summarize(tc.xs); s.Mean != mean || s.SD != sd {
				t.Errorf("Summarize = %v, %v, MeanSD = %v, %v", s.Mean, s.SD, mean, sd)
			}
		})
	}
}
