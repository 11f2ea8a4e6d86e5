package bits128

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// members lists a set's cells by testing every bit, the naive way.
func members(b Bits) []int {
	var out []int
	for i := range Size {
		if b.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

func setOf(cells ...int) Bits {
	var b Bits
	for _, c := range cells {
		b = b.Set(c)
	}
	return b
}

// sets are the named cases of the walks and shifts, chosen at the word
// boundary and both ends.
var sets = []struct {
	name  string
	cells []int
}{
	{"empty", nil},
	{"one low", []int{5}},
	{"low word, adjacent bits", []int{0, 1, 2, 3}},
	{"spread in the low word", []int{2, 6, 7, 40, 63}},
	{"across the boundary", []int{62, 63, 64, 65}},
	{"high word only", []int{64, 70, 127}},
	{"both ends", []int{0, 127}},
}

// TestWalks: First, Rest, Nth, Cells and AppendCells visit the members in
// increasing order, across the word boundary, and Count agrees.
func TestWalks(t *testing.T) {
	for _, tc := range sets {
		t.Run(tc.name, func(t *testing.T) {
			s := setOf(tc.cells...)
			if got := members(s); !slices.Equal(got, tc.cells) {
				t.Fatalf("members %v, want %v", got, tc.cells)
			}
			if s.Count() != len(tc.cells) || s.Empty() != (len(tc.cells) == 0) {
				t.Fatalf("count %d, empty %v, want %d cells", s.Count(), s.Empty(), len(tc.cells))
			}
			var walk []int
			for r := s; !r.Empty() && len(walk) <= Size; r = r.Rest() {
				walk = append(walk, r.First())
			}
			if !slices.Equal(walk, tc.cells) {
				t.Fatalf("First/Rest walk %v, want %v", walk, tc.cells)
			}
			if len(tc.cells) == 0 && s.First() != -1 {
				t.Fatalf("First of the empty set %d, want -1", s.First())
			}
			for k, c := range tc.cells {
				if got := s.Nth(k); got != c {
					t.Fatalf("Nth(%d) = %d, want %d", k, got, c)
				}
			}
			if got := s.Cells(nil); !slices.Equal(got, tc.cells) {
				t.Fatalf("Cells %v, want %v", got, tc.cells)
			}
			var small []int8
			for _, c := range tc.cells {
				small = append(small, int8(c))
			}
			if got := AppendCells([]int8(nil), s); !slices.Equal(got, small) {
				t.Fatalf("AppendCells as int8 %v, want %v", got, small)
			}
		})
	}
}

// TestShifts: Shl and Shr move every member by n cells, for every n from
// 0 to 127, dropping those pushed off either end.
func TestShifts(t *testing.T) {
	for _, tc := range sets {
		t.Run(tc.name, func(t *testing.T) {
			s := setOf(tc.cells...)
			for n := range uint(Size) {
				var up, down []int
				for _, c := range tc.cells {
					if c+int(n) < Size {
						up = append(up, c+int(n))
					}
					if c-int(n) >= 0 {
						down = append(down, c-int(n))
					}
				}
				if got := members(s.Shl(n)); !slices.Equal(got, up) {
					t.Fatalf("Shl(%d) = %v, want %v", n, got, up)
				}
				if got := members(s.Shr(n)); !slices.Equal(got, down) {
					t.Fatalf("Shr(%d) = %v, want %v", n, got, down)
				}
			}
		})
	}
}

// TestAgainstModel holds every operation to a [128]bool model on random
// sets, and Cell and Has to the empty set outside [0, 128).
func TestAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(128, 1))
	model := func(b Bits) (m [Size]bool) {
		for i := range Size {
			m[i] = i < 64 && b.Lo>>uint(i)&1 != 0 || i >= 64 && b.Hi>>uint(i-64)&1 != 0
		}
		return m
	}
	random := func() Bits {
		// Sparse, dense and one-word sets, so the word boundary is crossed.
		b := Bits{rng.Uint64(), rng.Uint64()}
		switch rng.IntN(4) {
		case 0:
			b = b.And(Bits{rng.Uint64(), rng.Uint64()}).And(Bits{rng.Uint64(), rng.Uint64()})
		case 1:
			b.Hi = 0
		case 2:
			b.Lo = 0
		}
		return b
	}
	for range 2000 {
		a, b := random(), random()
		ma, mb := model(a), model(b)
		or, and, andNot, xor := model(a.Or(b)), model(a.And(b)), model(a.AndNot(b)), model(a.Xor(b))
		meets, count := false, 0
		for i := range Size {
			if or[i] != (ma[i] || mb[i]) || and[i] != (ma[i] && mb[i]) ||
				andNot[i] != (ma[i] && !mb[i]) || xor[i] != (ma[i] != mb[i]) {
				t.Fatalf("%v, %v: cell %d wrong in Or, And, AndNot or Xor", a, b, i)
			}
			if a.Has(i) != ma[i] || a.Set(i) != a.Or(Cell(i)) || !a.Set(i).Has(i) {
				t.Fatalf("%v: Has, Set or Cell wrong at %d", a, i)
			}
			meets = meets || ma[i] && mb[i]
			if ma[i] {
				count++
			}
		}
		if a.Meets(b) != meets || a.Count() != count {
			t.Fatalf("%v, %v: Meets %v, Count %d, want %v, %d", a, b, a.Meets(b), a.Count(), meets, count)
		}
	}
	for _, i := range []int{-65, -1, 128, 129, 200} {
		if !Cell(i).Empty() || (Bits{^uint64(0), ^uint64(0)}).Has(i) {
			t.Errorf("cell %d outside the set: Cell %v, Has true", i, Cell(i))
		}
	}
}

func Example() {
	row := Cell(10).Set(11).Set(12) // a ship on row 1 of a 10-wide board
	shots := Cell(11).Set(55)
	fmt.Println(row.Count(), row.Meets(shots), row.AndNot(shots).Cells(nil))
	var walk []int
	for s := row; !s.Empty(); s = s.Rest() {
		walk = append(walk, s.First())
	}
	fmt.Println(walk)
	fmt.Println(row.Shl(10).Cells(nil), row.Shr(64).Empty())
	// Output:
	// 3 true [10 12]
	// [10 11 12]
	// [20 21 22] true
}
