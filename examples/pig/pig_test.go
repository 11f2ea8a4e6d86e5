// Package pig_test checks examples/pig/pig.py through evotune's side of
// the protocol: it must describe itself, be deterministic, and its tuned
// player at the defaults must be the classic hold-at-20 game for game.
package pig_test

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/conformance"
	"github.com/evotune/evotune/fitness/external"
)

func TestConformance(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	c := external.Command{Argv: []string{"python3", "pig.py"}, Audit: 0.2}
	d, err := external.Describe(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	conformance.Run(t, d.Info(c), conformance.Options{Seeds: 4})
}

func pig(t *testing.T, audit float64, rules map[string]string) *external.Game {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	c := external.Command{Argv: []string{"python3", "pig.py"}, Audit: audit}
	d, err := external.Describe(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	g, err := d.Info(c).New(rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fitness.Close(g) })
	return g.(*external.Game)
}

func players(t *testing.T, g fitness.Game, set map[string]any) (tuned, hold20 fitness.Player) {
	info, _ := fitness.Info(g, fitness.Mover, "tuned")
	v, err := info.Schema.FromMap(set)
	if err != nil {
		t.Fatal(err)
	}
	if tuned, err = g.NewPlayer(fitness.Mover, "tuned", v); err != nil {
		t.Fatal(err)
	}
	if hold20, err = g.NewPlayer(fitness.Mover, "hold20", info.Schema.Defaults()); err != nil {
		t.Fatal(err)
	}
	return tuned, hold20
}

func TestDefaultsAreHoldAt20(t *testing.T) {
	g := pig(t, 0.05, nil)
	tuned, hold20 := players(t, g, nil)
	var as, bs []external.Match
	for i := range 400 {
		seed := fitness.Derive(8, uint64(i))
		as = append(as, external.Match{A: tuned, B: hold20, Seed: seed})
		bs = append(bs, external.Match{A: hold20, B: hold20, Seed: seed})
	}
	a, err := g.PlayBatch(context.Background(), as)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.PlayBatch(context.Background(), bs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Fatal("tuned at its defaults plays otherwise than hold20")
	}
	var tally fitness.Tally
	for _, o := range a {
		tally.Add(o)
	}
	// The first player's edge in Pig is a few percent, not more.
	if s := tally.Score(); s < 0.45 || s > 0.65 {
		t.Fatalf("hold20 in seat 0 scores %.3f over %d games", s, tally.Games())
	}
}

func TestKnobsMatter(t *testing.T) {
	g := pig(t, 0, map[string]string{"goal": "50"})
	tuned, hold20 := players(t, g, map[string]any{"hold": 8})
	t2, _ := players(t, g, map[string]any{"hold": 8, "desperation": 30, "finish": 10, "chase": 0.5})
	var tally, tally2 fitness.Tally
	for i := range 200 {
		seed := fitness.Derive(9, uint64(i/2))
		a, b, a2 := tuned, hold20, t2
		flip := i%2 == 1
		if flip {
			a, b = b, a
		}
		o, err := g.Play(context.Background(), a, b, seed)
		if err != nil {
			t.Fatal(err)
		}
		var o2 fitness.Outcome
		if flip {
			o2, err = g.Play(context.Background(), b, a2, seed)
			o, o2 = o.Flip(), o2.Flip()
		} else {
			o2, err = g.Play(context.Background(), a2, b, seed)
		}
		if err != nil {
			t.Fatal(err)
		}
		tally.Add(o)
		tally2.Add(o2)
	}
	if tally.Score() == tally2.Score() {
		t.Fatalf("the endgame knobs change nothing: both score %v", tally.Score())
	}
}

func TestBadRuleIsAGameError(t *testing.T) {
	g := pig(t, 0, map[string]string{"goal": "zero"})
	tuned, hold20 := players(t, g, nil)
	_, err := g.Play(context.Background(), tuned, hold20, 1)
	var ge *external.GameError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "invalid literal for int()") {
		t.Fatalf("err = %v, want a *GameError quoting the program", err)
	}
}
