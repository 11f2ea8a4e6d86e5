package docfigures

import (
	"slices"
	"strings"
	"testing"
)

const page = "# A page\n\nProse with 1.5 in it.\n\n" +
	"```text\n<!-- figures (ci): a marker shown in a code block -->\n<!-- /figures -->\n```\n\n" +
	"<!-- figures (release): evotune eval battleship --player over9000 --games 20000 --seed 101 -->\n" +
	"over9000 needs 44.89 [44.77, 45.02] shots on 20,000 fleets, seed 101 (3 shots\n" +
	"fewer than random); ETA 1m48s, n=1.0k, 9x9x5, H0.\n" +
	"<!-- /figures -->\n\n" +
	"<!-- figures (ci):\nevotune games mnk\nevotune perft mnk --depth 3\nwithin 10%\nskip: 100 64\n-->\n" +
	"a table: 504 | 0.75 | 100 points | 64 cells\n" +
	"<!-- /figures -->\n"

// TestParse: a page's blocks with their tier, commands, options and
// text; the figures of prose outside them.
func TestParse(t *testing.T) {
	blocks, err := Parse("p.md", page)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("%d blocks, want 2", len(blocks))
	}
	a, b := blocks[0], blocks[1]
	if a.Line != 10 || a.Tier != Release || !slices.Equal(a.Commands, []string{"evotune eval battleship --player over9000 --games 20000 --seed 101"}) ||
		!strings.HasPrefix(a.Text, "over9000 needs") || a.Within != 0 {
		t.Errorf("first block %+v", a)
	}
	if b.Tier != CI || len(b.Commands) != 2 || b.Within != 0.1 || !slices.Equal(b.Skip, []string{"100", "64"}) || b.Text != "a table: 504 | 0.75 | 100 points | 64 cells" {
		t.Errorf("second block %+v", b)
	}
	if got := Unmarked(page, nil); !slices.Equal(got, []string{"1.5"}) {
		t.Errorf("unmarked figures %q, want 1.5", got)
	}
	if got := Unmarked(page, []string{"1.5"}); len(got) != 0 {
		t.Errorf("an allowed number is unmarked: %q", got)
	}
}

// TestParseRefuses: every malformed block is an error naming its line.
func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unclosed block", "<!-- figures (ci): evotune games -->\ntext\n", "p.md:1: the figures block is not closed"},
		{"unclosed comment", "<!-- figures (ci):\nevotune games\n", "p.md:1: the figures comment is not closed"},
		{"unknown tier", "<!-- figures (nightly): evotune games -->\n<!-- /figures -->\n", `p.md:1: docfigures: tier "nightly"`},
		{"no command", "<!-- figures (ci): -->\n<!-- /figures -->\n", "p.md:1: a figures block names no command"},
		{"bad tolerance", "<!-- figures (ci): evotune games\nwithin ten -->\n<!-- /figures -->\n", `p.md:1: "within ten"`},
		{"end alone", "text\n<!-- /figures -->\n", "p.md:2: <!-- /figures --> without a block"},
		{"misspelt", "<!-- figures: evotune games -->\n", "p.md:1: want <!-- figures (TIER): COMMAND -->"},
		{"nested", "<!-- figures (ci): a -->\n<!-- figures (ci): b -->\n<!-- /figures -->\n", "p.md:2: a figures block inside another"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse("p.md", tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCheck: a figure matches a printed number at the precision the page
// writes it, or within the block's tolerance; a figure no command
// prints is a problem, and so is its nearest miss.
func TestCheck(t *testing.T) {
	out := "over9000  44.892  [44.765, 45.019]  20000 games; gain -0.573 [-0.739, -0.407]; 31.5 CPU-s"
	for _, tc := range []struct {
		name, text string
		within     float64
		bad        []string
	}{
		{"as printed", "44.892 [44.765, 45.019]", 0, nil},
		{"rounded", "44.9 [44.77, 45.02], -0.57 [-0.74, -0.41]", 0, nil},
		{"thousands", "20,000 games", 0, nil},
		{"from the command", "seed 101", 0, nil},
		{"small counts are not figures", "3 seeds, 9 rules", 0, nil},
		{"wall times are not figures", "in 1m39.7s, ETA 12s, n=2.0k", 0, nil},
		{"a digit off", "44.893", 0, []string{"44.893"}},
		{"rounded the wrong way", "44.7", 0, []string{"44.7"}},
		{"sign", "+0.573", 0, []string{"+0.573"}},
		{"drifted", "hold 19, chase 0.171", 0, []string{"19", "0.171"}},
		{"within", "30 CPU-s", 0.1, nil},
		{"beyond", "27 CPU-s", 0.1, []string{"27"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := Block{File: "p.md", Line: 1, Commands: []string{"evotune eval battleship --seed 101"}, Within: tc.within, Text: tc.text}
			var bad []string
			for _, p := range Check(b, []string{out}) {
				bad = append(bad, strings.Fields(strings.TrimPrefix(p, "p.md:1: "))[0])
			}
			if !slices.Equal(bad, tc.bad) {
				t.Errorf("problems with %q, want %q", bad, tc.bad)
			}
		})
	}
}
