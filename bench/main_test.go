package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/catalog"
)

func TestMedianGames(t *testing.T) {
	const out = math.MaxInt // a run out of budget
	tests := []struct {
		name string
		done []int
		want string
	}{
		{"none finished", nil, "—"},
		{"all reached, odd", []int{900, 100, 500}, "500"},
		{"all reached, even", []int{100, 300, 500, 900}, "400"},
		{"one of five out of budget", []int{100, out, 300, 200, 400}, "300"},
		{"three of five out of budget", []int{100, out, out, 200, out}, "> 1000"},
		{"the upper middle of four out of budget", []int{100, out, out, 200}, ">= 200"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := medianGames(tc.done, 1000); got != tc.want {
				t.Errorf("medianGames(%v) = %q, want %q", tc.done, got, tc.want)
			}
		})
	}
}

// TestRunOneResumes runs a two-generation benchmark run, runs it again
// (it is finished: nothing is added), then loses the last line of its log
// (a kill before the append) and runs it again: the generation is
// measured anew, to the same record.
func TestRunOneResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 60,000 games")
	}
	tk := battleship
	info, err := catalog.Lookup(tk.name)
	if err != nil {
		t.Fatal(err)
	}
	if tk.game, err = info.New(nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m := methods[3] // cmaes: its state lives only in the replay
	budget := 2 * tk.perGeneration
	ctx := context.Background()
	if err := tk.runOne(ctx, dir, m, 1, budget, 2); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, m.name, "seed1.jsonl")
	first, err := readLog(log)
	if err != nil || len(first) != 2 {
		t.Fatalf("%d records (%v), want 2", len(first), err)
	}
	if err := tk.runOne(ctx, dir, m, 1, budget, 1); err != nil {
		t.Fatal(err)
	}
	if again, _ := readLog(log); len(again) != 2 {
		t.Fatalf("a finished run went on: %d records", len(again))
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(string(data), "\n") + 1
	if err := os.WriteFile(log, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tk.runOne(ctx, dir, m, 1, budget, 1); err != nil {
		t.Fatal(err)
	}
	got, _ := readLog(log)
	if len(got) != 2 || got[1] != first[1] {
		t.Fatalf("records after the lost line:\n%+v\nwant\n%+v", got, first)
	}
}
