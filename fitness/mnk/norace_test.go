//go:build !race

package mnk

const raceEnabled = false
