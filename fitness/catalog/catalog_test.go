package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

// withGames restores the catalog's table when the test ends, so games
// registered by a test do not leak into others.
func withGames(t *testing.T) {
	t.Helper()
	mu.Lock()
	saved := slices.Clone(games)
	mu.Unlock()
	t.Cleanup(func() {
		mu.Lock()
		games = saved
		mu.Unlock()
	})
}

func names(infos []fitness.GameInfo) []string {
	var out []string
	for _, g := range infos {
		out = append(out, g.Name)
	}
	return out
}

// panicText runs f and returns what it panicked with, "" if it did not.
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestRegisterRefusesBadGames: a game without a usable name or without a
// constructor, or under a name already taken, is a programming error
// that panics with a message naming it; the table is left unchanged.
func TestRegisterRefusesBadGames(t *testing.T) {
	withGames(t)
	newGame := func(map[string]string) (fitness.Game, error) { return nil, errors.New("unused") }
	tests := []struct {
		name string
		info fitness.GameInfo
		want string
	}{
		{"no name", fitness.GameInfo{New: newGame}, `catalog: game name "": want a word without spaces`},
		{"space", fitness.GameInfo{Name: "my game", New: newGame}, `game name "my game"`},
		{"tab", fitness.GameInfo{Name: "my\tgame", New: newGame}, `game name "my\tgame"`},
		{"newline", fitness.GameInfo{Name: "my\ngame", New: newGame}, `game name "my\ngame"`},
		{"colon", fitness.GameInfo{Name: "tuned:x", New: newGame}, `game name "tuned:x"`},
		{"slash", fitness.GameInfo{Name: "a/b", New: newGame}, `game name "a/b"`},
		{"no New", fitness.GameInfo{Name: "nonew"}, `catalog: game "nonew" has no New`},
		{"built-in name", fitness.GameInfo{Name: "hadron", New: newGame}, `catalog: game "hadron" registered twice`},
		{"last built-in name", fitness.GameInfo{Name: "mnk", New: newGame}, `catalog: game "mnk" registered twice`},
	}
	before := names(All())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := panicText(func() { Register(tc.info) })
			if !strings.Contains(got, tc.want) {
				t.Fatalf("Register panicked with %q, want %q", got, tc.want)
			}
			if after := names(All()); !slices.Equal(after, before) {
				t.Fatalf("games %v after a refused Register, want %v", after, before)
			}
		})
	}
}

// TestRegisterLookupNew: a registered game comes last in All, Lookup
// finds it and every built-in game by name, New hands it the rule
// options, and an unknown name is an error listing the known ones.
func TestRegisterLookupNew(t *testing.T) {
	withGames(t)
	var gotOpts map[string]string
	wantErr := errors.New("refused on purpose")
	Register(fitness.GameInfo{Name: "coin", Summary: "a test game", New: func(opts map[string]string) (fitness.Game, error) {
		gotOpts = opts
		return nil, wantErr
	}})
	if got, want := names(All()), []string{"battleship", "chess", "hadron", "mnk", "coin"}; !slices.Equal(got, want) {
		t.Fatalf("All: %v, want %v", got, want)
	}
	if got := panicText(func() {
		Register(fitness.GameInfo{Name: "coin", New: func(map[string]string) (fitness.Game, error) { return nil, nil }})
	}); !strings.Contains(got, `"coin" registered twice`) {
		t.Fatalf("second Register of coin: panic %q", got)
	}
	for _, name := range []string{"battleship", "chess", "hadron", "mnk", "coin"} {
		info, err := Lookup(name)
		if err != nil || info.Name != name {
			t.Fatalf("Lookup(%q) = %q, %v", name, info.Name, err)
		}
	}
	if info, _ := Lookup("coin"); info.Summary != "a test game" {
		t.Fatalf("Lookup(coin) gave summary %q", info.Summary)
	}
	opts := map[string]string{"draws": "yes"}
	if _, err := New("coin", opts); !errors.Is(err, wantErr) || gotOpts["draws"] != "yes" {
		t.Fatalf("New(coin): err %v, options seen %v", err, gotOpts)
	}
	g, err := New("mnk", map[string]string{"m": "3", "n": "3", "k": "3"})
	if err != nil || g == nil || g.Name() != "mnk" {
		t.Fatalf("New(mnk) = %v, %v", g, err)
	}
	const unknown = `unknown game "go" (known: battleship, chess, hadron, mnk, coin)`
	if _, err := Lookup("go"); err == nil || err.Error() != unknown {
		t.Fatalf("Lookup(go): %v, want %q", err, unknown)
	}
	if g, err := New("go", nil); err == nil || err.Error() != unknown || g != nil {
		t.Fatalf("New(go) = %v, %v, want %q", g, err, unknown)
	}
}

// TestAllIsACopy: changing the slice All returns leaves the catalog as
// it was.
func TestAllIsACopy(t *testing.T) {
	a := All()
	a[0].Name = "changed"
	if got := All()[0].Name; got != "battleship" {
		t.Fatalf("All()[0] is %q after changing a copy", got)
	}
}
