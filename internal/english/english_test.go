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
