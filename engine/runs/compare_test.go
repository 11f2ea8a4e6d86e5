package runs

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
)

// TestComparePairsTheDeals: every best meets the same deals, so a run
// compared with itself differs by exactly nothing, two runs' paired
// difference is the difference of their figures, and the comparison is
// the same at any worker count.
func TestComparePairsTheDeals(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		score        bool
	}{
		{"shots", crashConfig, false},
		{"score", hofConfig, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := runTo(t, tc.config)
			b := runTo(t, strings.Replace(tc.config, "seed: ", "seed: 9", 1))
			got, err := Compare(context.Background(), []string{a, b, a}, CompareOptions{Games: 40, Seed: 3, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			other, err := Compare(context.Background(), []string{a, b, a}, CompareOptions{Games: 40, Seed: 3, Workers: 4})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, other) {
				t.Error("the comparison depends on the worker count")
			}
			for _, d := range got.Diffs {
				fa, fb := got.Runs[d.A].Figures, got.Runs[d.B].Figures
				o := indexOf(got.Opponents, d.Opponent)
				if want := fa[o].Fitness - fb[o].Fitness; math.Abs(d.Diff-want) > 1e-9 {
					t.Errorf("%d - %d vs %s: %v, the figures differ by %v", d.A, d.B, d.Opponent, d.Diff, want)
				}
				if d.A == 0 && d.B == 2 && (d.Diff != 0 || d.CI95 != [2]float64{}) {
					t.Errorf("a run against itself: %v %v, want exactly 0 on shared deals", d.Diff, d.CI95)
				}
			}
			if tc.score {
				if len(got.HeadToHead) != 3 {
					t.Fatalf("%d head-to-head pairs, want 3", len(got.HeadToHead))
				}
				for _, h := range got.HeadToHead {
					if h.A == 0 && h.B == 2 && (h.Score.Value != 0.5 || h.Pentanomial != stats.Pentanomial{0, 0, 20, 0, 0}) {
						t.Errorf("a best against itself, seats swapped: %v %v, want every pair split", h.Score, h.Pentanomial)
					}
				}
			} else if len(got.HeadToHead) != 0 {
				t.Error("head-to-head games for a solo measure")
			}
			if other, err := Compare(context.Background(), []string{a, b}, CompareOptions{Games: 40, Seed: 4, Workers: 2}); err != nil {
				t.Fatal(err)
			} else if reflect.DeepEqual(other.Runs[0].Figures, got.Runs[0].Figures) {
				t.Error("another seed, the same deals")
			}
		})
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestCompareRefusesWhatDoesNotCompare: runs of other games or rules, one
// run, and an odd number of a score's games are refused before a game
// is played.
func TestCompareRefusesWhatDoesNotCompare(t *testing.T) {
	shots := runTo(t, crashConfig)
	mnk := runTo(t, hofConfig)
	wide := runTo(t, strings.Replace(crashConfig, "game: battleship", "game: battleship\nrules: {size: 8}", 1))
	for _, tc := range []struct {
		name string
		dirs []string
		opts CompareOptions
		want error
	}{
		{"other games", []string{shots, mnk}, CompareOptions{Games: 4}, ErrNotComparable},
		{"other rules", []string{shots, wide}, CompareOptions{Games: 4}, ErrNotComparable},
		{"one run", []string{shots}, CompareOptions{Games: 4}, ErrNotComparable},
		{"no run", []string{shots, filepath.Join(t.TempDir(), "none")}, CompareOptions{Games: 4}, engine.ErrNotRunDir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Compare(context.Background(), tc.dirs, tc.opts); !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := Compare(context.Background(), []string{mnk, mnk}, CompareOptions{Games: 3}); err == nil || !strings.Contains(err.Error(), "even") {
		t.Errorf("an odd number of a score's games: %v", err)
	}
}

// TestCompareSoloGameOfOneSeat: runs of a solo game without an opponent
// (an outside program may declare one role and a cost) compare against
// the game alone, one column, not a panic.
func TestCompareSoloGameOfOneSeat(t *testing.T) {
	cfg := "name: alone\nseed: 3\ngame: solitaire\nplayer: tuned\nevolution: {population: 4, generations: 2}\n"
	a := runTo(t, cfg)
	b := runTo(t, strings.Replace(cfg, "seed: 3", "seed: 4", 1))
	got, err := Compare(context.Background(), []string{a, b}, CompareOptions{Games: 10, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Opponents, []string{""}) {
		t.Errorf("opponents %q, want one: the game alone", got.Opponents)
	}
	for i, r := range got.Runs {
		if len(r.Figures) != 1 || r.Figures[0].Games != 10 {
			t.Errorf("run %d: figures %+v, want one of 10 games", i, r.Figures)
		}
	}
	if len(got.Diffs) != 1 || got.Diffs[0].Opponent != "" || got.Diffs[0].N != 10 {
		t.Errorf("paired differences %+v, want one over 10 deals", got.Diffs)
	}
}

// TestComparePlaysThePlayerWithItsSettings: a run that tunes
// tuned@depth=1 is compared with its player at depth 1, as the run
// played it (not refused, not at the game's depth): its figures are
// those of the run's own player on compare's deals.
func TestComparePlaysThePlayerWithItsSettings(t *testing.T) {
	cfg := strings.Replace(hofConfig, "player: tuned", "player: tuned@depth=1", 1)
	a := runTo(t, cfg)
	b := runTo(t, strings.Replace(cfg, "seed: 5", "seed: 6", 1))
	const games = 40
	got, err := Compare(context.Background(), []string{a, b}, CompareOptions{Games: games, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, dir := range []string{a, b} {
		ck, s, err := engine.ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		views, err := s.Views(ck)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.TunedPlayer(views[0].Recommended().Genes)
		if err != nil {
			t.Fatal(err)
		}
		opps, _, err := s.Baselines()
		if err != nil {
			t.Fatal(err)
		}
		for o, opp := range opps {
			ms := make([]fitness.Match, games)
			for g := range ms {
				ms[g] = fitness.Match{A: p, B: opp, Seed: fitness.Derive(3, compareStream, uint64(o), uint64(g/2))}
				if g%2 == 1 {
					ms[g].A, ms[g].B = opp, p
				}
			}
			_, want, err := play(context.Background(), s.Game(), ms, true, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f := got.Runs[i].Figures[o]; f != want {
				t.Errorf("run %d vs %s: %+v, the run's own player scores %+v on those deals", i, got.Opponents[o], f, want)
			}
		}
	}
}
