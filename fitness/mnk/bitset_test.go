package mnk

import (
	"slices"
	"testing"
)

// members lists a bitset's cells by testing every bit, the naive way.
func members(a bitset) []int {
	var out []int
	for i := range maxBits {
		if a.has(i) {
			out = append(out, i)
		}
	}
	return out
}

func setOf(cells ...int) bitset {
	var s bitset
	for _, c := range cells {
		s = s.or(cell(c))
	}
	return s
}

// TestBitsetWalk: first, rest and nth visit the members in increasing
// order, across the word boundary, and count agrees; shl and shr move
// every member by n cells, dropping those pushed off either end.
func TestBitsetWalk(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cells []int
	}{
		{"one low", []int{5}},
		{"low word, adjacent bits", []int{0, 1, 2, 3}},
		{"spread in the low word", []int{2, 6, 7, 40, 63}},
		{"across the boundary", []int{62, 63, 64, 65}},
		{"high word only", []int{64, 70, 127}},
		{"both ends", []int{0, 127}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setOf(tc.cells...)
			if got := members(s); !slices.Equal(got, tc.cells) {
				t.Fatalf("members %v, want %v", got, tc.cells)
			}
			if s.count() != len(tc.cells) {
				t.Fatalf("count %d, want %d", s.count(), len(tc.cells))
			}
			var walk []int
			for r := s; !r.empty() && len(walk) <= maxBits; r = r.rest() {
				walk = append(walk, r.first())
			}
			if !slices.Equal(walk, tc.cells) {
				t.Fatalf("first/rest walk %v, want %v", walk, tc.cells)
			}
			for k, c := range tc.cells {
				if got := s.nth(k); got != c {
					t.Fatalf("nth(%d) = %d, want %d", k, got, c)
				}
			}
			for _, n := range []uint{1, 3, 63, 64, 65, 100} {
				var up, down []int
				for _, c := range tc.cells {
					if c+int(n) < maxBits {
						up = append(up, c+int(n))
					}
					if c-int(n) >= 0 {
						down = append(down, c-int(n))
					}
				}
				if got := members(s.shl(n)); !slices.Equal(got, up) {
					t.Fatalf("shl(%d) = %v, want %v", n, got, up)
				}
				if got := members(s.shr(n)); !slices.Equal(got, down) {
					t.Fatalf("shr(%d) = %v, want %v", n, got, down)
				}
			}
		})
	}
}
