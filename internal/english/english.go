// Package english words evotune's messages and logs: counts ("1
// worker", not "1 workers"), large counts with their thousands separated,
// rough durations in the unit that reads best, a figure and its interval
// to one precision, and multi-line errors folded onto one line.
package english

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
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

// Thousands writes n with its thousands separated by commas: 1,048,576.
func Thousands[T ~int | ~int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Duration writes d as people read a rough figure: two significant
// digits or whole units, in seconds, minutes, hours or days (0.4 s,
// 21 s, 3.5 min, 14 h, 2.5 days).
func Duration(d time.Duration) string {
	units := []struct {
		name string
		size time.Duration
	}{{"days", 24 * time.Hour}, {"h", time.Hour}, {"min", time.Minute}, {"s", time.Second}}
	for i, u := range units {
		// Each unit from twice the next larger one's size down, so that
		// 90 minutes is 90 min, not 1.5 h, and 36 hours 36 h.
		if i < len(units)-1 && d < 2*u.size {
			continue
		}
		v := d.Seconds() / u.size.Seconds()
		switch {
		case v >= 9.95:
			return strconv.FormatFloat(math.Round(v), 'f', -1, 64) + " " + u.name
		default:
			return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) + " " + u.name
		}
	}
	return "0 s"
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

// Interval is a figure and its 95% interval to one precision: two
// significant digits of the interval's half width (the digits beyond
// those are noise), two decimals for an interval of no width; signed
// for a difference: -0.61 [-0.84, -0.37].
func Interval(v float64, ci [2]float64, signed bool) string {
	d := 2
	if hw := (ci[1] - ci[0]) / 2; hw > 0 && !math.IsInf(hw, 0) {
		d = min(max(1-int(math.Floor(math.Log10(hw))), 0), 6)
	}
	if signed {
		return fmt.Sprintf("%+.*f [%+.*f, %+.*f]", d, v, d, ci[0], d, ci[1])
	}
	return fmt.Sprintf("%.*f [%.*f, %.*f]", d, v, d, ci[0], d, ci[1])
}
