package main_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/conformance"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
)

var bridge string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bridge")
	if err != nil {
		panic(err)
	}
	bridge = filepath.Join(dir, "bridge")
	build := exec.Command("go", "build", "-o", bridge, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the bridge:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cases are built-in games under small rules, offered through the bridge.
var cases = []struct {
	name  string
	game  string
	rules map[string]string
	two   bool // -two-seat
}{
	{"tic-tac-toe", "mnk", map[string]string{"depth": "2"}, false},
	{"mnk 5x5x4", "mnk", map[string]string{"m": "5", "n": "5", "k": "4", "depth": "2"}, false},
	{"hadron 5", "hadron", map[string]string{"size": "5", "depth": "2"}, false},
	{"battleship solo", "battleship", map[string]string{"size": "7", "fleet": "4,3,2"}, false},
	{"battleship head to head", "battleship", map[string]string{"size": "7", "fleet": "4,3,2"}, true},
}

func command(game string, rules map[string]string, two bool) external.Command {
	argv := []string{bridge}
	if two {
		argv = append(argv, "-two-seat")
	}
	argv = append(argv, game)
	for _, k := range []string{"m", "n", "k", "size", "fleet", "depth"} {
		if v, ok := rules[k]; ok {
			argv = append(argv, k+"="+v)
		}
	}
	return external.Command{Argv: argv}
}

// lineup is every player of role in g: the defaults, and tunable ones
// once more with random values, so that every kind of value crosses the
// protocol.
func lineup(t *testing.T, g fitness.Game, role fitness.Role, seed uint64) []fitness.Player {
	t.Helper()
	var ps []fitness.Player
	rng := fitness.NewRand(seed)
	for _, info := range g.Players() {
		if info.Role != role {
			continue
		}
		vals := []genome.Values{info.Schema.Defaults()}
		if info.Tunable() {
			space, err := genome.NewSpace(info.Schema, nil)
			if err != nil {
				t.Fatal(err)
			}
			v, err := space.Decode(space.Random(rng))
			if err != nil {
				t.Fatal(err)
			}
			vals = append(vals, v)
		}
		for _, v := range vals {
			p, err := g.NewPlayer(role, info.Name, v)
			if err != nil {
				continue // the bridge leaves out what these rules cannot build
			}
			ps = append(ps, p)
		}
	}
	return ps
}

// Every game through the bridge gives exactly the built-in game's result:
// same outcome or cost for the same players and seed.
func TestSameResultsAsBuiltin(t *testing.T) {
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			info, _ := catalog.Lookup(tc.game)
			in, err := info.New(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			c := command(tc.game, tc.rules, tc.two)
			d, err := external.Describe(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			out, err := d.Info(c).New(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fitness.Close(out)
			role := in.Roles()[0]
			pin, pout := lineup(t, in, role, 5), lineup(t, out, role, 5)
			if len(pin) != len(pout) || len(pin) < 2 {
				t.Fatalf("%d built-in players, %d through the bridge", len(pin), len(pout))
			}
			games, differ := 0, 0
			if sg, ok := out.(fitness.SoloGame); ok {
				solo := sg.Solo()
				oin, oout := lineup(t, in, solo.Opponent, 6), lineup(t, out, solo.Opponent, 6)
				for i := range pin {
					for j := range oin {
						for s := range uint64(3) {
							seed := fitness.Derive(11, uint64(i), uint64(j), s)
							want, err1 := in.(fitness.SoloGame).PlaySolo(ctx, pin[i], oin[j], seed)
							got, err2 := sg.PlaySolo(ctx, pout[i], oout[j], seed)
							if err1 != nil || err2 != nil {
								t.Fatal(err1, err2)
							}
							games++
							if got != want {
								differ++
								t.Errorf("%s vs %s, seed %d: %v shots through the bridge, %v built in", pin[i].Name(), oin[j].Name(), seed, got, want)
							}
						}
					}
				}
			} else {
				for i := range pin {
					for j := range pin {
						for s := range uint64(2) {
							seed := fitness.Derive(12, uint64(i), uint64(j), s)
							want, err1 := in.Play(ctx, pin[i], pin[j], seed)
							got, err2 := out.Play(ctx, pout[i], pout[j], seed)
							if err1 != nil || err2 != nil {
								t.Fatal(err1, err2)
							}
							games++
							if got != want {
								differ++
								t.Errorf("%s vs %s, seed %d: %v through the bridge, %v built in", pin[i].Name(), pin[j].Name(), seed, got, want)
							}
						}
					}
				}
			}
			t.Logf("%d games, %d differ", games, differ)
		})
	}
}

// The bridge's games keep the game contract, as the built-in ones do.
func TestConformance(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := command(tc.game, tc.rules, tc.two)
			c.Audit = 0.1
			d, err := external.Describe(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			conformance.Run(t, d.Info(c), conformance.Options{Seeds: 3})
		})
	}
}
