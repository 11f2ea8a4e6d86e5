// Package catalog lists the games evotune knows. It is the one place that
// imports every game package, so the engine and the CLI can look games up
// by name without the games knowing about each other.
package catalog

import (
	"fmt"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/battleship"
	"github.com/evotune/evotune/fitness/hadron"
	"github.com/evotune/evotune/fitness/mnk"
)

// games is the one table of games, in the order `evotune games` lists them.
var games = []fitness.GameInfo{
	battleship.Info,
	hadron.Info,
	mnk.Info,
}

// All returns every registered game.
func All() []fitness.GameInfo { return games }

// Lookup returns the game called name.
func Lookup(name string) (fitness.GameInfo, error) {
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
