// Package catalog lists the games evotune knows. It is the one place that
// imports every built-in game package, so the engine and the CLI can look
// games up by name without the games knowing about each other; games from
// other modules (a user's own, through the Go API) and outside programs
// join it with Register.
package catalog

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/battleship"
	"github.com/evotune/evotune/fitness/chess"
	"github.com/evotune/evotune/fitness/hadron"
	"github.com/evotune/evotune/fitness/mnk"
)

var (
	mu sync.RWMutex
	// games is the one table of games, in the order `evotune games` lists
	// them: the built-in ones, then the registered ones in order.
	games = []fitness.GameInfo{
		battleship.Info,
		chess.Info,
		hadron.Info,
		mnk.Info,
	}
)

// Register adds a game to the catalog, so every command (run, resume,
// export, eval, games) finds it by name. It panics on a game without a
// name or constructor, or with the name of one already registered: those
// are programming errors of the caller, found on the first run.
func Register(info fitness.GameInfo) {
	if err := check(info); err != nil {
		panic(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, g := range games {
		if g.Name == info.Name {
			panic(fmt.Sprintf("catalog: game %q registered twice", info.Name))
		}
	}
	games = append(games, info)
}

func check(info fitness.GameInfo) error {
	switch {
	case info.Name == "" || strings.ContainsAny(info.Name, " \t\n:/"):
		return fmt.Errorf("catalog: game name %q: want a word without spaces, ':' or '/'", info.Name)
	case info.New == nil:
		return fmt.Errorf("catalog: game %q has no New", info.Name)
	}
	return nil
}

// All returns every registered game.
func All() []fitness.GameInfo {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(games)
}

// Lookup returns the game called name.
func Lookup(name string) (fitness.GameInfo, error) {
	mu.RLock()
	defer mu.RUnlock()
	var names []string
	for _, g := range games {
		if g.Name == name {
			return g, nil
		}
		names = append(names, g.Name)
	}
	return fitness.GameInfo{}, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(names, ", "))
}

// New builds the game called name with rule options opts.
func New(name string, opts map[string]string) (fitness.Game, error) {
	info, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return info.New(opts)
}
