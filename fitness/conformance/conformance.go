// Package conformance checks that a game keeps the game contract of
// package fitness, which the engine's guarantees rest on: exact resume and
// worker-count independence need results that depend only on (players,
// seed); common random numbers need seat-swapped pairs that agree; tuning
// needs every listed player to build from its defaults and out-of-range
// parameters to be refused; a solo objective needs costs from 0 to fitness.MaxCost,
// within the game's own declared bounds (fitness.Solo.Admits).
//
// A game's test runs the suite in one line:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, mygame.Info, conformance.Options{})
//	}
//
// evotune runs it over every catalog game and over the protocol's example
// programs; a Go author runs it over a game before registering it.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// Options tune the suite. The zero value checks a game under its default
// rules with 6 seeds per pairing.
type Options struct {
	// Rules are the rule options the game is built with; nil: its defaults.
	// Small rules (a small board, a shallow search) keep the suite fast.
	Rules map[string]string
	// Seeds is the number of seeds each pairing of players is played on;
	// 0 means 6.
	Seeds int
	// Seed is where the seeds of the games are derived from.
	Seed uint64
}

func (o Options) seeds() int {
	if o.Seeds > 0 {
		return o.Seeds
	}
	return 6
}

// A Check is one clause of the contract.
type Check struct {
	Name string
	// Run returns every breach it finds, joined; nil when the game keeps
	// the clause.
	Run func(ctx context.Context, info fitness.GameInfo, o Options) error
}

// Checks are the suite's clauses, in the order Run runs them.
var Checks = []Check{
	{"declarations", onGame(checkDeclarations)},
	{"players build from defaults", onGame(checkDefaults)},
	{"out-of-range parameters refused", onGame(checkOutOfRange)},
	{"results depend only on players and seed", checkPure},
	{"seat-swapped pairs agree", onGame(checkSeats)},
	{"solo measures finite", onGame(checkSolo)},
	{"settings: defaults play as none, unknown ones refused", onGame(checkSettings)},
}

// onGame runs a check on the game built under o's rules, and closes it.
func onGame(check func(context.Context, fitness.GameInfo, fitness.Game, Options) error) func(context.Context, fitness.GameInfo, Options) error {
	return func(ctx context.Context, info fitness.GameInfo, o Options) error {
		g, err := build(info, o)
		if err != nil {
			return err
		}
		defer fitness.Close(g)
		return check(ctx, info, g, o)
	}
}

// Run runs every check as a subtest of t.
func Run(t *testing.T, info fitness.GameInfo, o Options) {
	t.Helper()
	for _, c := range Checks {
		t.Run(c.Name, func(t *testing.T) {
			if err := c.Run(context.Background(), info, o); err != nil {
				t.Error(err)
			}
		})
	}
}

// CheckAll runs every check and returns every breach, joined; nil when the
// game conforms.
func CheckAll(ctx context.Context, info fitness.GameInfo, o Options) error {
	var errs []error
	for _, c := range Checks {
		if err := c.Run(ctx, info, o); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Name, err))
		}
	}
	return errors.Join(errs...)
}

// build opens the game under o's rules; the caller closes it.
func build(info fitness.GameInfo, o Options) (fitness.Game, error) {
	if info.New == nil {
		return nil, fmt.Errorf("%s: no New", info.Name)
	}
	g, err := info.New(o.Rules)
	if err != nil {
		return nil, fmt.Errorf("%s: rules %v: %w", info.Name, o.Rules, err)
	}
	return g, nil
}

var word = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

func checkDeclarations(ctx context.Context, info fitness.GameInfo, g fitness.Game, o Options) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if g.Name() != info.Name {
		bad("the game calls itself %q, registered as %q", g.Name(), info.Name)
	}
	roles := g.Roles()
	first, ok := firstRole(g)
	if !ok {
		bad("no roles")
	}
	for i, r := range roles {
		if !word.MatchString(string(r)) {
			bad("role %q: want a lower-case word", r)
		}
		if slices.Contains(roles[:i], r) {
			bad("role %q declared twice", r)
		}
	}
	type key struct {
		role fitness.Role
		name string
	}
	seen := map[key]bool{}
	players := map[fitness.Role]int{}
	for _, p := range g.Players() {
		k := key{p.Role, p.Name}
		switch {
		case p.Name == "":
			bad("a %v without a name", p.Role)
		case seen[k]:
			bad("%v %q listed twice", p.Role, p.Name)
		case !slices.Contains(roles, p.Role):
			bad("%v %q: role %q is not declared (roles: %v)", p.Role, p.Name, p.Role, roles)
		}
		seen[k] = true
		players[p.Role]++
		if err := p.Schema.Validate(); err != nil {
			bad("%v %q: schema: %v", p.Role, p.Name, err)
		}
	}
	for _, r := range roles {
		if players[r] == 0 {
			bad("role %q has no players", r)
		}
	}
	options := map[string]bool{}
	for _, opt := range info.Options {
		if options[opt.Name] {
			bad("rule option %q declared twice", opt.Name)
		}
		options[opt.Name] = true
	}
	if solo, ok := fitness.SoloOf(g); ok {
		if !word.MatchString(solo.Measure) || solo.Measure == "score" {
			bad("solo measure %q: want a lower-case word other than score", solo.Measure)
		}
		switch {
		case solo.Opponent == "" && solo.DefaultOpponent != "":
			bad("a default solo opponent %q but no opponent role", solo.DefaultOpponent)
		case solo.Opponent != "" && (!slices.Contains(roles, solo.Opponent) || solo.Opponent == first):
			bad("solo opponent role %q: want a declared role other than %q", solo.Opponent, first)
		case solo.Opponent != "":
			if _, err := fitness.ParseSpec(g, solo.Opponent, solo.DefaultOpponent); err != nil {
				bad("default solo opponent %q: %v", solo.DefaultOpponent, err)
			}
		}
		if solo.OpponentRule != "" && !options[solo.OpponentRule] {
			bad("solo opponent rule %q is not a declared rule option", solo.OpponentRule)
		}
		if solo.Only {
			if ps := playersOf(g, first); ok && len(ps) > 0 {
				p, err := g.NewPlayer(first, ps[0].Name, ps[0].Schema.Defaults())
				if err == nil {
					if _, err := g.Play(ctx, p, p, 1); !errors.Is(err, fitness.ErrNoHeadToHead) {
						bad("solo only, but Play returns %v, want fitness.ErrNoHeadToHead", err)
					}
				}
			}
		}
	}
	// Unknown rule options are refused, so a typo is not a silent default.
	if _, err := info.New(map[string]string{"no-such-option-x": "1"}); err == nil {
		bad("an unknown rule option was accepted")
	}
	return errors.Join(errs...)
}

// firstRole is the role of the players the suite plays; ok is false for
// a game that declares no role, which only the declarations check
// reports.
func firstRole(g fitness.Game) (role fitness.Role, ok bool) {
	if roles := g.Roles(); len(roles) > 0 {
		return roles[0], true
	}
	return "", false
}

func playersOf(g fitness.Game, role fitness.Role) []fitness.PlayerInfo {
	var out []fitness.PlayerInfo
	for _, p := range g.Players() {
		if p.Role == role {
			out = append(out, p)
		}
	}
	return out
}

func checkDefaults(ctx context.Context, info fitness.GameInfo, g fitness.Game, o Options) error {
	var errs []error
	for _, p := range g.Players() {
		pl, err := g.NewPlayer(p.Role, p.Name, p.Schema.Defaults())
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%v %q from its defaults: %w", p.Role, p.Name, err))
		case pl == nil:
			errs = append(errs, fmt.Errorf("%v %q: a nil player and no error", p.Role, p.Name))
		}
		if _, err := fitness.ParseSpec(g, p.Role, p.Name); err != nil {
			errs = append(errs, fmt.Errorf("spec %q as a %v: %w", p.Name, p.Role, err))
		}
	}
	roles := g.Roles()
	if len(roles) > 0 {
		if _, err := g.NewPlayer(roles[0], "no-such-player-x", genome.Values{}); err == nil {
			errs = append(errs, errors.New("an unknown player name was built"))
		}
		if ps := playersOf(g, roles[0]); len(ps) > 0 {
			if _, err := g.NewPlayer("no-such-role-x", ps[0].Name, ps[0].Schema.Defaults()); err == nil {
				errs = append(errs, errors.New("a player was built in an undeclared role"))
			}
		}
	}
	return errors.Join(errs...)
}

// checkSettings: a player that declares settings (fitness.Setting) is
// built by a fitness.SettingsGame; with every setting written at its
// default it plays the games it plays without settings (a setting left
// out takes its default); and the game itself refuses a setting the
// player does not declare, so none is ever ignored.
func checkSettings(ctx context.Context, info fitness.GameInfo, g fitness.Game, o Options) error {
	var errs []error
	sg, isSG := g.(fitness.SettingsGame)
	role, ok := firstRole(g)
	for _, p := range g.Players() {
		if len(p.Settings) == 0 {
			continue
		}
		names := map[string]bool{}
		defaults := fitness.Settings{}
		for _, st := range p.Settings {
			if names[st.Name] {
				errs = append(errs, fmt.Errorf("%v %q: setting %q declared twice", p.Role, p.Name, st.Name))
			}
			names[st.Name] = true
			defaults[st.Name] = st.Default
		}
		if !isSG {
			errs = append(errs, fmt.Errorf("%v %q declares settings, but the game is not a fitness.SettingsGame", p.Role, p.Name))
			continue
		}
		if _, err := sg.NewPlayerSettings(p.Role, p.Name, p.Schema.Defaults(), fitness.Settings{"no-such-setting-x": "1"}); err == nil {
			errs = append(errs, fmt.Errorf("%v %q was built with a setting it does not declare", p.Role, p.Name))
		}
		explicit, err := sg.NewPlayerSettings(p.Role, p.Name, p.Schema.Defaults(), defaults)
		if err != nil {
			errs = append(errs, fmt.Errorf("%v %q with its settings' defaults %v: %w", p.Role, p.Name, defaults, err))
			continue
		}
		if !ok || p.Role != role || !fitness.HasHeadToHead(g) {
			continue
		}
		plain, err := g.NewPlayer(p.Role, p.Name, p.Schema.Defaults())
		if err != nil {
			continue // checkDefaults reports it
		}
		for k := range o.seeds() {
			seed := fitness.Derive(o.Seed, 0x73657474, uint64(k)) // "sett"
			a, errA := g.Play(ctx, plain, plain, seed)
			b, errB := g.Play(ctx, explicit, explicit, seed)
			if err := errors.Join(errA, errB); err != nil {
				return err
			}
			if a != b {
				errs = append(errs, fmt.Errorf("%v %q, seed %d: %v without settings, %v with their defaults %v", p.Role, p.Name, seed, a, b, defaults))
			}
		}
	}
	return errors.Join(errs...)
}

// widened returns a copy of schema in which parameter i accepts a value
// its own range refuses, and that value.
func widened(schema genome.Schema, i int) (genome.Schema, genome.Value, bool) {
	wide := slices.Clone(schema)
	p := wide[i]
	span := math.Max(1, p.Max-p.Min)
	var x genome.Value
	switch p.Kind {
	case genome.Float, genome.Int:
		if math.IsInf(p.Max, 0) || math.IsNaN(p.Max) {
			return nil, x, false
		}
		x.Num = math.Ceil(p.Max + span)
		p.Max = x.Num
	case genome.Grid:
		beyond := math.Ceil(p.Max + span)
		x.Cells = make([]float64, p.Rows*p.Cols)
		for c := range x.Cells {
			x.Cells[c] = beyond
		}
		p.Max = beyond
	case genome.Choice:
		x.Str = "no-such-choice-x"
		p.Choices = append(slices.Clone(p.Choices), x.Str)
	default: // Bool: no value outside
		return nil, x, false
	}
	wide[i] = p
	return wide, x, true
}

func checkOutOfRange(ctx context.Context, info fitness.GameInfo, g fitness.Game, o Options) error {
	var errs []error
	for _, p := range g.Players() {
		for i := range p.Schema {
			wide, x, ok := widened(p.Schema, i)
			if !ok {
				continue
			}
			vals, err := wide.Defaults().With(p.Schema[i].Name, x)
			if err != nil {
				return fmt.Errorf("conformance: %v", err) // a bug of the suite
			}
			if _, err := g.NewPlayer(p.Role, p.Name, vals); err == nil {
				errs = append(errs, fmt.Errorf("%v %q built with %s outside %s", p.Role, p.Name, p.Schema[i].Name, p.Schema[i].Range()))
			}
		}
	}
	return errors.Join(errs...)
}

// lineup builds every player of role from its defaults.
func lineup(g fitness.Game, role fitness.Role) ([]fitness.Player, error) {
	var out []fitness.Player
	for _, p := range playersOf(g, role) {
		pl, err := g.NewPlayer(role, p.Name, p.Schema.Defaults())
		if err != nil {
			return nil, fmt.Errorf("%v %q: %w", role, p.Name, err)
		}
		out = append(out, pl)
	}
	return out, nil
}

// match is one game of the suite: players by index in a lineup.
type match struct {
	a, b int
	seed uint64
}

// matches pairs every player with itself and with the next, on every
// seed: each player meets two, so the suite grows with the players, not
// their square.
func matches(n int, o Options) []match {
	var out []match
	for a := range n {
		for _, b := range []int{a, (a + 1) % n} {
			for s := range o.seeds() {
				out = append(out, match{a, b, fitness.Derive(o.Seed, uint64(a), uint64(b), uint64(s))})
			}
			if n == 1 {
				break
			}
		}
	}
	return out
}

// outcomes plays ms on g with players ps, on workers goroutines, in the
// order given.
func outcomes(ctx context.Context, g fitness.Game, ps []fitness.Player, ms []match, workers int) ([]fitness.Outcome, error) {
	return fitness.Parallel(ctx, len(ms), workers, func(i int) (fitness.Outcome, error) {
		m := ms[i]
		o, err := g.Play(ctx, ps[m.a], ps[m.b], m.seed)
		if err != nil {
			return 0, fmt.Errorf("%s vs %s, seed %d: %w", ps[m.a].Name(), ps[m.b].Name(), m.seed, err)
		}
		if o != fitness.Loss && o != fitness.Draw && o != fitness.Win {
			return 0, fmt.Errorf("%s vs %s, seed %d: outcome %v", ps[m.a].Name(), ps[m.b].Name(), m.seed, o)
		}
		return o, nil
	}, nil)
}

// freshPlay builds the game and its first role's players anew and plays
// ms, so state kept in a game or player shows as a different result.
func freshPlay(ctx context.Context, info fitness.GameInfo, o Options, ms []match, workers int, reverse bool) ([]fitness.Outcome, []fitness.Player, error) {
	g, err := build(info, o)
	if err != nil {
		return nil, nil, err
	}
	defer fitness.Close(g)
	role, ok := firstRole(g)
	if !ok {
		return nil, nil, nil
	}
	ps, err := lineup(g, role)
	if err != nil {
		return nil, nil, err
	}
	if ms == nil {
		ms = matches(len(ps), o)
	}
	order := slices.Clone(ms)
	if reverse {
		slices.Reverse(order)
	}
	outs, err := outcomes(ctx, g, ps, order, workers)
	if reverse {
		slices.Reverse(outs)
	}
	return outs, ps, err
}

func checkPure(ctx context.Context, info fitness.GameInfo, o Options) error {
	g, err := build(info, o)
	if err != nil {
		return err
	}
	hasH2H := fitness.HasHeadToHead(g)
	fitness.Close(g)
	if !hasH2H {
		return nil
	}
	// The same games three times: in order on one goroutine; on a fresh
	// game with fresh players, in reverse order, on four; and once more in
	// order. Anything but the seed and the players that reaches a result
	// (a counter, a shared generator, a clock) shows as a difference.
	first, ps, err := freshPlay(ctx, info, o, nil, 1, false)
	if err != nil {
		return err
	}
	ms := matches(len(ps), o)
	second, _, err := freshPlay(ctx, info, o, ms, 4, true)
	if err != nil {
		return err
	}
	third, _, err := freshPlay(ctx, info, o, ms, 1, false)
	if err != nil {
		return err
	}
	var errs []error
	for i, m := range ms {
		if first[i] != second[i] || first[i] != third[i] {
			errs = append(errs, fmt.Errorf("%s vs %s, seed %d: %v, then %v, then %v",
				ps[m.a].Name(), ps[m.b].Name(), m.seed, first[i], second[i], third[i]))
		}
	}
	return errors.Join(errs...)
}

func checkSeats(ctx context.Context, info fitness.GameInfo, g fitness.Game, o Options) error {
	role, ok := firstRole(g)
	if !ok || !fitness.HasHeadToHead(g) {
		return nil
	}
	ps, err := lineup(g, role)
	if err != nil {
		return err
	}
	twins, err := lineup(g, role)
	if err != nil {
		return err
	}
	var errs []error
	for a := range ps {
		b := (a + 1) % len(ps)
		// A pair of games on one deal, seats swapped, seen from a, is the
		// same pair seen from b: b's wins are a's losses.
		n := 2 * o.seeds()
		ab, err := fitness.PlayPairs(ctx, g, ps[a], ps[b], n, o.Seed, 1, nil)
		if err != nil {
			return err
		}
		ba, err := fitness.PlayPairs(ctx, g, ps[b], ps[a], n, o.Seed, 1, nil)
		if err != nil {
			return err
		}
		if ab.Wins != ba.Losses || ab.Draws != ba.Draws || ab.Losses != ba.Wins {
			errs = append(errs, fmt.Errorf("%s vs %s: %d-%d-%d, but seen from %s %d-%d-%d",
				ps[a].Name(), ps[b].Name(), ab.Wins, ab.Draws, ab.Losses, ps[b].Name(), ba.Wins, ba.Draws, ba.Losses))
		}
		// Two builds of one player are the same player: swapping them
		// changes nothing, seen from the first seat.
		for s := range o.seeds() {
			seed := fitness.Derive(o.Seed, 99, uint64(a), uint64(s))
			x, err := g.Play(ctx, ps[a], twins[a], seed)
			if err != nil {
				return err
			}
			y, err := g.Play(ctx, twins[a], ps[a], seed)
			if err != nil {
				return err
			}
			if x != y {
				errs = append(errs, fmt.Errorf("%s against a second build of itself, seed %d: %v, seats swapped %v",
					ps[a].Name(), seed, x, y))
			}
		}
	}
	return errors.Join(errs...)
}

func checkSolo(ctx context.Context, info fitness.GameInfo, g fitness.Game, o Options) error {
	sg, ok := g.(fitness.SoloGame)
	if !ok {
		return nil
	}
	role, ok := firstRole(g)
	if !ok {
		return nil
	}
	solo := sg.Solo()
	ps, err := lineup(g, role)
	if err != nil {
		return err
	}
	opps := []fitness.Player{nil}
	if solo.Opponent != "" {
		if opps, err = lineup(g, solo.Opponent); err != nil {
			return err
		}
		def, err := fitness.ParseSpec(g, solo.Opponent, solo.DefaultOpponent)
		if err != nil {
			return fmt.Errorf("default opponent: %w", err)
		}
		opps = append(opps, def)
	}
	var errs []error
	for i, p := range ps {
		for _, opp := range []fitness.Player{opps[i%len(opps)], opps[len(opps)-1]} {
			name := "alone"
			if opp != nil {
				name = "against " + opp.Name()
			}
			for s := range o.seeds() {
				seed := fitness.Derive(o.Seed, 7, uint64(i), uint64(s))
				x, err := sg.PlaySolo(ctx, p, opp, seed)
				if err != nil {
					return fmt.Errorf("%s %s, seed %d: %w", p.Name(), name, seed, err)
				}
				y, err := sg.PlaySolo(ctx, p, opp, seed)
				if err != nil {
					return fmt.Errorf("%s %s, seed %d: %w", p.Name(), name, seed, err)
				}
				switch {
				case !solo.Admits(x):
					errs = append(errs, fmt.Errorf("%s %s, seed %d: %s %v, not %s", p.Name(), name, seed, solo.Measure, x, solo.Bounds()))
				case x != y:
					errs = append(errs, fmt.Errorf("%s %s, seed %d: %s %v, then %v", p.Name(), name, seed, solo.Measure, x, y))
				}
			}
		}
	}
	return errors.Join(errs...)
}
