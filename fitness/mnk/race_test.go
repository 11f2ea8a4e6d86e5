//go:build race

package mnk

// The race detector slows the search some 30 times; the heaviest tests
// play fewer games under it.
const raceEnabled = true
