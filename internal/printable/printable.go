// Package printable escapes text that evotune did not write (a program's
// stderr lines and summaries, a worker's failure report, anything read
// from the network) before it reaches a terminal or a log: such text may
// carry escape sequences that move the cursor, retitle the window, hide
// what follows, or reorder what is shown (bidirectional overrides).
package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every control character (C0, DEL, C1, newlines
// and tabs included), every invisible format character (such as the
// bidirectional overrides) and every byte that is not UTF-8 written as a
// Go escape: \n, \t, \x1b, \u202e, \xff. The rest, backslashes included,
// is kept as it is, so Escape(Escape(s)) == Escape(s): text escaped where
// it entered may be escaped again where it is printed.
func Escape(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafe reports whether r is a control or an invisible format character.
func unsafe(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// clean reports whether s needs no escaping.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || unsafe(r) }) && utf8.ValidString(s)
		}
	}
	return true
}

// Line is Escape for a line of a program's output, which keeps its tabs:
// a tab moves nothing but the cursor along the line, and a Go stack
// trace indents with them.
func Line(s string) string {
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		parts[i] = Escape(p)
	}
	return strings.Join(parts, "\t")
}
