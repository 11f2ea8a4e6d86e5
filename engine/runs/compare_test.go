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
