package external

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/genome"
)

// Description is what a program offers, as announced in its hello.
type Description struct {
	Protocol int
	Game     string
	Summary  string
	// Solo is true when a game measures seat 0 alone and returns its cost
	// (lower is better); otherwise a game has two seats and its outcome
	// is a win, draw or loss seen from seat 0.
	Solo bool
	// Measure names a solo game's cost ("turns"); "cost" if unnamed.
	Measure string
	// Opponent is the player a solo game's seat 0 meets when none is
	// named: a player of another role. "" when solo games have one seat.
	Opponent string
	Options  []Option
	Roles    []string // in the program's order
	Players  []PlayerDesc
}

// Option is one rule option of the program's game, or one setting of a
// player.
type Option struct {
	Name, Default, Summary string
	Choices                []string // the legal values; nil = any
}

// summary is the summary with the choices, for `evotune games`.
func (o Option) summary() string {
	if o.Choices == nil {
		return o.Summary
	}
	return strings.TrimSpace(o.Summary + " (" + strings.Join(o.Choices, " | ") + ")")
}

// PlayerDesc is one player the program offers.
type PlayerDesc struct {
	Name    string
	Role    string
	Summary string
	Schema  genome.Schema // empty when the player has nothing to tune
	// Settings are the player's own settings (a search depth), which a
	// player SPEC sets after @; empty when it has none.
	Settings []Option
}

// Player returns the player called name in role ("" = any role).
func (d *Description) Player(role, name string) (*PlayerDesc, bool) {
	for i := range d.Players {
		if d.Players[i].Name == name && (role == "" || d.Players[i].Role == role) {
			return &d.Players[i], true
		}
	}
	return nil, false
}

// MarshalJSON writes the description as the program's hello would, in a
// canonical form: what a checkpoint stores to notice a changed program.
func (d *Description) MarshalJSON() ([]byte, error) {
	return json.Marshal(d.offer())
}

func (d *Description) offer() wire.Offer {
	o := wire.Offer{
		Type: wire.TypeHello, Protocol: d.Protocol, Game: d.Game, Summary: d.Summary,
		Mode: wire.ModeTwoSeat, Measure: d.Measure, Opponent: d.Opponent,
		Options: []wire.Option{}, Roles: d.Roles, Players: []wire.Player{},
	}
	if d.Solo {
		o.Mode = wire.ModeSolo
	}
	for _, op := range d.Options {
		o.Options = append(o.Options, wire.Option{Name: op.Name, Default: op.Default, Summary: op.Summary, Choices: op.Choices})
	}
	for _, p := range d.Players {
		wp := wire.Player{Name: p.Name, Role: p.Role, Summary: p.Summary, Params: []wire.Param{}}
		for _, q := range p.Schema {
			wp.Params = append(wp.Params, wire.WireParam(q))
		}
		for _, st := range p.Settings {
			wp.Settings = append(wp.Settings, wire.Option{Name: st.Name, Default: st.Default, Summary: st.Summary, Choices: st.Choices})
		}
		o.Players = append(o.Players, wp)
	}
	return o
}

// Describe starts the program, does the hello handshake, stops the
// program and returns what it offers. Every failure is a *SetupError.
func Describe(ctx context.Context, c Command) (*Description, error) {
	if err := c.check(); err != nil {
		return nil, &SetupError{Argv: c.Argv, Msg: err.Error()}
	}
	p, d, err := open(ctx, c, newSink(c.Stderr), nil)
	if p != nil {
		p.kill()
	}
	return d, err
}

// open starts the program and does the handshake. On failure the process
// (if any) is returned too, killed, for its stderr tail.
// started, if not nil, is told of the process before the handshake, so
// that a Close during a slow handshake can kill it.
func open(ctx context.Context, c Command, sink *syncWriter, started func(*proc) error) (*proc, *Description, error) {
	p, err := start(c, sink)
	if err != nil {
		return nil, nil, &SetupError{Argv: c.Argv, Msg: "cannot start", Err: err}
	}
	if started != nil {
		if err := started(p); err != nil {
			p.kill()
			return p, nil, err
		}
	}
	d, err := handshake(ctx, p, c.startup())
	if err != nil {
		p.kill()
		msg := err.Error()
		if errors.Is(err, errNoHello) {
			msg += " (" + p.exitText() + ")"
		}
		return p, nil, &SetupError{Argv: c.Argv, Msg: "handshake: " + msg, StderrTail: p.stderrTail(), TailShown: c.StderrShown}
	}
	return p, d, nil
}

var errNoHello = errors.New("no hello")

// lowerWord is the form of roles and measures, which configs use as keys.
var lowerWord = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

func handshake(ctx context.Context, p *proc, timeout time.Duration) (*Description, error) {
	hello, _ := json.Marshal(wire.Hello{Type: wire.TypeHello, Protocol: wire.Version})
	p.in <- append(hello, '\n')
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			return nil, fmt.Errorf("%w: %v", errNoHello, p.readErr)
		}
		return parseOffer(line)
	case <-t.C:
		return nil, fmt.Errorf("no hello within %v", timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// ParseDescription reads back a description as MarshalJSON wrote it (a
// checkpoint keeps one), checked as a program's hello is: so a run's
// game can be described without starting its program.
func ParseDescription(data []byte) (*Description, error) {
	d, err := parseOffer(data)
	if err != nil {
		return nil, fmt.Errorf("external: recorded description: %w", err)
	}
	return d, nil
}

// parseOffer reads and checks the program's hello line.
func parseOffer(line []byte) (*Description, error) {
	var o wire.Offer
	if err := json.Unmarshal(line, &o); err != nil {
		return nil, fmt.Errorf("the answer to hello is not a JSON object (%v): %s", err, clip(line))
	}
	switch o.Type {
	case wire.TypeHello:
	case wire.TypeError:
		return nil, fmt.Errorf("the program refused: %s", o.Error)
	default:
		return nil, fmt.Errorf("the answer to hello has type %q, want \"hello\"", o.Type)
	}
	if o.Protocol != wire.Version {
		return nil, fmt.Errorf("the program speaks protocol %d; evotune speaks %d", o.Protocol, wire.Version)
	}
	d := &Description{Protocol: o.Protocol, Game: o.Game, Summary: o.Summary, Measure: o.Measure, Opponent: o.Opponent}
	if err := wire.CheckName(o.Game); err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	switch o.Mode {
	case wire.ModeTwoSeat:
		if o.Measure != "" || o.Opponent != "" {
			return nil, errors.New(`measure and opponent belong to mode "solo"`)
		}
	case wire.ModeSolo:
		d.Solo = true
		if d.Measure == "" {
			d.Measure = "cost"
		}
		if !lowerWord.MatchString(d.Measure) || d.Measure == "score" {
			return nil, fmt.Errorf("measure %q: want a lower-case word (a-z, 0-9, _ and -) other than score", d.Measure)
		}
	default:
		return nil, fmt.Errorf(`mode %q: want "two-seat" or "solo"`, o.Mode)
	}
	if len(o.Roles) == 0 {
		return nil, errors.New("no roles")
	}
	for i, r := range o.Roles {
		if !lowerWord.MatchString(r) {
			return nil, fmt.Errorf("role %q: want a lower-case word (a-z, 0-9, _ and -, starting with a letter)", r)
		}
		if slices.Contains(o.Roles[:i], r) {
			return nil, fmt.Errorf("role %q listed twice", r)
		}
	}
	if !d.Solo && len(o.Roles) != 1 {
		return nil, fmt.Errorf("a two-seat game has one role (both seats play it), not %d", len(o.Roles))
	}
	if d.Solo && len(o.Roles) > 2 {
		return nil, fmt.Errorf("a solo game has one or two roles, not %d", len(o.Roles))
	}
	d.Roles = o.Roles
	var err error
	if d.Options, err = options("option", o.Options); err != nil {
		return nil, err
	}
	if len(o.Players) == 0 {
		return nil, errors.New("no players")
	}
	for _, wp := range o.Players {
		if err := wire.CheckName(wp.Name); err != nil {
			return nil, fmt.Errorf("player: %w", err)
		}
		if !slices.Contains(o.Roles, wp.Role) {
			return nil, fmt.Errorf("player %q: role %q is not one of the roles %s", wp.Name, wp.Role, strings.Join(o.Roles, ", "))
		}
		if _, dup := d.Player(wp.Role, wp.Name); dup {
			return nil, fmt.Errorf("player %q (%s) listed twice", wp.Name, wp.Role)
		}
		pd := PlayerDesc{Name: wp.Name, Role: wp.Role, Summary: wp.Summary}
		for _, wq := range wp.Params {
			q, err := wire.ParamOf(wq)
			if err != nil {
				return nil, fmt.Errorf("player %q, parameter %q: %v", wp.Name, wq.Name, strings.TrimPrefix(err.Error(), "genome: "))
			}
			if _, dup := pd.Schema.Lookup(q.Name); dup {
				return nil, fmt.Errorf("player %q, parameter %q: listed twice", wp.Name, wq.Name)
			}
			pd.Schema = append(pd.Schema, q)
		}
		if pd.Settings, err = options(fmt.Sprintf("player %q, setting", wp.Name), wp.Settings); err != nil {
			return nil, err
		}
		d.Players = append(d.Players, pd)
	}
	switch {
	case d.Solo && len(d.Roles) == 2:
		if _, ok := d.Player(d.Roles[1], d.Opponent); !ok {
			return nil, fmt.Errorf("opponent %q: want the name of a %s, the default player of seat 1", d.Opponent, d.Roles[1])
		}
	case d.Opponent != "":
		return nil, errors.New("an opponent needs a solo game with a second role")
	}
	for _, r := range d.Roles {
		if !slices.ContainsFunc(d.Players, func(p PlayerDesc) bool { return p.Role == r }) {
			return nil, fmt.Errorf("role %q has no players", r)
		}
	}
	return d, nil
}

// options checks the rule options or a player's settings (what says
// which): legal names, each once, a default among the choices.
func options(what string, wos []wire.Option) ([]Option, error) {
	var out []Option
	for _, op := range wos {
		if err := wire.CheckName(op.Name); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if slices.ContainsFunc(out, func(x Option) bool { return x.Name == op.Name }) {
			return nil, fmt.Errorf("%s %q listed twice", what, op.Name)
		}
		if op.Choices != nil && !slices.Contains(op.Choices, op.Default) {
			return nil, fmt.Errorf("%s %q: default %q is not one of its choices", what, op.Name, op.Default)
		}
		out = append(out, Option{Name: op.Name, Default: op.Default, Summary: op.Summary, Choices: op.Choices})
	}
	return out, nil
}

// clip shortens a line for an error message.
func clip(line []byte) string {
	const n = 200
	line = bytes.ToValidUTF8(line, []byte("?"))
	if len(line) > n {
		return fmt.Sprintf("%q...", line[:n])
	}
	return fmt.Sprintf("%q", line)
}

// checkRules fills in defaults and refuses unknown options and values
// outside an option's choices.
func (d *Description) checkRules(opts map[string]string) (map[string]string, error) {
	rules := make(map[string]string, len(d.Options))
	for _, op := range d.Options {
		rules[op.Name] = op.Default
	}
	var names []string
	for k := range opts {
		names = append(names, k)
	}
	slices.Sort(names)
	var errs []error
	for _, k := range names {
		i := slices.IndexFunc(d.Options, func(o Option) bool { return o.Name == k })
		if i < 0 {
			var known []string
			for _, o := range d.Options {
				known = append(known, o.Name)
			}
			errs = append(errs, fitness.BadOption(k, fmt.Errorf("%s: unknown rule option %q (known: %s)", d.Game, k, strings.Join(known, ", "))))
			continue
		}
		if cs := d.Options[i].Choices; cs != nil && !slices.Contains(cs, opts[k]) {
			errs = append(errs, fitness.BadOption(k, fmt.Errorf("%s: rule %s: %q is not one of %s", d.Game, k, opts[k], strings.Join(cs, ", "))))
			continue
		}
		rules[k] = opts[k]
	}
	return rules, errors.Join(errs...)
}

// finite reports whether a cost is a usable number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Param is a parameter as the protocol writes it in a player's params
// (section 3 of docs/protocol.md), in the keys a config's space: section
// uses: what 'evotune games --json' lists for every game.
type Param = wire.Param

// ParamOf is p as the protocol writes it.
func ParamOf(p genome.Param) Param { return wire.WireParam(p) }
