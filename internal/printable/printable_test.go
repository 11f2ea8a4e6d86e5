package printable

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, with \\ and ünïcödé ♠", "plain text, with \\ and ünïcödé ♠"},
		{"\x1b[2J\x1b]0;pwned\x07", `\x1b[2J\x1b]0;pwned\x07`},
		{"two\nlines\r\tand a tab", `two\nlines\r\tand a tab`},
		{"del \x7f, c1 \u0085 \u009b", `del \x7f, c1 \u0085 \u009b`},
		{"bidi \u202eevil\u202c", `bidi \u202eevil\u202c`},
		{"bad utf-8 \xff\xfe", `bad utf-8 \xff\xfe`},
		{"a real U+FFFD \uFFFD stays", "a real U+FFFD \uFFFD stays"},
		{"", ""},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := Escape(Escape(tc.in)); again != Escape(tc.in) {
			t.Errorf("Escape is not idempotent on %q: %q", tc.in, again)
		}
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("\x1b[31mred\x1b[0m")
	f.Add("\u202e\xff\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Escape(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("Escape(%q) = %q holds %U", s, out, r)
			}
		}
		if Escape(out) != out {
			t.Fatalf("Escape is not idempotent on %q", s)
		}
	})
}

// TestLineKeepsTabs: a program's line keeps its tabs and nothing else
// that Escape escapes.
func TestLineKeepsTabs(t *testing.T) {
	for in, want := range map[string]string{
		"goroutine 1:\n\tmain.go:3": `goroutine 1:\n` + "\tmain.go:3",
		"a\tb\x1b[2J":               "a\tb\\x1b[2J",
		"\t\u202e":                  "\t\\u202e",
	} {
		if got := Line(in); got != want || Line(got) != got {
			t.Errorf("Line(%q) = %q, want %q (and unchanged again)", in, got, want)
		}
	}
}
