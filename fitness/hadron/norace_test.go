//go:build !race

package hadron

const raceEnabled = false
