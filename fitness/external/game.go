package external

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external/internal/wire"
	"github.com/evotune/evotune/genome"
)

// ErrClosed is returned by games played after Close.
var ErrClosed = errors.New("external: game closed")

// Info returns a fitness.GameInfo whose New(opts) opens the game with
// those rule options, run by c. The game New returns is a *Game, or a
// *SoloGame when the program's games are solo; either must be closed
// (fitness.Close) to stop its processes.
func (d *Description) Info(c Command) fitness.GameInfo {
	info := fitness.GameInfo{Name: d.Game, Summary: d.Summary}
	for _, op := range d.Options {
		info.Options = append(info.Options, fitness.Option{Name: op.Name, Default: op.Default, Summary: op.summary()})
	}
	info.New = func(opts map[string]string) (fitness.Game, error) { return d.Open(c, opts) }
	return info
}

// Open returns the game with rule options opts (unknown options and
// values outside an option's choices are errors), played by processes
// of c, which start on demand.
func (d *Description) Open(c Command, opts map[string]string) (fitness.Game, error) {
	if err := c.check(); err != nil {
		return nil, &SetupError{Argv: c.Argv, Msg: err.Error()}
	}
	rules, err := d.checkRules(opts)
	if err != nil {
		return nil, err
	}
	rulesJSON, _ := json.Marshal(rules) // sorted keys: the same bytes every time
	want, _ := d.MarshalJSON()
	g := &Game{desc: d, cmd: c, rules: rulesJSON, offer: want, live: map[*proc]bool{}}
	g.games = pool{g: g}
	g.audits = pool{g: g, maxServed: auditRefresh}
	g.sink = newSink(c.Stderr)
	for _, r := range d.Roles {
		g.roles = append(g.roles, fitness.Role(r))
	}
	for _, p := range d.Players {
		pi := fitness.PlayerInfo{Name: p.Name, Role: fitness.Role(p.Role), Summary: p.Summary, Schema: p.Schema}
		for _, st := range p.Settings {
			pi.Settings = append(pi.Settings, fitness.Setting{Name: st.Name, Default: st.Default, Summary: st.summary()})
		}
		g.players = append(g.players, pi)
	}
	if d.Solo {
		return &SoloGame{g}, nil
	}
	return g, nil
}

// Game is a two-seat game played by an outside program. It implements
// fitness.Game and io.Closer; it is safe for concurrent use, with one
// process per concurrent caller.
type Game struct {
	desc    *Description
	cmd     Command
	rules   []byte // the rules as JSON
	offer   []byte // the canonical description: a restarted program must announce it again
	sink    *syncWriter
	roles   []fitness.Role
	players []fitness.PlayerInfo

	// failures counts process failures, and asked the games asked of
	// the game, for maxFailures.
	failures, asked atomic.Int64

	mu     sync.Mutex
	games  pool // the processes that play the games
	audits pool // the processes that replay the audit's sample
	live   map[*proc]bool
	closed bool
}

// SoloGame is a solo game played by an outside program: it measures the
// player of seat 0 alone and returns its cost. It implements
// fitness.SoloGame and io.Closer.
type SoloGame struct{ *Game }

var (
	_ fitness.Game         = (*Game)(nil)
	_ fitness.SettingsGame = (*Game)(nil)
	_ fitness.Batcher      = (*Game)(nil)
	_ fitness.SoloGame     = (*SoloGame)(nil)
	_ fitness.SoloBatcher  = (*SoloGame)(nil)
)

// Player is a player of an outside game: a name, a role and the values of
// its parameters.
type Player struct {
	name   string
	role   fitness.Role
	values genome.Values
	seat   []byte // the seat's JSON in requests
}

// Name returns the player's name.
func (p *Player) Name() string { return p.name }

// Values returns the player's parameter values.
func (p *Player) Values() genome.Values { return p.values }

// Name returns the game's name as the program announced it.
func (g *Game) Name() string { return g.desc.Game }

// Description returns what the program announced.
func (g *Game) Description() *Description { return g.desc }

// Roles returns the roles the program announced.
func (g *Game) Roles() []fitness.Role { return slices.Clone(g.roles) }

// Players returns the players the program announced.
func (g *Game) Players() []fitness.PlayerInfo { return slices.Clone(g.players) }

// NewPlayer builds the announced player name in role with params, which
// must come from its schema and lie in its ranges, and its settings at
// their defaults.
func (g *Game) NewPlayer(role fitness.Role, name string, params genome.Values) (fitness.Player, error) {
	return g.NewPlayerSettings(role, name, params, nil)
}

// NewPlayerSettings is NewPlayer with settings s, each one the player
// declares with a value among its choices, if it has any. Requests carry
// every setting the player declares, the others at their defaults.
func (g *Game) NewPlayerSettings(role fitness.Role, name string, params genome.Values, s fitness.Settings) (fitness.Player, error) {
	pd, ok := g.desc.Player(string(role), name)
	if !ok {
		var names []string
		for _, p := range g.desc.Players {
			if p.Role == string(role) {
				names = append(names, p.Name)
			}
		}
		return nil, fmt.Errorf("%s: unknown %s %q (known: %s)", g.desc.Game, role, name, joinOr(names))
	}
	if len(pd.Schema) == 0 {
		params = pd.Schema.Defaults()
	}
	if err := fitness.CheckParams(pd.Schema, params); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", g.desc.Game, name, err)
	}
	settings, err := pd.settings(g.desc.Game, s)
	if err != nil {
		return nil, err
	}
	seat := wire.EncodeSeat(name, params, settings)
	if len(seat) > wire.MaxRequestLine/3 {
		// Two seats and the rules must fit in one request line.
		return nil, fmt.Errorf("%s: %s: parameters of %d bytes in JSON, more than a request line can carry", g.desc.Game, name, len(seat))
	}
	return &Player{name: name, role: role, values: params, seat: seat}, nil
}

// settings fills in the defaults of the settings s leaves out, and refuses
// a setting pd lacks and a value outside a setting's choices.
func (pd *PlayerDesc) settings(game string, s fitness.Settings) (map[string]string, error) {
	if len(pd.Settings) == 0 && len(s) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(pd.Settings))
	for _, st := range pd.Settings {
		out[st.Name] = st.Default
	}
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(s)) {
		i := slices.IndexFunc(pd.Settings, func(o Option) bool { return o.Name == k })
		switch {
		case i < 0:
			errs = append(errs, fmt.Errorf("%s: %s has no setting %q", game, pd.Name, k))
		case pd.Settings[i].Choices != nil && !slices.Contains(pd.Settings[i].Choices, s[k]):
			errs = append(errs, fmt.Errorf("%s: %s@%s=%s: not one of %s", game, pd.Name, k, s[k], strings.Join(pd.Settings[i].Choices, ", ")))
		default:
			out[k] = s[k]
		}
	}
	return out, errors.Join(errs...)
}

func joinOr(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	b, _ := json.Marshal(names)
	return string(b)
}

// Match is one game of a batch: A takes seat 0; B takes seat 1 (nil for a
// solo game without an opponent).
type Match = fitness.Match

// Play plays one game with a in seat 0, on a process of the caller's own.
func (g *Game) Play(ctx context.Context, a, b fitness.Player, seed uint64) (fitness.Outcome, error) {
	if g.desc.Solo {
		return 0, fitness.ErrNoHeadToHead
	}
	rs, err := g.play(ctx, []Match{{A: a, B: b, Seed: seed}})
	if err != nil {
		return 0, err
	}
	return rs[0].outcome, nil
}

// PlayBatch plays every match on one process, pipelined, and returns the
// outcomes seen from each match's A, in order. This is how games that
// take microseconds are not bound by the round trip to the program.
func (g *Game) PlayBatch(ctx context.Context, ms []Match) ([]fitness.Outcome, error) {
	if g.desc.Solo {
		return nil, fitness.ErrNoHeadToHead
	}
	rs, err := g.play(ctx, ms)
	out := make([]fitness.Outcome, len(rs))
	for i, r := range rs {
		out[i] = r.outcome
	}
	return out, err
}

// Solo declares the solo measure: seat 0 plays the first role; when the
// program has a second role, seat 1 plays it, by default the announced
// opponent.
func (g *SoloGame) Solo() fitness.Solo {
	s := fitness.Solo{Measure: g.desc.Measure, Only: true}
	if len(g.roles) > 1 {
		s.Opponent, s.DefaultOpponent = g.roles[1], g.desc.Opponent
	}
	return s
}

// PlaySolo plays one solo game of p (against opp, when the game has a
// second role) and returns p's cost.
func (g *SoloGame) PlaySolo(ctx context.Context, p, opp fitness.Player, seed uint64) (float64, error) {
	rs, err := g.play(ctx, []Match{{A: p, B: opp, Seed: seed}})
	if err != nil {
		return 0, err
	}
	return rs[0].cost, nil
}

// PlaySoloBatch is PlayBatch for solo games: it returns the costs.
func (g *SoloGame) PlaySoloBatch(ctx context.Context, ms []Match) ([]float64, error) {
	rs, err := g.play(ctx, ms)
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = r.cost
	}
	return out, err
}

// seats checks the players of one match and returns their seat JSON.
func (g *Game) seats(m Match) ([][]byte, error) {
	want := []fitness.Role{g.roles[0], g.roles[0]}
	if g.desc.Solo {
		want = want[:1]
		if len(g.roles) > 1 {
			want = []fitness.Role{g.roles[0], g.roles[1]}
		}
	}
	ps := []fitness.Player{m.A, m.B}[:len(want)]
	if len(want) == 1 && m.B != nil {
		return nil, fmt.Errorf("external: %s: solo games have no opponent", g.desc.Game)
	}
	out := make([][]byte, len(want))
	for i, p := range ps {
		ep, ok := p.(*Player)
		if !ok || p == nil {
			return nil, fmt.Errorf("external: %s: seat %d: %T is not a player of this game", g.desc.Game, i, p)
		}
		if ep.role != want[i] {
			return nil, fmt.Errorf("external: %s: seat %d: %s is a %s, want a %s", g.desc.Game, i, ep.name, ep.role, want[i])
		}
		out[i] = ep.seat
	}
	return out, nil
}

// play plays ms and audits a sample of them.
func (g *Game) play(ctx context.Context, ms []Match) ([]result, error) {
	calls := make([]*call, len(ms))
	for i, m := range ms {
		seats, err := g.seats(m)
		if err != nil {
			return nil, err
		}
		calls[i] = &call{seed: m.Seed, rules: g.rules, seats: seats}
	}
	if err := g.playAll(ctx, &g.games, calls); err != nil {
		return nil, err
	}
	out := make([]result, len(calls))
	for i, c := range calls {
		out[i] = c.res
	}
	if g.cmd.Audit > 0 {
		if err := g.audit(ctx, calls); err != nil {
			return out, err
		}
	}
	return out, nil
}

// auditRefresh is how many games an audit process replays before it is
// replaced by a new one.
const auditRefresh = 256

// audit replays the sampled calls on an audit process and compares.
func (g *Game) audit(ctx context.Context, calls []*call) error {
	var sample, replay []*call
	for _, c := range calls {
		if sampled(c, g.cmd.Audit) {
			sample = append(sample, c)
			replay = append(replay, &call{seed: c.seed, rules: c.rules, seats: c.seats})
		}
	}
	if len(sample) == 0 {
		return nil
	}
	if err := g.playAll(ctx, &g.audits, replay); err != nil {
		return err
	}
	for i, c := range sample {
		if c.res != replay[i].res {
			return &fitness.GameError{Seed: c.seed, Err: &NondeterminismError{Seed: c.seed, Request: c.text(),
				First: g.resultText(c.res), Second: g.resultText(replay[i].res)}}
		}
	}
	return nil
}

// sampled reports whether the audit replays the game with this request
// body: a hash of the request, so the sample is the same in every run
// with the same seed and at any worker count.
func sampled(c *call, fraction float64) bool {
	h := fnv.New64a()
	c.body(func(p []byte) { h.Write(p) })
	x := fitness.Mix(h.Sum64())
	return float64(x>>11)/(1<<53) < fraction
}

func (g *Game) resultText(r result) string {
	if g.desc.Solo {
		return g.desc.Measure + " " + strconv.FormatFloat(r.cost, 'g', -1, 64)
	}
	return r.outcome.String()
}

// pool hands out idle processes, starting new ones as needed. The
// Game's games have one; the audit has another, whose processes play
// nothing but replays (so their history differs from that of the
// processes that played the games first) and are retired after
// auditRefresh replays, so they stay young. Starting a process per
// replay would make an interpreter's start dominate the run.
type pool struct {
	g         *Game
	idle      []*proc // guarded by g.mu
	maxServed int     // games after which a process is retired; 0: never
}

func (p *pool) get(ctx context.Context) (*proc, error) {
	p.g.mu.Lock()
	if p.g.closed {
		p.g.mu.Unlock()
		return nil, ErrClosed
	}
	if n := len(p.idle); n > 0 {
		pr := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.g.mu.Unlock()
		return pr, nil
	}
	p.g.mu.Unlock()
	return p.g.startProc(ctx)
}

func (p *pool) put(pr *proc) {
	p.g.mu.Lock()
	if !p.g.closed && (p.maxServed == 0 || pr.served < p.maxServed) {
		p.idle = append(p.idle, pr)
		p.g.mu.Unlock()
		return
	}
	p.g.mu.Unlock()
	p.g.drop(pr)
}

func (p *pool) drop(pr *proc) { p.g.drop(pr) }

// startProc starts a process, checks that it announces what it did at
// Describe, and tracks it for Close.
func (g *Game) startProc(ctx context.Context) (*proc, error) {
	track := func(p *proc) error {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.closed {
			return ErrClosed
		}
		g.live[p] = true
		return nil
	}
	p, d, err := open(ctx, g.cmd, g.sink, track)
	if err != nil {
		if p != nil {
			g.drop(p)
		}
		if g.isClosed() {
			return nil, ErrClosed
		}
		return nil, err
	}
	if got, _ := d.MarshalJSON(); !bytes.Equal(got, g.offer) {
		g.drop(p)
		return nil, &SetupError{Argv: g.cmd.Argv, Msg: "a restarted program announced another game, players or schema than at the start of the run"}
	}
	return p, nil
}

func (g *Game) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// drop kills a process and forgets it.
func (g *Game) drop(p *proc) {
	p.kill()
	g.mu.Lock()
	delete(g.live, p)
	g.mu.Unlock()
}

// Close kills every process of the game (with its process group) and
// waits for them. Games played afterwards fail with ErrClosed.
func (g *Game) Close() error {
	g.mu.Lock()
	g.closed = true
	var ps []*proc
	for p := range g.live {
		ps = append(ps, p)
	}
	g.live = map[*proc]bool{}
	g.games.idle, g.audits.idle = nil, nil
	g.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.kill()
		}()
	}
	wg.Wait()
	g.sink.close()
	return nil
}
