package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/conformance"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
)

// small are rules that keep each catalog game quick to check; a game not
// listed is checked under its defaults.
var small = map[string]map[string]string{
	"battleship": {"size": "6", "fleet": "3,2,2"},
	"chess":      {"random-plies": "6", "max-moves": "20"},
	"hadron":     {"size": "5", "depth": "2"},
	"mnk":        {"m": "3", "n": "3", "k": "3", "depth": "2"},
}

func TestCatalogGamesConform(t *testing.T) {
	for _, info := range catalog.All() {
		t.Run(info.Name, func(t *testing.T) {
			conformance.Run(t, info, conformance.Options{Rules: small[info.Name], Seeds: 4})
		})
	}
}

// TestRuleVariantsConform checks rule sets that change how a game is
// played or what its players are: drop-the-chip m,n,k (with a random
// opening), Hadron under a node budget and with a random opening, Battleship's other reveal rules
// and placer, chess from books with adjudication.
func TestRuleVariantsConform(t *testing.T) {
	for _, tc := range []struct {
		game  string
		rules map[string]string
	}{
		{"mnk", map[string]string{"m": "5", "n": "4", "k": "4", "gravity": "true", "depth": "2", "opening": "2"}},
		{"hadron", map[string]string{"size": "5", "depth": "3", "nodes": "200"}},
		{"hadron", map[string]string{"size": "5", "depth": "2", "opening": "3"}},
		{"battleship", map[string]string{"size": "6", "fleet": "3,2,2", "reveal": "hits-only", "placer": "blockhalf"}},
		{"battleship", map[string]string{"size": "6", "fleet": "3,2,2", "reveal": "ship"}},
		{"chess", map[string]string{"book": "../chess/testdata/book.pgn", "book-plies": "6", "random-plies": "2",
			"resign-moves": "2", "resign-score": "300", "draw-from": "10", "draw-moves": "3", "draw-score": "30", "max-moves": "16"}},
		{"chess", map[string]string{"book": "../chess/testdata/book.epd", "resign-moves": "3", "resign-score": "400",
			"resign-twosided": "true", "max-moves": "16"}},
	} {
		t.Run(fmt.Sprintf("%s %v", tc.game, tc.rules), func(t *testing.T) {
			info, err := catalog.Lookup(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			conformance.Run(t, info, conformance.Options{Rules: tc.rules, Seeds: 3})
		})
	}
}

// TestDefaultBoardsConform checks the full-size boards, whose tunable
// schemas differ (Hadron's depend on the board size); Hadron searches
// shallower than its default, which takes seconds a game.
func TestDefaultBoardsConform(t *testing.T) {
	if testing.Short() {
		t.Skip("full-size boards")
	}
	shallow := map[string]map[string]string{"hadron": {"depth": "1"}}
	for _, info := range catalog.All() {
		t.Run(info.Name, func(t *testing.T) {
			conformance.Run(t, info, conformance.Options{Rules: shallow[info.Name], Seeds: 2})
		})
	}
}

// coin is a well-behaved game; its variants each break one clause.
type coin struct {
	impure    bool // draws from a counter shared by all games
	loose     bool // builds players from values outside its schema
	seatful   bool // between equals, the player built first wins
	undefined bool // lists a player in an undeclared role
	nanSolo   bool // a solo cost that is not a number
	calls     *atomic.Int64
}

type bias struct {
	name string
	p    float64
	id   int64 // build order, when seatful
}

func (b bias) Name() string { return b.name }

var biasSchema = genome.Schema{{Name: "p", Kind: genome.Float, Min: 0, Max: 1, Default: genome.Value{Num: 0.5}}}

func (c coin) Name() string          { return "coin" }
func (c coin) Roles() []fitness.Role { return []fitness.Role{fitness.Mover} }
func (c coin) Players() []fitness.PlayerInfo {
	ps := []fitness.PlayerInfo{
		{Name: "fair", Role: fitness.Mover},
		{Name: "tuned", Role: fitness.Mover, Schema: biasSchema},
	}
	if c.undefined {
		ps = append(ps, fitness.PlayerInfo{Name: "ghost", Role: "spectre"})
	}
	return ps
}
func (c coin) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	if role != fitness.Mover {
		return nil, fmt.Errorf("coin: no %v role", role)
	}
	var id int64
	if c.seatful {
		id = c.calls.Add(1)
	}
	switch name {
	case "fair":
		return bias{"fair", 0.5, id}, nil
	case "tuned":
		if !c.loose {
			if err := fitness.CheckParams(biasSchema, v); err != nil {
				return nil, err
			}
		}
		return bias{"tuned", v.Float("p"), id}, nil
	}
	return nil, fmt.Errorf("coin: unknown player %q", name)
}
func (c coin) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if c.impure {
		seed += uint64(c.calls.Add(1))
	}
	pa, pb := a.(bias).p, b.(bias).p
	if c.seatful && pa == pb {
		if a.(bias).id < b.(bias).id {
			return fitness.Win, nil
		}
		return fitness.Loss, nil
	}
	if fitness.NewRand(seed).Float64()*(pa+pb) < pa {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}
func (c coin) Solo() fitness.Solo { return fitness.Solo{Measure: "flips"} }
func (c coin) PlaySolo(_ context.Context, p, _ fitness.Player, seed uint64) (float64, error) {
	if c.nanSolo {
		return 0 * 1 / (1 - p.(bias).p*2), nil // 0/0 for the fair coin
	}
	return float64(fitness.NewRand(seed).IntN(10)), nil
}

func coinInfo(c coin) fitness.GameInfo {
	c.calls = new(atomic.Int64)
	return fitness.GameInfo{Name: "coin", New: func(opts map[string]string) (fitness.Game, error) {
		if len(opts) > 0 {
			return nil, errors.New("coin: no rule options")
		}
		return c, nil
	}}
}

func TestBreachesAreFound(t *testing.T) {
	tests := []struct {
		name  string
		game  coin
		fails []string // the checks that must fail, the first with want
		want  string
	}{
		{"conforming", coin{}, nil, ""},
		{"impure", coin{impure: true}, []string{"results depend only on players and seed", "seat-swapped pairs agree"}, "then"},
		{"loose schema", coin{loose: true}, []string{"out-of-range parameters refused"}, "p outside [0, 1]"},
		{"identity counts", coin{seatful: true}, []string{"seat-swapped pairs agree"}, "a second build of itself"},
		{"undeclared role", coin{undefined: true}, []string{"declarations", "players build from defaults"}, `role "spectre" is not declared`},
		{"NaN solo", coin{nanSolo: true}, []string{"solo measures finite"}, "flips NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := coinInfo(tc.game)
			for _, c := range conformance.Checks {
				err := c.Run(context.Background(), info, conformance.Options{Seeds: 8})
				switch {
				case len(tc.fails) > 0 && c.Name == tc.fails[0]:
					if err == nil || !strings.Contains(err.Error(), tc.want) {
						t.Errorf("%s: got %v, want a breach mentioning %q", c.Name, err, tc.want)
					}
				case slices.Contains(tc.fails, c.Name):
					if err == nil {
						t.Errorf("%s: no breach found", c.Name)
					}
				case err != nil:
					t.Errorf("%s: unexpected breach: %v", c.Name, err)
				}
			}
		})
	}
}

// TestProtocolExamplesConform runs the suite over the example programs
// that speak the player protocol: Pig in Python, and the Go bridge
// serving built-in games (solo and two-seat).
func TestProtocolExamplesConform(t *testing.T) {
	if testing.Short() {
		t.Skip("starts outside programs")
	}
	bridge := filepath.Join(t.TempDir(), "bridge")
	if out, err := exec.Command("go", "build", "-o", bridge, "../../examples/bridge").CombinedOutput(); err != nil {
		t.Fatalf("go build examples/bridge: %v\n%s", err, out)
	}
	programs := []struct {
		name string
		argv []string
	}{
		{"pig", []string{"python3", "../../examples/pig/pig.py"}},
		{"bridge mnk", []string{bridge, "mnk", "m=3", "n=3", "k=3", "depth=2"}},
		{"bridge hadron", []string{bridge, "hadron", "size=5", "depth=2"}},
		{"bridge battleship solo", []string{bridge, "battleship", "size=6", "fleet=3,2,2"}},
		{"bridge battleship two-seat", []string{bridge, "-two-seat", "battleship", "size=6", "fleet=3,2,2"}},
	}
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			if _, err := exec.LookPath(p.argv[0]); err != nil {
				t.Skipf("%s: %v", p.argv[0], err)
			}
			c := external.Command{Argv: p.argv}
			desc, err := external.Describe(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			conformance.Run(t, desc.Info(c), conformance.Options{Seeds: 3})
		})
	}
}
