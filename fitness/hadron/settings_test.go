package hadron

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// TestOpening: the random opening gives both games of a seat-swapped pair
// the same first plies, never decides a game, and makes players without
// noise meet in games that differ from seed to seed.
func TestOpening(t *testing.T) {
	quiet, err := Schema(7).Defaults().With(ParamJitter, genome.Value{Num: 0})
	if err != nil {
		t.Fatal(err)
	}
	distinct := func(opening int) int {
		g := mustGame(t, Options{Size: 7, Depth: 2, Opening: opening})
		p := newPlayer(t, g, "tuned", quiet)
		q := newPlayer(t, g, "greedy", genome.Values{})
		games := map[string]bool{}
		for seed := range uint64(scale(30, 6)) {
			first, second := record(t, g, p, p, seed), record(t, g, q, p, seed)
			games[first.String()] = true
			if first.Opening != opening || second.Opening != opening {
				t.Fatalf("seed %d: openings of %d and %d plies, want %d", seed, first.Opening, second.Opening, opening)
			}
			if !slices.Equal(first.Moves[:opening], second.Moves[:opening]) {
				t.Fatalf("seed %d: openings %v and %v differ between the games of a pair", seed, first.Moves[:opening], second.Moves[:opening])
			}
			replay(t, first)
			if again := record(t, g, p, p, seed); again.String() != first.String() {
				t.Fatalf("seed %d: replayed\n%v\nwas\n%v", seed, again, first)
			}
		}
		return len(games)
	}
	if without, with := distinct(0), distinct(4); without != 1 || with < scale(28, 5) {
		t.Errorf("tuned without jitter in self-play, %d seeds: %d distinct games without an opening, %d with 4 random plies; want 1, then nearly all",
			scale(30, 6), without, with)
	}
	// An opening as long as the board allows: it stops before a cell that
	// would leave the next player no move, so the players still play.
	g := mustGame(t, Options{Size: 3, Depth: 2, Opening: 8})
	p := newPlayer(t, g, "random", genome.Values{})
	for seed := range uint64(50) {
		r := record(t, g, p, p, seed)
		if r.Opening >= len(r.Moves) {
			t.Fatalf("seed %d: the opening played every move of %v", seed, r)
		}
		replay(t, r)
	}
}

// TestPlayerSettings: a searching player's own depth and node budget play
// exactly as the same limits set for the whole game by the rules.
func TestPlayerSettings(t *testing.T) {
	shallow := mustGame(t, Options{Size: 7, Depth: 2})
	for _, tc := range []struct {
		settings fitness.Settings
		rules    Options // the game whose rules play as the settings
	}{
		{fitness.Settings{"depth": "3"}, Options{Size: 7, Depth: 3}},
		{fitness.Settings{"depth": "4", "nodes": "300"}, Options{Size: 7, Depth: 4, Nodes: 300}},
		{fitness.Settings{"depth": "1"}, Options{Size: 7, Depth: 1}},
	} {
		t.Run(tc.settings.String(), func(t *testing.T) {
			ruled := mustGame(t, tc.rules)
			for _, name := range []string{"aenigma", "tuned"} {
				own, err := fitness.NewPlayerWith(shallow, fitness.Mover, name, Schema(7).Defaults(), tc.settings)
				if err != nil {
					t.Fatal(err)
				}
				same := newPlayer(t, ruled, name, genome.Values{})
				for seed := range uint64(scale(6, 2)) {
					if a, b := record(t, shallow, own, own, seed), record(t, ruled, same, same, seed); a.String() != b.String() {
						t.Errorf("%s@%v, seed %d:\n%v\nwith the rules %+v:\n%v", name, tc.settings, seed, a, tc.rules, b)
					}
				}
			}
		})
	}
	// The settings are declared by the searching players only, with the
	// rules' values as defaults.
	for _, p := range mustGame(t, Options{Size: 7, Depth: 5, Nodes: 99}).Players() {
		var got []string
		for _, s := range p.Settings {
			got = append(got, s.Name+"="+s.Default)
		}
		want := []string{"depth=5", "nodes=99"}
		if p.Name == "random" || p.Name == "greedy" {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s declares settings %v, want %v", p.Name, got, want)
		}
	}
}

// TestSettingErrors: a setting the player lacks and a value a setting
// does not take are errors that say so, through every way a player is
// built.
func TestSettingErrors(t *testing.T) {
	g := mustGame(t, Options{Size: 7, Depth: 2})
	for _, tc := range []struct{ spec, err string }{
		{"random@depth=3", `hadron: random has no setting "depth" (it has none)`},
		{"greedy@nodes=10", `hadron: greedy has no setting "nodes" (it has none)`},
		{"aenigma@width=3", `hadron: aenigma has no setting "width" (its settings: depth, nodes)`},
		{"aenigma@depth=0", "hadron: depth 0: must be from 1 to 16 (aenigma@depth=0)"},
		{"aenigma@depth=17", "hadron: depth 17: must be from 1 to 16 (aenigma@depth=17)"},
		{"tuned@depth=deep", `hadron: depth "deep": not a whole number (tuned@depth=deep)`},
		{"tuned@nodes=-1", "hadron: nodes -1: must be 0 (no budget) to 1000000000 (tuned@nodes=-1)"},
		{"aenigma@depth=3,depth=4", `hadron: player spec "aenigma@depth=3,depth=4": setting depth given twice`},
		{"aenigma@depth", `hadron: player spec "aenigma@depth": setting "depth": want KEY=VALUE, such as depth=4`},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := fitness.ParseSpec(g, fitness.Mover, tc.spec)
			if err == nil || err.Error() != tc.err {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
	// The game refuses an undeclared setting itself too, for callers that
	// do not go through fitness.NewPlayerWith.
	if _, err := g.NewPlayerSettings(fitness.Mover, "random", genome.Values{}, fitness.Settings{"depth": "3"}); err == nil ||
		!strings.Contains(err.Error(), `random has no setting "depth"`) {
		t.Errorf("NewPlayerSettings(random, depth): %v", err)
	}
	var oe *fitness.OptionError
	if _, err := Info.New(map[string]string{"opening": "99"}); !errors.As(err, &oe) || oe.Option != "opening" {
		t.Errorf("a bad opening: %v, want an OptionError naming opening", err)
	}
}
