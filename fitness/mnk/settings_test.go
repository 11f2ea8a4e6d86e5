package mnk

import (
	"context"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// TestPlayerSettings: classic's and tuned's own depth and node budget play
// exactly as the same limits set by the rules, and only the searching
// players and perfect declare settings, with the rules' values as the
// searches' defaults.
func TestPlayerSettings(t *testing.T) {
	small := Rules{M: 5, N: 4, K: 4, Gravity: true}
	shallow := mustGame(t, small, Limits{Depth: 1, Opening: 2})
	for _, tc := range []struct {
		spec  string
		rules Limits
	}{
		{"classic@depth=3", Limits{Depth: 3, Opening: 2}},
		{"tuned@depth=4,nodes=500", Limits{Depth: 4, Nodes: 500, Opening: 2}},
	} {
		ruled := mustGame(t, small, tc.rules)
		own, err := fitness.ParseSpec(shallow, fitness.Mover, tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		name := gameName(tc.spec)
		same := mustPlayer(t, ruled, name)
		for seed := range uint64(6) {
			_, a, err := shallow.playContext(context.Background(), own, own, seed, true)
			if err != nil {
				t.Fatal(err)
			}
			_, b, err := ruled.playContext(context.Background(), same, same, seed, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a, b) {
				t.Errorf("%s, seed %d: %v; with the rules %+v: %v", tc.spec, seed, a, tc.rules, b)
			}
		}
	}
	want := map[string][]string{
		"random": nil, "greedy": nil, "perfect": {"ties=random"},
		"classic": {"depth=5", "nodes=77"}, "tuned": {"depth=5", "nodes=77"},
	}
	for _, p := range mustGame(t, TicTacToe, Limits{Depth: 5, Nodes: 77}).Players() {
		var got []string
		for _, s := range p.Settings {
			got = append(got, s.Name+"="+s.Default)
		}
		if !slices.Equal(got, want[p.Name]) {
			t.Errorf("%s declares %v, want %v", p.Name, got, want[p.Name])
		}
	}
}

func gameName(spec string) string {
	sp, _ := fitness.SplitSpec(spec)
	return sp.Name
}

// TestSettingErrors: a setting the player lacks, and a value a setting
// does not take, are refused with a message naming them.
func TestSettingErrors(t *testing.T) {
	gm := mustGame(t, TicTacToe, Limits{})
	for _, tc := range []struct{ spec, err string }{
		{"random@depth=2", `mnk: random has no setting "depth" (it has none)`},
		{"perfect@depth=2", `mnk: perfect has no setting "depth" (its settings: ties)`},
		{"classic@ties=first", `mnk: classic has no setting "ties" (its settings: depth, nodes)`},
		{"classic@depth=0", "mnk: depth 0 is outside [1, 64] (classic@depth=0)"},
		{"tuned@nodes=lots", `mnk: nodes "lots": not a whole number (tuned@nodes=lots)`},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			if _, err := fitness.ParseSpec(gm, fitness.Mover, tc.spec); err == nil || err.Error() != tc.err {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
	if _, err := gm.NewPlayerSettings(fitness.Mover, "greedy", gm.tuned.Defaults(), fitness.Settings{"ties": "first"}); err == nil {
		t.Error("NewPlayerSettings gave greedy a tie rule")
	}
}
