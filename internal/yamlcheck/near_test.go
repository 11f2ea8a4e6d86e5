package yamlcheck

import (
	"slices"
	"testing"
)

// TestNearest: a misspelt key gets the known keys nearest to it, as a
// misspelt command gets "did you mean"; a key near none gets none (the
// caller then lists them all).
func TestNearest(t *testing.T) {
	known := []string{"elitism", "generations", "model", "mutation", "mutation-rate", "population", "seed", "seeds"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"populaton", []string{"population"}},    // a letter left out
		{"genreations", []string{"generations"}}, // two letters swapped
		{"Elitism", []string{"elitism"}},         // case
		{"mutaton-rates", []string{"mutation-rate"}},
		{"sed", []string{"seed"}},
		{"seedz", []string{"seed", "seeds"}}, // as near as each other
		{"modle", []string{"model"}},
		{"mdoel", []string{"model"}},
		{"moddle", []string{"model"}},
		{"mdole", nil},  // two edits from model: too far for five letters
		{"colour", nil}, // near nothing
		{"populations", []string{"population"}},
		{"", nil},
		{"sd", nil}, // one edit from nothing here, but two letters are too few to tell
		{"z", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Nearest(tc.name, known); !slices.Equal(got, tc.want) {
				t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}
