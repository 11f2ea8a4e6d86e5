// Command bridge serves one of evotune's built-in games over the player
// protocol (docs/protocol.md), through fitness/external/program: a Go
// program speaking the protocol in a few lines, and the reference that
// shows the protocol path and the built-in path agree game for game.
//
// Usage:
//
//	bridge [-two-seat] GAME [KEY=VALUE ...]
//
// The KEY=VALUE rule options are fixed when the program starts (players'
// schemas may depend on them, as m,n,k's do, and a schema is announced
// once); the offer lists no options. A game with a solo measure is
// offered solo unless -two-seat asks for its head-to-head games.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/external/program"
	"github.com/evotune/evotune/genome"
)

func main() {
	twoSeat := flag.Bool("two-seat", false, "offer a solo game's head-to-head games instead")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: bridge [-two-seat] GAME [KEY=VALUE ...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	g, err := newBridge(flag.Arg(0), flag.Args()[1:], *twoSeat)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bridge:", err)
		os.Exit(2)
	}
	program.Main(g)
}

// newBridge builds the program's offer from the built-in game.
func newBridge(name string, args []string, twoSeat bool) (program.Game, error) {
	rules := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return program.Game{}, fmt.Errorf("rule %q is not KEY=VALUE", a)
		}
		rules[k] = v
	}
	info, err := catalog.Lookup(name)
	if err != nil {
		return program.Game{}, err
	}
	game, err := info.New(rules)
	if err != nil {
		return program.Game{}, err
	}
	b := &bridge{game: game, players: map[string]fitness.Player{}}
	pg := program.Game{Name: info.Name, Summary: info.Summary, Concurrency: 2}
	for _, r := range game.Roles() {
		pg.Roles = append(pg.Roles, string(r))
	}
	for _, p := range game.Players() {
		if _, err := game.NewPlayer(p.Role, p.Name, p.Schema.Defaults()); err != nil {
			continue // listed but not for these rules (a solver on a big board)
		}
		pp := program.Player{Name: p.Name, Role: string(p.Role), Summary: p.Summary, Schema: p.Schema}
		for _, st := range p.Settings {
			pp.Settings = append(pp.Settings, program.Option{Name: st.Name, Default: st.Default, Summary: st.Summary})
		}
		pg.Players = append(pg.Players, pp)
	}
	solo, isSolo := fitness.SoloOf(game)
	switch {
	case isSolo && !twoSeat:
		pg.Measure, pg.Opponent = solo.Measure, solo.DefaultOpponent
		pg.PlaySolo = b.playSolo
		if solo.Opponent == "" {
			pg.Roles = pg.Roles[:1]
		}
	case fitness.HasHeadToHead(game):
		pg.Roles = pg.Roles[:1] // both seats play the first role
		pg.Play = b.play
	default:
		return pg, fmt.Errorf("%s has no head-to-head games", name)
	}
	var keep []program.Player
	for _, p := range pg.Players {
		for _, r := range pg.Roles {
			if p.Role == r {
				keep = append(keep, p)
			}
		}
	}
	pg.Players = keep
	return pg, nil
}

// bridge plays requests on the built-in game, building each distinct
// player once (players are immutable and safe for concurrent use).
type bridge struct {
	game    fitness.Game
	mu      sync.Mutex
	players map[string]fitness.Player
}

func (b *bridge) player(s program.Seat) (fitness.Player, error) {
	key := s.Role + "/" + s.Player + fmt.Sprint(s.Params.Map(), s.Settings) // fmt sorts map keys
	b.mu.Lock()
	p, ok := b.players[key]
	b.mu.Unlock()
	if ok {
		return p, nil
	}
	params := s.Params
	if len(params.Schema()) == 0 {
		params = genome.Values{}
	}
	p, err := fitness.NewPlayerWith(b.game, fitness.Role(s.Role), s.Player, params, s.Settings)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if len(b.players) >= 4096 {
		b.players = map[string]fitness.Player{} // a long run meets new genomes forever
	}
	b.players[key] = p
	b.mu.Unlock()
	return p, nil
}

func (b *bridge) seats(req program.Request) ([]fitness.Player, error) {
	var ps []fitness.Player
	for _, s := range req.Seats {
		p, err := b.player(s)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func (b *bridge) play(req program.Request) (program.Outcome, error) {
	ps, err := b.seats(req)
	if err != nil {
		return 0, err
	}
	o, err := b.game.Play(context.Background(), ps[0], ps[1], req.Seed)
	return program.Outcome(o), err // both enums order loss, draw, win from 0
}

func (b *bridge) playSolo(req program.Request) (float64, error) {
	ps, err := b.seats(req)
	if err != nil {
		return 0, err
	}
	var opp fitness.Player
	if len(ps) > 1 {
		opp = ps[1]
	}
	return b.game.(fitness.SoloGame).PlaySolo(context.Background(), ps[0], opp, req.Seed)
}
