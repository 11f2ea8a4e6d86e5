package cli

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGamesGolden pins what `games` prints for the games with searching
// players: their rule options, and every player's settings (NAME@KEY=VALUE)
// with defaults taken from the rules given. Run
// `go test ./cmd/evotune/cli -run TestGamesGolden -update` after an
// intended change.
func TestGamesGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"hadron", []string{"games", "hadron"}},
		{"hadron-depth3-nodes", []string{"games", "hadron", "--rule", "depth=3", "--rule", "nodes=5000"}},
		{"mnk-connect4", []string{"games", "mnk", "--rule", "m=7", "--rule", "n=6", "--rule", "k=4", "--rule", "gravity=true", "--rule", "depth=4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden.Check(t, filepath.Join("testdata", "games", tc.name+".golden"), out, *update)
		})
	}
}

// TestSettingsThePlayerLacks: every command that takes a player SPEC
// refuses a setting the player does not have, and a value a setting does
// not take, as a usage error (exit 2) naming them; none is ignored.
func TestSettingsThePlayerLacks(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"eval player", []string{"eval", "hadron", "--rule", "size=5", "--player", "random@depth=3", "--vs", "aenigma", "--games", "2"},
			`hadron: random has no setting "depth" (it has none)`},
		{"eval opponent", []string{"eval", "hadron", "--rule", "size=5", "--player", "aenigma", "--vs", "aenigma@width=3", "--games", "2"},
			`hadron: aenigma has no setting "width" (its settings: depth, nodes)`},
		{"eval value", []string{"eval", "mnk", "--player", "classic@depth=0", "--vs", "random", "--games", "2"},
			"mnk: depth 0 is outside [1, 64] (classic@depth=0)"},
		{"eval battleship", []string{"eval", "battleship", "--player", "over9000@depth=2", "--games", "2"},
			`battleship: over9000 has no setting "depth" (it has none)`},
		{"settings after the file", []string{"eval", "hadron", "--player", "tuned:best.yaml@depth=2", "--vs", "aenigma", "--games", "2"},
			"(settings go before the file: tuned@depth=2:best.yaml)"},
		{"sprt player", []string{"sprt", "hadron", "--rule", "size=5", "--player", "greedy@depth=2", "--vs", "aenigma"},
			`hadron: greedy has no setting "depth" (it has none)`},
		{"sprt vs", []string{"sprt", "mnk", "--player", "classic", "--vs", "classic@nodes=-1"},
			"mnk: nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != ExitUsage || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errs, ExitUsage, tc.want)
			}
		})
	}
}

// TestSPRTPlaysSettings: sprt's players play with their own settings, as
// under the rule: aenigma@depth=2 in a depth-1 game ends with the
// counts of aenigma in a depth-2 game, which are not those of depth 1.
func TestSPRTPlaysSettings(t *testing.T) {
	counts := func(depth, player string) [5]int {
		t.Helper()
		rep, _ := sprtRun(t, ExitInconclusive, "hadron", "--rule", "size=5", "--rule", "depth="+depth, "--player", player, "--vs", "greedy",
			"--batch", "20", "--max-games", "40", "--seed", "4", "--json")
		return rep.Pairs
	}
	want := counts("2", "aenigma")
	if got := counts("1", "aenigma@depth=2"); got != want {
		t.Fatalf("aenigma@depth=2 under a depth-1 rule: pairs %v, want the depth-2 rule's %v", got, want)
	}
	if shallow := counts("1", "aenigma"); shallow == want {
		t.Fatalf("depth 1 and 2 end on the same pairs %v: the test cannot tell settings from rules", want)
	}
}
