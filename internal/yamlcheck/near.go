package yamlcheck

import "strings"

// Nearest returns the names of known nearest to name, a misspelling of
// one of them: those at the least edit distance (insertions, deletions,
// substitutions and swaps of two neighbouring letters, case ignored),
// when that distance is small for name's length (1 up to 5 letters, 2
// beyond, and less than half of it: one letter is no misspelling of
// another), in known's order; none when no name is that near.
func Nearest(name string, known []string) []string {
	n := len([]rune(name))
	most := 1
	if n > 5 {
		most = 2
	}
	most = min(most, (n-1)/2)
	var near []string
	best := most + 1
	for _, k := range known {
		d := editDistance(strings.ToLower(name), strings.ToLower(k))
		switch {
		case d > most:
		case d < best:
			best, near = d, []string{k}
		case d == best:
			near = append(near, k)
		}
	}
	return near
}

// editDistance is the optimal string alignment distance of a and b, in
// runes: Levenshtein's, with the swap of two neighbours as one edit.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
