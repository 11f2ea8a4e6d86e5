//go:build !race

package battleship

// densRace is true in -race builds, where density tests play fewer games
// (and sync.Pool drops a share of what it is given).
const densRace = false
