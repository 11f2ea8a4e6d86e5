package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/conformance"
	"github.com/evotune/evotune/genome"
)

// fake is a game whose declarations and behaviour a test sets field by
// field, each field breaking one clause of the contract. Its zero value
// (with the defaults below) conforms: two players of one role, a fair
// coin, pure.
type fake struct {
	name    string               // Name(); "" is "fake"
	roles   []fitness.Role       // nil: mover
	players []fitness.PlayerInfo // nil: fair and tuned, movers
	// build, when set, replaces NewPlayer's checks.
	build func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error)
	// play, when set, replaces Play.
	play func(a, b fitness.Player, seed uint64) (fitness.Outcome, error)
}

// fakeSolo is a fake with a solo measure.
type fakeSolo struct {
	*fake
	solo fitness.Solo
	// cost, when set, replaces PlaySolo's cost.
	cost func(p, opp fitness.Player, seed uint64) float64
}

type coinPlayer struct {
	name string
	role fitness.Role
	p    float64
}

func (c coinPlayer) Name() string { return c.name }

var tunedSchema = genome.Schema{
	{Name: "p", Kind: genome.Float, Min: 0.25, Max: 0.75, Default: genome.Value{Num: 0.5}},
	{Name: "k", Kind: genome.Int, Min: 1, Max: 9, Default: genome.Value{Num: 3}},
	{Name: "b", Kind: genome.Bool, Default: genome.Value{Num: 1}},
	{Name: "s", Kind: genome.Choice, Choices: []string{"x", "y"}, Default: genome.Value{Str: "x"}},
	{Name: "g", Kind: genome.Grid, Rows: 1, Cols: 2, Min: -1, Max: 1, Symmetry: genome.Full, Default: genome.Value{Cells: []float64{0, 0}}},
}

func (f *fake) Name() string {
	if f.name == "" {
		return "fake"
	}
	return f.name
}

func (f *fake) Roles() []fitness.Role {
	if f.roles == nil {
		return []fitness.Role{fitness.Mover}
	}
	return f.roles
}

func (f *fake) Players() []fitness.PlayerInfo {
	if f.players == nil {
		return []fitness.PlayerInfo{
			{Name: "fair", Role: fitness.Mover},
			{Name: "tuned", Role: fitness.Mover, Schema: tunedSchema},
		}
	}
	return f.players
}

// strictBuild is NewPlayer of a conforming game: a declared player of a
// declared role, with values of its schema.
func strictBuild(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	for _, p := range f.Players() {
		if p.Name == name && p.Role == role {
			if err := fitness.CheckParams(p.Schema, v); err != nil {
				return nil, err
			}
			x := 0.5
			if len(p.Schema) > 0 {
				x = v.Float("p")
			}
			return coinPlayer{name, role, x}, nil
		}
	}
	return nil, fmt.Errorf("fake: unknown %v %q", role, name)
}

func (f *fake) NewPlayer(role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	if f.build != nil {
		return f.build(f, role, name, v)
	}
	return strictBuild(f, role, name, v)
}

func (f *fake) Play(_ context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if f.play != nil {
		return f.play(a, b, seed)
	}
	ca, _ := a.(coinPlayer) // a nil player, for a game that builds them, plays as p = 0
	cb, _ := b.(coinPlayer)
	pa, pb := ca.p, cb.p
	if fitness.NewRand(seed).Float64()*(pa+pb) < pa {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}

func (f *fakeSolo) Solo() fitness.Solo { return f.solo }

func (f *fakeSolo) Play(ctx context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if f.solo.Only && f.play == nil {
		return 0, fitness.ErrNoHeadToHead
	}
	return f.fake.Play(ctx, a, b, seed)
}

func (f *fakeSolo) PlaySolo(_ context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	if f.cost != nil {
		return f.cost(p, opp, seed), nil
	}
	return float64(fitness.NewRand(seed).IntN(10)), nil
}

// fakeInfo registers g under name with rule options opts; New refuses
// any option it does not declare, unless lax.
func fakeInfo(name string, g fitness.Game, opts []fitness.Option, lax bool) fitness.GameInfo {
	return fitness.GameInfo{Name: name, Options: opts, New: func(rules map[string]string) (fitness.Game, error) {
		for k := range rules {
			if !lax && !declared(opts, k) {
				return nil, fmt.Errorf("fake: unknown rule option %q", k)
			}
		}
		return g, nil
	}}
}

func declared(opts []fitness.Option, name string) bool {
	for _, o := range opts {
		if o.Name == name {
			return true
		}
	}
	return false
}

// breaches runs every check on info and returns each check's error
// text, by check name ("" when the check passes).
func breaches(t *testing.T, info fitness.GameInfo, o conformance.Options) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range conformance.Checks {
		if err := c.Run(context.Background(), info, o); err != nil {
			out[c.Name] = err.Error()
		} else {
			out[c.Name] = ""
		}
	}
	return out
}

const (
	declarations = "declarations"
	defaults     = "players build from defaults"
	outOfRange   = "out-of-range parameters refused"
	pure         = "results depend only on players and seed"
	seats        = "seat-swapped pairs agree"
	soloFinite   = "solo measures finite"
)

// expect checks that exactly the checks named in want fail, each with
// every one of its wanted messages in its error.
func expect(t *testing.T, got map[string]string, want map[string][]string) {
	t.Helper()
	for name, msg := range got {
		wanted, ok := want[name]
		switch {
		case !ok && msg != "":
			t.Errorf("%s: unexpected breach: %s", name, msg)
		case ok && msg == "":
			t.Errorf("%s: no breach found, want %q", name, wanted)
		}
		for _, w := range wanted {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q, want it to say %q", name, msg, w)
			}
		}
	}
}

func looseBuild(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
	for _, p := range f.Players() {
		if p.Name == name && p.Role == role {
			return coinPlayer{name, role, 0.5}, nil
		}
	}
	return nil, fmt.Errorf("fake: unknown %v %q", role, name)
}

// TestDeclarationBreaches: each way a game can declare itself wrongly is
// found by the declarations check, and by no check that does not bear
// on it.
func TestDeclarationBreaches(t *testing.T) {
	mover := fitness.Mover
	fair := fitness.PlayerInfo{Name: "fair", Role: mover}
	tests := []struct {
		name string
		info func() fitness.GameInfo
		want map[string][]string
	}{
		{"conforming", func() fitness.GameInfo { return fakeInfo("fake", &fake{}, nil, false) }, nil},
		{"registered under another name", func() fitness.GameInfo { return fakeInfo("other", &fake{}, nil, false) },
			map[string][]string{declarations: {`the game calls itself "fake", registered as "other"`}}},
		{"no roles", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{roles: []fitness.Role{}, players: []fitness.PlayerInfo{}}, nil, false)
		}, map[string][]string{declarations: {"no roles"}}},
		{"role not a word", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{roles: []fitness.Role{"Mover"}, players: []fitness.PlayerInfo{{Name: "fair", Role: "Mover"}}}, nil, false)
		}, map[string][]string{declarations: {`role "Mover": want a lower-case word`}}},
		{"role twice", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{roles: []fitness.Role{mover, mover}, players: []fitness.PlayerInfo{fair}}, nil, false)
		}, map[string][]string{declarations: {`role "mover" declared twice`}}},
		{"player without a name", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{players: []fitness.PlayerInfo{fair, {Role: mover}}}, nil, false)
		}, map[string][]string{declarations: {"a mover without a name"}, defaults: {`spec "" as a mover`}}},
		{"player twice", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{players: []fitness.PlayerInfo{fair, fair}}, nil, false)
		}, map[string][]string{declarations: {`mover "fair" listed twice`}}},
		{"player of an undeclared role", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{players: []fitness.PlayerInfo{fair, {Name: "ghost", Role: "spectre"}}}, nil, false)
		}, map[string][]string{declarations: {`spectre "ghost": role "spectre" is not declared (roles: [mover])`}}},
		{"invalid schema", func() fitness.GameInfo {
			bad := genome.Schema{{Name: "p", Kind: genome.Float, Min: 2, Max: 1, Default: genome.Value{Num: 1}}}
			return fakeInfo("fake", &fake{players: []fitness.PlayerInfo{fair, {Name: "odd", Role: mover, Schema: bad}}}, nil, false)
		}, map[string][]string{declarations: {`mover "odd": schema: genome: p: bad range [2, 1]`}, defaults: {`mover "odd" from its defaults`},
			pure: {`mover "odd": fitness: p: 1 is outside [2, 1]`}, seats: {`mover "odd"`}}},
		{"role without players", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{roles: []fitness.Role{mover, "placer"}}, nil, false)
		}, map[string][]string{declarations: {`role "placer" has no players`}}},
		{"rule option twice", func() fitness.GameInfo {
			return fakeInfo("fake", &fake{}, []fitness.Option{{Name: "size"}, {Name: "depth"}, {Name: "size"}}, false)
		}, map[string][]string{declarations: {`rule option "size" declared twice`}}},
		{"unknown rule option accepted", func() fitness.GameInfo { return fakeInfo("fake", &fake{}, nil, true) },
			map[string][]string{declarations: {"an unknown rule option was accepted"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, breaches(t, tc.info(), conformance.Options{Seeds: 2}), tc.want)
		})
	}
}

// TestSoloDeclarationBreaches: the solo declaration's clauses.
func TestSoloDeclarationBreaches(t *testing.T) {
	mover := fitness.Mover
	two := func() *fake {
		return &fake{roles: []fitness.Role{mover, "placer"}, players: []fitness.PlayerInfo{
			{Name: "fair", Role: mover}, {Name: "tuned", Role: mover, Schema: tunedSchema}, {Name: "random", Role: "placer"}}}
	}
	solo := func(s fitness.Solo) *fakeSolo { return &fakeSolo{fake: &fake{}, solo: s} }
	tests := []struct {
		name string
		game fitness.Game
		opts []fitness.Option
		want map[string][]string
	}{
		{"conforming, alone", solo(fitness.Solo{Measure: "flips"}), nil, nil},
		{"conforming, solo only", solo(fitness.Solo{Measure: "flips", Only: true}), nil, nil},
		{"conforming, against a placer", &fakeSolo{fake: two(), solo: fitness.Solo{Measure: "shots", Opponent: "placer",
			DefaultOpponent: "random", OpponentRule: "placer"}}, []fitness.Option{{Name: "placer"}}, nil},
		{"measure not a word", solo(fitness.Solo{Measure: "Flips"}), nil,
			map[string][]string{declarations: {`solo measure "Flips": want a lower-case word other than score`}}},
		{"measure score", solo(fitness.Solo{Measure: "score"}), nil,
			map[string][]string{declarations: {`solo measure "score"`}}},
		{"default opponent without a role", solo(fitness.Solo{Measure: "flips", DefaultOpponent: "fair"}), nil,
			map[string][]string{declarations: {`a default solo opponent "fair" but no opponent role`}}},
		{"opponent role undeclared", solo(fitness.Solo{Measure: "flips", Opponent: "placer", DefaultOpponent: "fair"}), nil,
			map[string][]string{declarations: {`solo opponent role "placer": want a declared role other than "mover"`},
				soloFinite: {`default opponent: fake: unknown placer "fair"`}}},
		{"opponent of the measured role", solo(fitness.Solo{Measure: "flips", Opponent: mover, DefaultOpponent: "fair"}), nil,
			map[string][]string{declarations: {`solo opponent role "mover": want a declared role other than "mover"`}}},
		{"default opponent unknown", &fakeSolo{fake: two(), solo: fitness.Solo{Measure: "shots", Opponent: "placer", DefaultOpponent: "smart"}}, nil,
			map[string][]string{declarations: {`default solo opponent "smart": fake: unknown placer "smart"`}, soloFinite: {`default opponent: fake: unknown placer "smart"`}}},
		{"opponent rule undeclared", &fakeSolo{fake: two(), solo: fitness.Solo{Measure: "shots", Opponent: "placer",
			DefaultOpponent: "random", OpponentRule: "placer"}}, []fitness.Option{{Name: "size"}},
			map[string][]string{declarations: {`solo opponent rule "placer" is not a declared rule option`}}},
		{"solo only, no player of the measured role", &fakeSolo{fake: &fake{roles: []fitness.Role{mover, "placer"},
			players: []fitness.PlayerInfo{{Name: "random", Role: "placer"}}},
			solo: fitness.Solo{Measure: "flips", Only: true, Opponent: "placer", DefaultOpponent: "random"}}, nil,
			map[string][]string{declarations: {`role "mover" has no players`}}},
		{"solo only plays head to head", &fakeSolo{fake: &fake{play: func(fitness.Player, fitness.Player, uint64) (fitness.Outcome, error) {
			return fitness.Win, nil
		}}, solo: fitness.Solo{Measure: "flips", Only: true}}, nil,
			map[string][]string{declarations: {"solo only, but Play returns <nil>, want fitness.ErrNoHeadToHead"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, breaches(t, fakeInfo("fake", tc.game, tc.opts, false), conformance.Options{Seeds: 2}), tc.want)
		})
	}
}

// TestPlayerBreaches: players that do not build from their defaults,
// that build where they should not, or that take values outside their
// schema.
func TestPlayerBreaches(t *testing.T) {
	build := func(b func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error)) fitness.GameInfo {
		return fakeInfo("fake", &fake{build: b}, nil, false)
	}
	tests := []struct {
		name string
		info fitness.GameInfo
		want map[string][]string
	}{
		{"defaults refused", build(func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
			if name == "tuned" {
				return nil, errors.New("no")
			}
			return strictBuild(f, role, name, v)
		}), map[string][]string{defaults: {`mover "tuned" from its defaults: no`, `spec "tuned" as a mover: no`},
			pure: {`mover "tuned": no`}, seats: {`mover "tuned": no`}}},
		{"nil player", build(func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
			if name == "tuned" {
				return nil, nil
			}
			return strictBuild(f, role, name, v)
		}), map[string][]string{defaults: {`mover "tuned": a nil player and no error`}, outOfRange: {`mover "tuned" built with p outside`}}},
		{"any name builds", build(func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
			if role == fitness.Mover && name != "fair" && name != "tuned" {
				return coinPlayer{name, role, 0.5}, nil
			}
			return strictBuild(f, role, name, v)
		}), map[string][]string{defaults: {"an unknown player name was built"}}},
		{"any role builds", build(func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
			return strictBuild(f, fitness.Mover, name, v)
		}), map[string][]string{defaults: {"a player was built in an undeclared role"}}},
		{"values outside the schema", build(looseBuild),
			map[string][]string{outOfRange: {"mover \"tuned\" built with p outside [0.25, 0.75]", "k outside [1, 9]", "s outside x|y", "g outside 1x2 full in [-1, 1]"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, breaches(t, tc.info, conformance.Options{Seeds: 2}), tc.want)
		})
	}
}

// TestOutOfRangeValues: the values the suite tries are just outside each
// range, by at least 1 (an int's next integer, a float's range span
// past its top), for ranges narrow, wide and negative; a game that
// accepts up to one step too far is found.
func TestOutOfRangeValues(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max float64
		tried    float64 // the value the suite must try
	}{
		{"unit", 0, 1, 2},
		{"narrow", 0.25, 0.75, 2},
		{"wide", -10, 30, 70},
		{"negative", -5, -3, -1},
		{"fraction above", 0.5, 2.25, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := genome.Schema{{Name: "p", Kind: genome.Float, Min: tc.min, Max: tc.max, Default: genome.Value{Num: tc.max}}}
			var tried []float64
			g := &fake{players: []fitness.PlayerInfo{{Name: "tuned", Role: fitness.Mover, Schema: schema}},
				build: func(f *fake, role fitness.Role, name string, v genome.Values) (fitness.Player, error) {
					x := v.Float("p")
					if x > tc.max {
						tried = append(tried, x)
					}
					return coinPlayer{name, role, 0.5}, nil
				}}
			err := conformance.Checks[2].Run(context.Background(), fakeInfo("fake", g, nil, false), conformance.Options{})
			if err == nil || len(tried) != 1 || tried[0] != tc.tried {
				t.Fatalf("tried %v (%v), want %v", tried, err, tc.tried)
			}
		})
	}
	t.Run("unbounded", func(t *testing.T) {
		schema := genome.Schema{{Name: "p", Kind: genome.Float, Min: 0, Max: math.Inf(1), Default: genome.Value{Num: 1}}}
		g := &fake{players: []fitness.PlayerInfo{{Name: "tuned", Role: fitness.Mover, Schema: schema}}, build: looseBuild}
		if err := conformance.Checks[2].Run(context.Background(), fakeInfo("fake", g, nil, false), conformance.Options{}); err != nil {
			t.Fatalf("a range without a top: %v", err)
		}
	})
}

// TestSoloBreaches: solo costs that are not finite, or that change
// between two plays of one game, against every opponent.
func TestSoloBreaches(t *testing.T) {
	mover := fitness.Mover
	twoRoles := func() *fake {
		return &fake{roles: []fitness.Role{mover, "placer"}, players: []fitness.PlayerInfo{
			{Name: "fair", Role: mover}, {Name: "tuned", Role: mover, Schema: tunedSchema},
			{Name: "random", Role: "placer"}, {Name: "edge", Role: "placer"}}}
	}
	placer := fitness.Solo{Measure: "shots", Opponent: "placer", DefaultOpponent: "random"}
	calls := 0
	tests := []struct {
		name string
		game *fakeSolo
		want map[string][]string
	}{
		{"infinite", &fakeSolo{fake: &fake{}, solo: fitness.Solo{Measure: "flips"}, cost: func(p, _ fitness.Player, _ uint64) float64 {
			if p.Name() == "tuned" {
				return math.Inf(1)
			}
			return 1
		}}, map[string][]string{soloFinite: {"tuned alone, seed", ": flips +Inf"}}},
		{"negative", &fakeSolo{fake: &fake{}, solo: fitness.Solo{Measure: "flips"}, cost: func(p, _ fitness.Player, _ uint64) float64 {
			if p.Name() == "tuned" {
				return -2 // a cost is 0 or more: the engine stops a run on less
			}
			return 0
		}}, map[string][]string{soloFinite: {"tuned alone, seed", ": flips -2"}}},
		{"changes between plays", &fakeSolo{fake: &fake{}, solo: fitness.Solo{Measure: "flips"}, cost: func(fitness.Player, fitness.Player, uint64) float64 {
			calls++
			return float64(calls)
		}}, map[string][]string{soloFinite: {"fair alone, seed", ": flips 1, then 2"}}},
		{"NaN against one placer", &fakeSolo{fake: twoRoles(), solo: placer, cost: func(_, opp fitness.Player, _ uint64) float64 {
			if opp.Name() == "edge" {
				return math.NaN()
			}
			return 3
		}}, map[string][]string{soloFinite: {"tuned against edge, seed", ": shots NaN"}}},
		{"NaN against random, also the default", &fakeSolo{fake: twoRoles(), solo: placer, cost: func(_, opp fitness.Player, seed uint64) float64 {
			if opp.Name() == "random" && opp.(coinPlayer).role == "placer" {
				return math.NaN()
			}
			return 3
		}}, map[string][]string{soloFinite: {"fair against random, seed", ": shots NaN"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, breaches(t, fakeInfo("fake", tc.game, nil, false), conformance.Options{Seeds: 2}), tc.want)
		})
	}
}

// TestCheckAll: every breach, under the name of its check, one line per
// check; nil for a game that conforms.
func TestCheckAll(t *testing.T) {
	if err := conformance.CheckAll(context.Background(), fakeInfo("fake", &fake{}, nil, false), conformance.Options{Seeds: 2}); err != nil {
		t.Fatalf("a conforming game: %v", err)
	}
	err := conformance.CheckAll(context.Background(), fakeInfo("other", &fake{}, nil, true), conformance.Options{Seeds: 2})
	want := `declarations: the game calls itself "fake", registered as "other"` + "\nan unknown rule option was accepted"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
	if err := conformance.Checks[0].Run(context.Background(), fitness.GameInfo{Name: "bare"}, conformance.Options{}); err == nil || err.Error() != "bare: no New" {
		t.Fatalf("a game without New: %v", err)
	}
	rules := map[string]string{"size": "9"}
	if err := conformance.Checks[0].Run(context.Background(), fakeInfo("fake", &fake{}, nil, false), conformance.Options{Rules: rules}); err == nil ||
		err.Error() != `fake: rules map[size:9]: fake: unknown rule option "size"` {
		t.Fatalf("rules the game refuses: %v", err)
	}
}

// TestGamesPlayed: the purity check plays every player against itself
// and the next on Options.Seeds seeds (6 when 0), three times over; a
// lone player only against itself.
func TestGamesPlayed(t *testing.T) {
	fair := fitness.PlayerInfo{Name: "fair", Role: fitness.Mover}
	for _, tc := range []struct {
		name    string
		players []fitness.PlayerInfo
		seeds   int
		want    int64
	}{
		{"two players, default seeds", []fitness.PlayerInfo{fair, {Name: "tuned", Role: fitness.Mover, Schema: tunedSchema}}, 0, 3 * 2 * 2 * 6},
		{"two players, 3 seeds", []fitness.PlayerInfo{fair, {Name: "tuned", Role: fitness.Mover, Schema: tunedSchema}}, 3, 3 * 2 * 2 * 3},
		{"one player", []fitness.PlayerInfo{fair}, 0, 3 * 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var played atomic.Int64
			count := &fake{players: tc.players, play: func(fitness.Player, fitness.Player, uint64) (fitness.Outcome, error) {
				played.Add(1)
				return fitness.Draw, nil
			}}
			if err := conformance.Checks[3].Run(context.Background(), fakeInfo("fake", count, nil, false), conformance.Options{Seeds: tc.seeds}); err != nil {
				t.Fatal(err)
			}
			if got := played.Load(); got != tc.want {
				t.Fatalf("%d games, want %d", got, tc.want)
			}
		})
	}
}
