package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestTournamentSizeBindsSelectingModels: evolution.tournament-size is
// checked against the population only for the models that select
// parents by tournament (generational, down-to-size); the others never
// draw a tournament and accept any size.
func TestTournamentSizeBindsSelectingModels(t *testing.T) {
	for _, tc := range []struct {
		model, extra string
		refused      bool
	}{
		{"generational", "", true},
		{"down-to-size", "  offspring: 4\n", true},
		{"natural-selection", "  keep: 1\n", false},
		{"random-search", "", false},
		{"cmaes", "", false},
	} {
		t.Run(tc.model, func(t *testing.T) {
			text := fmt.Sprintf("game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  model: %s\n  population: 4\n  tournament-size: 4\n%s", tc.model, tc.extra)
			_, err := Parse("c.yaml", []byte(text))
			const msg = "evolution.tournament-size: 4: want from 1 to population-1 (3)"
			switch {
			case tc.refused && (err == nil || !strings.Contains(err.Error(), msg)):
				t.Fatalf("err = %v, want %q", err, msg)
			case !tc.refused && err != nil:
				t.Fatalf("err = %v, want none", err)
			}
		})
	}
}

// TestRemeasureLimits: remeasure.top runs from 1 to the hall of fame's
// size and remeasure.games from 1 (2 for head-to-head games, in pairs)
// to MaxGames, both ends included.
func TestRemeasureLimits(t *testing.T) {
	solo := "game: coin\nplayer: tuned\nfitness:\n  baselines:\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n  hall-of-fame: 5\n"
	score := "game: coin\nplayer: tuned\nfitness:\n  objective: score\n  baselines:\n    opponents: [even]\n    games: 2\nevolution:\n  population: 4\n  tournament-size: 2\n  hall-of-fame: 5\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"top 1", solo + "remeasure: {top: 1}\n", ""},
		{"top the hall of fame", solo + "remeasure: {top: 5}\n", ""},
		{"top above it", solo + "remeasure: {top: 6}\n", "remeasure.top: 6: want from 1 to evolution.hall-of-fame (5)"},
		{"one solo game", solo + "remeasure: {games: 1}\n", ""},
		{"no games", solo + "remeasure: {games: 0}\n", "remeasure.games: 0: want at least 1"},
		{"the most games", solo + fmt.Sprintf("remeasure: {games: %d}\n", MaxGames), ""},
		{"more", solo + fmt.Sprintf("remeasure: {games: %d}\n", MaxGames+1), fmt.Sprintf("remeasure.games: %d: more than the limit of %d", MaxGames+1, MaxGames)},
		{"two head-to-head games", score + "remeasure: {games: 2}\n", ""},
		{"one head-to-head game", score + "remeasure: {games: 1}\n", "remeasure.games: 1: want an even number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.text))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
