package fitness_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
)

// FuzzLoadParams: no player file panics the reader, and what it accepts
// lies in the player's parameter space.
func FuzzLoadParams(f *testing.F) {
	g, err := catalog.New("battleship", nil)
	if err != nil {
		f.Fatal(err)
	}
	info, ok := fitness.Info(g, fitness.Role("shooter"), "tuned")
	if !ok {
		f.Fatal("battleship has no tuned shooter")
	}
	f.Add([]byte("jitter: 0.02\n"))
	f.Add([]byte(`{"params": {"jitter": 0.5, "parity": 1}}`))
	f.Add([]byte("game: battleship\nplayer: tuned\nrole: shooter\nplayers:\n  - params: {jitter: 0.1}\n"))
	f.Add([]byte("players: []\n"))
	f.Add([]byte("\x00\xff"))
	file := filepath.Join(f.TempDir(), "params.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		vals, _, err := fitness.LoadParams(file, "battleship", fitness.PlayerInfo{Name: "tuned", Role: fitness.Role("shooter"), Schema: info.Schema})
		if err != nil {
			return
		}
		if _, err := info.Schema.FromMap(vals.Map()); err != nil {
			t.Fatalf("accepted values outside the schema: %v", err)
		}
		if _, err := g.NewPlayer(fitness.Role("shooter"), "tuned", vals); err != nil {
			t.Fatalf("accepted values that build no player: %v", err)
		}
	})
}
