//go:build race

package chess

// The race detector slows the library's move generator many times over;
// perft counts only its quick depths under it.
const raceEnabled = true
