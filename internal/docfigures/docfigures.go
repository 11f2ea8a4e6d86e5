// Package docfigures holds the documentation's figures to the commands
// that produce them. A figure a page quotes sits in a block that names
// its commands:
//
//	<!-- figures (release): evotune eval battleship --player over9000 --games 20000 --seed 101 -->
//	... the text, table or output that quotes the figures ...
//	<!-- /figures -->
//
// The opening comment may name several commands, one a line after
// "figures (TIER):", and options on lines of their own: "within 20%"
// (figures that move from run to run, such as CPU time: each must lie
// within 20% of one the commands print) and "skip: 100 20" (numbers of
// the text that are not figures: a rule, a count the text chose). The
// tier says when the block is checked: ci (every go test: cheap
// commands), release (.ci/doc-figures, before a release: whole runs of
// the shipped configs) or long (.ci/doc-figures --long: hours of
// benchmarks).
//
// Check finds every figure of a block among the numbers its commands
// printed: a number with a decimal point, a signed one, or one of 10 or
// more (small counts in prose are not checked), each matched at the
// precision the page writes it (44.3 matches 44.319), unless the block
// allows a tolerance. Numbers glued to letters are not figures (9x9x5,
// H0, 1m39.7s, n=1.0k's 1.0k): durations of wall time are left out that
// way.
package docfigures

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Tier is when a block is checked.
type Tier int

// The tiers, cheapest first.
const (
	CI      Tier = iota // every go test
	Release             // .ci/doc-figures, before a release
	Long                // .ci/doc-figures --long
)

var tierNames = []string{"ci", "release", "long"}

func (t Tier) String() string { return tierNames[t] }

// ParseTier reads a tier's name.
func ParseTier(s string) (Tier, error) {
	if i := slices.Index(tierNames, s); i >= 0 {
		return Tier(i), nil
	}
	return 0, fmt.Errorf("docfigures: tier %q: want %s", s, strings.Join(tierNames, ", "))
}

// Block is the text between a figures comment and its end.
type Block struct {
	File     string
	Line     int // of the opening comment, from 1
	Tier     Tier
	Commands []string
	Within   float64  // relative tolerance; 0: at the page's precision
	Skip     []string // numbers of the text that are not figures
	Text     string
}

func (b Block) String() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

var (
	open  = regexp.MustCompile(`^<!-- figures \((\w+)\):(.*)$`)
	close = "<!-- /figures -->"
)

// Parse finds the figure blocks of a markdown file; a block left open,
// a tier or option it does not know, or a block that names no command
// is an error naming its line.
func Parse(file, text string) ([]Block, error) {
	var blocks []Block
	var errs []error
	lines := strings.Split(text, "\n")
	inFence := false // a marker in a code block is shown, not meant
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if inFence {
			continue
		}
		if line == close {
			errs = append(errs, fmt.Errorf("%s:%d: %s without a block", file, i+1, close))
			continue
		}
		m := open.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, "<!-- figures") {
				errs = append(errs, fmt.Errorf("%s:%d: want <!-- figures (TIER): COMMAND -->", file, i+1))
			}
			continue
		}
		b := Block{File: file, Line: i + 1}
		tier, err := ParseTier(m[1])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", file, i+1, err))
		}
		b.Tier = tier
		// The comment: its first line's rest, then lines up to -->.
		head := []string{m[2]}
		for !strings.HasSuffix(strings.TrimSpace(head[len(head)-1]), "-->") {
			i++
			if i == len(lines) {
				errs = append(errs, fmt.Errorf("%s:%d: the figures comment is not closed with -->", file, b.Line))
				return blocks, errors.Join(errs...)
			}
			head = append(head, lines[i])
		}
		last := len(head) - 1
		head[last] = strings.TrimSuffix(strings.TrimSpace(head[last]), "-->")
		for _, h := range head {
			h = strings.TrimSpace(h)
			switch {
			case h == "":
			case strings.HasPrefix(h, "within "):
				p, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(h, "within "), "%"), 64)
				if err != nil || p <= 0 || !strings.HasSuffix(h, "%") {
					errs = append(errs, fmt.Errorf("%s:%d: %q: want within N%%", file, b.Line, h))
				}
				b.Within = p / 100
			case strings.HasPrefix(h, "skip:"):
				b.Skip = append(b.Skip, strings.Fields(strings.TrimPrefix(h, "skip:"))...)
			default:
				b.Commands = append(b.Commands, h)
			}
		}
		if len(b.Commands) == 0 {
			errs = append(errs, fmt.Errorf("%s:%d: a figures block names no command", file, b.Line))
		}
		var body []string
		bodyFence := false
		for i++; i < len(lines) && (bodyFence || strings.TrimSpace(lines[i]) != close); i++ {
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
				bodyFence = !bodyFence
			}
			if !bodyFence && open.MatchString(strings.TrimSpace(lines[i])) {
				errs = append(errs, fmt.Errorf("%s:%d: a figures block inside another (line %d)", file, i+1, b.Line))
			}
			body = append(body, lines[i])
		}
		if i == len(lines) {
			errs = append(errs, fmt.Errorf("%s:%d: the figures block is not closed (%s)", file, b.Line, close))
		}
		b.Text = strings.Join(body, "\n")
		blocks = append(blocks, b)
	}
	return blocks, errors.Join(errs...)
}

// inlineCode is a code span of markdown: a command or a key, not prose.
var inlineCode = regexp.MustCompile("`[^`]*`")

// number is a number as a page or a command writes it.
var number = regexp.MustCompile(`[-+−]?\d+(?:,\d{3})*(?:\.\d+)?`)

// figure is a number of a page's text: its value and how many decimals
// it was written with.
type figure struct {
	text     string
	value    float64
	decimals int
}

// figures are the numbers of text that are figures: not glued to a
// letter, digit or point (9x9x5, H0, go1.26, 1m39.7s), and with a
// decimal point, a sign, or a value of 10 or more.
func figures(text string, all bool) []figure {
	var out []figure
	for _, loc := range number.FindAllStringIndex(text, -1) {
		s := text[loc[0]:loc[1]]
		if !all {
			before, after := lastRune(text[:loc[0]]), firstRune(text[loc[1]:])
			if isWordRune(before) || before == '.' || isWordRune(after) || after == '.' && len(text) > loc[1]+1 && isDigit(rune(text[loc[1]+1])) {
				continue
			}
		}
		f, ok := parseFigure(s)
		if !ok {
			continue
		}
		if !all && !strings.Contains(s, ".") && !strings.ContainsAny(s[:1], "+-−") && math.Abs(f.value) < 10 {
			continue
		}
		out = append(out, f)
	}
	return out
}

func parseFigure(s string) (figure, bool) {
	clean := strings.ReplaceAll(strings.ReplaceAll(s, ",", ""), "−", "-")
	v, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		return figure{}, false
	}
	d := 0
	if _, frac, ok := strings.Cut(clean, "."); ok {
		d = len(frac)
	}
	return figure{text: s, value: v, decimals: d}, true
}

func lastRune(s string) rune {
	if s == "" {
		return ' '
	}
	r := []rune(s)
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return ' '
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// Check returns the figures of b's text that none of the outputs of its
// commands gives, each as a problem; the commands themselves count as
// output (a seed or a count they name is no figure to look for).
func Check(b Block, outputs []string) []string {
	var printed []figure
	for _, o := range append(slices.Clone(outputs), b.Commands...) {
		printed = append(printed, figures(o, true)...)
	}
	var problems []string
	for _, f := range figures(b.Text, false) {
		if slices.Contains(b.Skip, f.text) {
			continue
		}
		if !slices.ContainsFunc(printed, func(p figure) bool { return matches(f, p.value, b.Within) }) {
			problems = append(problems, fmt.Sprintf("%s: %s is not what %s prints", b, f.text, commandsText(b.Commands)))
		}
	}
	return problems
}

// matches says the page's figure f is x as the page writes it: x rounded
// to f's decimals (half a unit either way, for the rounding of ties), or
// within a relative tolerance.
func matches(f figure, x, within float64) bool {
	if within > 0 {
		return math.Abs(x-f.value) <= within*math.Abs(f.value)
	}
	unit := math.Pow(10, -float64(f.decimals))
	return math.Abs(x-f.value) <= unit/2*(1+1e-9)
}

func commandsText(cmds []string) string {
	if len(cmds) == 1 {
		return cmds[0]
	}
	return strings.Join(cmds[:len(cmds)-1], ", ") + " or " + cmds[len(cmds)-1]
}

// Unmarked returns the figures of text that lie in no figures block and
// no fenced code block: a number with a decimal point written in prose,
// which the lint of a page whose every figure names its command refuses.
// allow lists numbers that are no figures (a Go version).
func Unmarked(text string, allow []string) []string {
	var out []string
	inBlock, inFence := false, false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			inFence = !inFence
			continue
		case inFence:
			continue
		case open.MatchString(t):
			inBlock = true
			continue
		case t == close:
			inBlock = false
			continue
		case inBlock:
			continue
		}
		for _, f := range figures(inlineCode.ReplaceAllString(line, ""), false) {
			if strings.Contains(f.text, ".") && !slices.Contains(allow, f.text) {
				out = append(out, f.text)
			}
		}
	}
	return out
}
