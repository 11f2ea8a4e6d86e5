package battleship

import (
	"testing"

	"github.com/evotune/evotune/fitness"
)

// refBlockHalf is seed 002's recursive placement, written from its
// pseudocode on a plain grid: for the first ship left, for each point in
// row-major order, try it horizontally, then vertically, with its first
// cell there; if it fits (in bounds, on no blocked cell and no ship),
// place the rest recursively, and otherwise take it back and go on. The
// one addition is placeUniform's prune (a ship without a free placement
// anywhere ends the branch), which cuts only branches without a
// solution, so the first fit is the same. It returns each ship's cells.
func refBlockHalf(w, h int, fleet []int, blocked []bool) ([][]int, bool) {
	taken := append([]bool(nil), blocked...)
	ships := make([][]int, len(fleet))
	cells := func(r, c, L int, vertical bool) ([]int, bool) {
		var out []int
		for k := range L {
			rr, cc := r, c+k
			if vertical {
				rr, cc = r+k, c
			}
			if rr >= h || cc >= w || taken[rr*w+cc] {
				return nil, false
			}
			out = append(out, rr*w+cc)
		}
		return out, true
	}
	anywhere := func(L int) bool {
		for r := range h {
			for c := range w {
				for _, v := range []bool{false, true} {
					if _, ok := cells(r, c, L, v); ok {
						return true
					}
				}
			}
		}
		return false
	}
	var place func(i int) bool
	place = func(i int) bool {
		if i == len(fleet) {
			return true
		}
		for _, L := range fleet[i:] {
			if !anywhere(L) {
				return false
			}
		}
		for r := range h {
			for c := range w {
				for _, vertical := range []bool{false, true} {
					cs, ok := cells(r, c, fleet[i], vertical)
					if !ok {
						continue
					}
					for _, x := range cs {
						taken[x] = true
					}
					ships[i] = cs
					if place(i + 1) {
						return true
					}
					for _, x := range cs {
						taken[x] = false
					}
				}
			}
		}
		return false
	}
	return ships, place(0)
}

// TestBlockHalfIsSeed002sSearch: on random blocked halves of several
// boards, the placer's search finds what seed 002's search finds, first
// fit for first fit (horizontal before vertical at each point), or fails
// where it fails.
func TestBlockHalfIsSeed002sSearch(t *testing.T) {
	for _, r := range []Rules{
		Classic(),
		{W: 7, H: 6, Fleet: []int{3, 3, 2}, Reveal: RevealSunk},
		{W: 5, H: 9, Fleet: []int{4, 1, 2}, Reveal: RevealSunk},
		{W: 11, H: 11, Fleet: []int{6, 5, 4, 3, 3, 2}, Reveal: RevealSunk},
	} {
		g := mustGeometry(t, r)
		rng := fitness.NewRand(fitness.Derive(2, uint64(r.W), uint64(r.H)))
		found := 0
		for try := range 300 {
			blocked := Bits{Lo: rng.Uint64(), Hi: rng.Uint64()}.And(g.All)
			grid := make([]bool, g.Cells)
			for c := range grid {
				grid[c] = blocked.Has(c)
			}
			want, wantOK := refBlockHalf(r.W, r.H, r.Fleet, grid)
			b := blockHalfSearch{g: g, ships: make([]Bits, len(r.Fleet)), budget: 1 << 40}
			if got := b.place(0, blocked); got != wantOK {
				t.Fatalf("%dx%d %v, try %d: placed %v, seed 002's search %v", r.W, r.H, r.Fleet, try, got, wantOK)
			}
			if !wantOK {
				continue
			}
			found++
			for i, cs := range want {
				var w Bits
				for _, c := range cs {
					w = w.Set(c)
				}
				if b.ships[i] != w {
					t.Fatalf("%dx%d %v, try %d: ship %d at %v, seed 002's search puts it at %v", r.W, r.H, r.Fleet, try, i, b.ships[i], w)
				}
			}
		}
		if found == 0 {
			t.Errorf("%dx%d %v: no try placed the fleet; the test compares nothing", r.W, r.H, r.Fleet)
		}
	}
}

// TestBlockHalfBudget: a try places at most blockHalfBudget ships (each
// fitting placement tried costs one), then fails: exactly enough budget
// lays the fleet, one less fails.
func TestBlockHalfBudget(t *testing.T) {
	g := mustGeometry(t, Rules{W: 6, H: 6, Fleet: []int{3, 2}, Reveal: RevealSunk})
	// The first fit needs exactly two placements: ship 0 at the first
	// cell, ship 1 right after it.
	for budget, want := range map[int]bool{1: false, 2: true} {
		b := blockHalfSearch{g: g, ships: make([]Bits, 2), budget: budget}
		if got := b.place(0, Bits{}); got != want {
			t.Errorf("budget %d: placed %v, want %v", budget, got, want)
		}
	}
	// A fleet the prune cannot rule out but that never fits (ships of
	// 3 3 3 3 3 2, 17 cells, in a 4x4 box) fails after some number of
	// placements; with one fewer in its budget it stops early, the
	// budget spent.
	g = mustGeometry(t, Rules{W: 8, H: 8, Fleet: []int{3, 3, 3, 3, 3, 2}, Reveal: RevealSunk})
	var open Bits
	for r := range 4 {
		for c := range 4 {
			open = open.Set(r*8 + c)
		}
	}
	taken := g.All.AndNot(open)
	full := blockHalfSearch{g: g, ships: make([]Bits, 6), budget: 1 << 40}
	if full.place(0, taken) {
		t.Fatal("17 cells of ships in a 16-cell box: placed")
	}
	spent := 1<<40 - full.budget
	if spent < 10 {
		t.Fatalf("the hopeless search tried %d placements; the test wants a long one", spent)
	}
	short := blockHalfSearch{g: g, ships: make([]Bits, 6), budget: spent - 1}
	if short.place(0, taken) || short.budget >= 0 {
		t.Errorf("budget %d of the %d the search needs: stopped with %d left; want it spent", spent-1, spent, short.budget)
	}
}
