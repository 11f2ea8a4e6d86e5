// Package english words evotune's messages and logs: counts ("1
// worker", not "1 workers") and multi-line errors folded onto one line.
package english

import (
	"strconv"
	"strings"
)

// Count is n and noun, the noun in the plural unless n is 1 or -1: with
// "es" after s, x, z, ch and sh ("2 batches"), else with "s".
func Count[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T, noun string) string {
	s := strconv.FormatUint(uint64(n), 10)
	if n < 0 {
		s = strconv.FormatInt(int64(n), 10)
	}
	if s == "1" || s == "-1" {
		return s + " " + noun
	}
	return s + " " + Plural(noun)
}

// Plural is noun in the plural, for the regular nouns evotune counts.
func Plural(noun string) string {
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	return noun + "s"
}

// OneLine folds a message of several lines (errors.Join's, a program's)
// onto one: each line break becomes "; ".
func OneLine(s string) string {
	return strings.NewReplacer("\r\n", "; ", "\n", "; ", "\r", "; ").Replace(s)
}

// Or lists words for a message: "a", "a or b", "a, b or c".
func Or(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
