//go:build !race

package battleship

// densRace is true in -race builds, where density tests play fewer games.
const densRace = false
