package config

import (
	"fmt"
	"testing"
)

func TestParseObjective(t *testing.T) {
	tests := []struct {
		s, measure string
		want       Objective
		err        string
	}{
		{"score", "shots", Score, ""},
		{"shots", "shots", Solo, ""},
		{"score", "", Score, ""},
		{"shots", "", 0, `unknown objective "shots" (want score)`},
		{"wins", "shots", 0, `unknown objective "wins" (want shots or score)`},
		{"", "shots", 0, `unknown objective "" (want shots or score)`},
	}
	for _, tc := range tests {
		got, err := ParseObjective(tc.s, tc.measure)
		if got != tc.want || fmt.Sprint(err) != map[bool]string{true: "<nil>", false: tc.err}[tc.err == ""] {
			t.Errorf("ParseObjective(%q, %q) = %v, %v; want %v, %q", tc.s, tc.measure, got, err, tc.want, tc.err)
		}
	}
}

// TestRatingModelNames: the rating models' names, and an unknown one's.
func TestRatingModelNames(t *testing.T) {
	for _, tc := range []struct {
		m    RatingModel
		want string
	}{{MeanScore, "mean"}, {BradleyTerry, "bradley-terry"}, {RatingModel(2), "RatingModel(2)"}, {RatingModel(200), "RatingModel(200)"}} {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%d: %q, want %q", uint8(tc.m), got, tc.want)
		}
		if tc.m <= BradleyTerry {
			if back, err := ParseRatingModel(tc.want); err != nil || back != tc.m {
				t.Errorf("ParseRatingModel(%q) = %v, %v", tc.want, back, err)
			}
		}
	}
}
