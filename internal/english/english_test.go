package english

import (
	"math"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"one", Count(1, "worker"), "1 worker"},
		{"none", Count(0, "worker"), "0 workers"},
		{"many", Count(12, "generation"), "12 generations"},
		{"minus one", Count(-1, "game"), "-1 game"},
		{"es after ch", Count(2, "batch"), "2 batches"},
		{"es after s", Count(3, "loss"), "3 losses"},
		{"es after x", Count(2, "box"), "2 boxes"},
		{"one batch", Count(1, "batch"), "1 batch"},
		{"int64", Count(int64(1), "batch"), "1 batch"},
		{"largest uint64", Count(uint64(math.MaxUint64), "game"), "18446744073709551615 games"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("%q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestThousandsAndDuration(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"small", Thousands(999), "999"},
		{"thousand", Thousands(1000), "1,000"},
		{"million", Thousands(int64(1048576)), "1,048,576"},
		{"negative", Thousands(-20000), "-20,000"},
		{"zero", Thousands(0), "0"},
		{"no time", Duration(0), "0 s"},
		{"a fraction of a second", Duration(350 * time.Millisecond), "0.4 s"},
		{"seconds", Duration(21400 * time.Millisecond), "21 s"},
		{"just under two minutes", Duration(119 * time.Second), "119 s"},
		{"minutes", Duration(210 * time.Second), "3.5 min"},
		{"ninety minutes", Duration(90 * time.Minute), "90 min"},
		{"hours", Duration(14*time.Hour + 10*time.Minute), "14 h"},
		{"days", Duration(60 * time.Hour), "2.5 days"},
		{"years", Duration(400 * 24 * time.Hour), "400 days"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("%q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"one", "one"},
		{"a\nb", "a; b"},
		{"a\r\nb\rc\n", "a; b; c; "},
		{"", ""},
	} {
		if got := OneLine(tc.in); got != tc.want {
			t.Errorf("OneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOr(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		if got := Or(tc.in); got != tc.want {
			t.Errorf("Or(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestInterval: a figure and its interval share one precision, two
// significant digits of the half width; a difference is signed.
func TestInterval(t *testing.T) {
	for _, tc := range []struct {
		v      float64
		ci     [2]float64
		signed bool
		want   string
	}{
		{44.2834, [2]float64{44.1123, 44.4545}, false, "44.28 [44.11, 44.45]"},
		{0.5, [2]float64{0.4873, 0.5127}, false, "0.500 [0.487, 0.513]"},
		{0.5, [2]float64{0.5, 0.5}, false, "0.50 [0.50, 0.50]"},
		{-0.6123, [2]float64{-0.8412, -0.3734}, true, "-0.61 [-0.84, -0.37]"},
		{0, [2]float64{0, 0}, true, "+0.00 [+0.00, +0.00]"},
		{1234.5, [2]float64{1100, 1369}, false, "1234 [1100, 1369]"},
		{3e-5, [2]float64{1e-5, 5e-5}, false, "0.000030 [0.000010, 0.000050]"},
	} {
		if got := Interval(tc.v, tc.ci, tc.signed); got != tc.want {
			t.Errorf("Interval(%v, %v, %v) = %q, want %q", tc.v, tc.ci, tc.signed, got, tc.want)
		}
	}
}
