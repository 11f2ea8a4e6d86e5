package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/yamlcheck"
	"github.com/evotune/evotune/rundir"
)

// prepare builds what a run of the config c needs, for whom f says: the
// game, built from the catalog or announced by the outside program (as
// f lets it), the config resolved for it (config.Config.WithGame); the
// space and seeds of each species; the baselines; the hashes of the
// player files the config names; then the config's choice and plan of
// its model (config.Config.Plan), and its checks. Every problem goes to
// p. Without a game there is nothing further to build or check: the
// Setup then holds the program, if one started, to close.
func prepare(c *config.Config, f For, p *yamlcheck.Checker) *Setup {
	s := &Setup{cfg: c, written: c}
	bad := p.Report
	var info fitness.GameInfo
	if len(c.Command) > 0 {
		var ok bool
		if info, ok = s.prepareProgram(f, p); !ok {
			return s
		}
	} else {
		var err error
		if info, err = catalog.Lookup(c.Game); err != nil {
			bad("game", "%s", err)
			return s
		}
	}
	// Rule options that name players take their files from beside the
	// config, as baselines do; the rules as written stay what is hashed.
	rules := c.Rules
	for _, o := range info.Options {
		v, ok := c.Rules[o.Name]
		if o.Spec == "" && !o.File || !ok {
			continue
		}
		resolve := s.resolvePath
		if o.File {
			resolve = func(f For, v string) (string, error) { return s.resolveFile(f, o.Name+"="+v, v, fileio.MaxBook) }
		}
		path, err := resolve(f, v)
		if err != nil {
			report(p, "rules."+o.Name, err)
			return s
		}
		if path != v {
			rules = maps.Clone(rules)
			rules[o.Name] = path
		}
	}
	g, err := info.New(rules)
	if err != nil {
		s.ruleProblems(bad, err)
		return s
	}
	if len(c.Engines) > 0 {
		if g = s.hostEngines(f, p, g); g == nil {
			return s
		}
	}
	s.game = g
	s.solo, s.hasSolo = fitness.SoloOf(g)
	s.role = g.Roles()[0]
	game := config.Game{Name: g.Name(), Solo: s.solo, HasSolo: s.hasSolo, HeadToHead: fitness.HasHeadToHead(g)}
	s.cfg = c.WithGame(game)
	c = s.cfg
	s.main = &species{role: s.role, minimise: c.Fitness.Objective.Minimise()}
	if c.Player != "" {
		name, settings, ok := s.tunedSpec(bad, "player", s.role, c.Player)
		s.main.player, s.main.settings = name, settings
		pi, found := fitness.Info(g, s.role, name)
		switch {
		case !ok:
		case !found:
			bad("player", "%s has no tunable %v %q (tunable: %s)", c.Game, s.role, name, strings.Join(s.tunable(), ", "))
		case !pi.Tunable() && yamlcheck.IsNull(c.Space):
			bad("player", "%s has no parameters to tune (tunable: %s)", name, strings.Join(s.tunable(), ", "))
		default:
			sp, err := genome.NewSpace(pi.Schema, c.Space)
			if err != nil {
				genomeProblems(p, "", "space", err)
			} else {
				s.main.space = sp
				genes, err := sp.ParseSeeds(c.Seeds)
				if err != nil {
					genomeProblems(p, "", "seeds", err)
				}
				s.main.starts = genes
			}
		}
	}
	s.prepareRivals(f, p)
	s.prepareBaselines(f, p)
	if s.main.space != nil {
		s.species = append([]*species{s.main}, s.species...)
	}
	s.built = s.builtFacts(game)
	// What the model is told of the rest, and what it plans from it.
	c.Plan(s.built, false)
	c.Check(p, s.built)
	return s
}

// builtFacts is what the species were built as, for the config's plan
// and checks.
func (s *Setup) builtFacts(g config.Game) *config.Built {
	b := &config.Built{Game: g, Main: config.Species{Seeds: len(s.main.starts), Baselines: len(s.main.baselines)}}
	if s.main.space != nil {
		b.Main.Genes = s.main.space.Len()
	}
	for _, sp := range s.species {
		b.Evolved = append(b.Evolved, config.Species{Genes: sp.space.Len(), Seeds: len(sp.starts), Baselines: len(sp.baselines)})
	}
	return b
}

// prepareBaselines builds the main species' baselines: the players of
// fitness.baselines.opponents (of the solo opponent's role with a solo
// objective, by default the game's default opponent), or, for solo games
// without an opponent, the game alone.
func (s *Setup) prepareBaselines(f For, p *yamlcheck.Checker) {
	fc := &s.cfg.Fitness
	if fc.Baselines.Weight <= 0 || fc.Objective == config.Solo && !s.hasSolo {
		return
	}
	role := s.role
	switch {
	case fc.Objective == config.Solo && s.solo.Opponent == "":
		s.main.baselines = []fitness.Player{nil} // one baseline: the game alone
		return
	case fc.Objective == config.Solo:
		role = s.solo.Opponent
	}
	for i, spec := range fc.Baselines.Opponents {
		pl, err := s.parseOpponent(f, role, spec)
		if err != nil {
			key := fmt.Sprintf("fitness.baselines.opponents[%d]", i)
			if !s.cfg.Has("fitness.baselines.opponents") {
				key = "rules" // the game's default opponent, as its rules set it
			}
			report(p, key, err)
			continue
		}
		s.main.baselines = append(s.main.baselines, pl)
	}
}

// prepareRivals builds the rival species: players of the game's other
// role, scored by the same solo games with the opposite sense.
func (s *Setup) prepareRivals(f For, p *yamlcheck.Checker) {
	c := s.cfg
	bad := p.Report
	co := c.Coevolve
	if co == nil {
		return
	}
	role, ok := fitness.OtherRole(s.game, s.role)
	if !ok {
		bad("coevolve", "%s has %d role(s) (%s): co-evolution breeds a second role against the first", c.Game,
			len(s.game.Roles()), fitness.JoinRoles(s.game.Roles()))
		return
	}
	if !s.hasSolo || s.solo.Opponent != role {
		bad("coevolve", "%s has no solo games of %vs against %vs: co-evolution plays them", c.Game, s.role, role)
		return
	}
	if c.Fitness.Objective != config.Solo {
		bad("coevolve", "co-evolution pits %vs against %vs: it needs the %s objective", s.role, role, s.solo.Measure)
		return
	}
	if co.Player == "" {
		bad("coevolve.player", "missing: name the tunable %v that evolves against the %vs", role, s.role)
		return
	}
	name, settings, ok := s.tunedSpec(bad, "coevolve.player", role, co.Player)
	if !ok {
		return
	}
	pi, found := fitness.Info(s.game, role, name)
	if !found || !pi.Tunable() {
		bad("coevolve.player", "%s has no tunable %v %q", c.Game, role, name)
		return
	}
	rivals := &species{label: rundir.Rivals, player: name, settings: settings, role: role, minimise: !c.Fitness.Objective.Minimise(), offset: 1 << 32}
	sp, err := genome.NewSpace(pi.Schema, co.Space)
	if err != nil {
		// Go on to the opponents: a user sees every mistake in one pass.
		genomeProblems(p, "coevolve", "space", err)
	} else {
		rivals.space = sp
		if rivals.starts, err = sp.ParseSeeds(co.Seeds); err != nil {
			genomeProblems(p, "coevolve", "seeds", err)
		}
	}
	for i, spec := range co.Opponents {
		pl, err := s.parseOpponent(f, s.role, spec)
		if err != nil {
			report(p, fmt.Sprintf("coevolve.opponents[%d]", i), err)
			continue
		}
		rivals.baselines = append(rivals.baselines, pl)
	}
	if len(rivals.starts) > c.Evolution.Population {
		bad("coevolve.seeds", "%s for a population of %d", english.Count(len(rivals.starts), "seed"), c.Evolution.Population)
	}
	if rivals.space != nil {
		s.species = append(s.species, rivals)
	}
}

// genomeProblems reports genome's problems with a space or seeds section
// under the key the section hangs from ("" or "coevolve").
func genomeProblems(p *yamlcheck.Checker, parent, key string, err error) {
	if es, ok := errors.AsType[yamlcheck.Errors](err); ok {
		p.AddErrors(es.Under(parent))
		return
	}
	key = yamlcheck.Join(parent, key)
	p.Report(key, "%s", yamlcheck.Unprefixed(err))
}

// ruleProblems places a game's refusal of its rule options: at the line of
// each option it names, or at rules: for what concerns several.
func (s *Setup) ruleProblems(bad func(key, format string, args ...any), err error) {
	for _, e := range flatten(err) {
		if oe, ok := errors.AsType[*fitness.OptionError](e); ok && s.cfg.Has("rules."+oe.Option) {
			bad("rules."+oe.Option, "%s", oneLine(oe.Err))
			continue
		}
		bad("rules", "%s", oneLine(e))
	}
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// tunable lists the tunable players of the tuned role.
func (s *Setup) tunable() []string {
	var names []string
	for _, q := range s.game.Players() {
		if q.Role == s.role && q.Tunable() {
			names = append(names, q.Name)
		}
	}
	return names
}

// tunedSpec reads the spec of a tuned player (key player: or
// coevolve.player:): its name and settings, NAME@KEY=VALUE. Its values
// come from the genomes, so a file is refused; so are a setting the
// player lacks and one whose value the game refuses, at the key's line.
func (s *Setup) tunedSpec(bad func(key, format string, args ...any), key string, role fitness.Role, spec string) (string, fitness.Settings, bool) {
	sp, err := fitness.SplitSpec(spec)
	if err != nil {
		bad(key, "%s", err)
		return "", nil, false
	}
	if sp.HasFile {
		bad(key, "%q: the tuned player's values are its genomes, not a file: write its starting values under seeds:", spec)
		return "", nil, false
	}
	pi, found := fitness.Info(s.game, role, sp.Name)
	if !found || len(sp.Settings) == 0 {
		return sp.Name, nil, true
	}
	if _, err := fitness.NewPlayerWith(s.game, role, sp.Name, pi.Schema.Defaults(), sp.Settings); err != nil {
		bad(key, "%s", oneLine(err))
		return "", nil, false
	}
	return sp.Name, sp.Settings, true
}

// resolvePath makes a NAME:FILE spec's file relative to the config's
// directory, so a config and its parameter files travel together. It
// refuses a file f does not admit (a worker's or a reader's).
func (s *Setup) resolvePath(f For, spec string) (string, error) {
	name, file, ok := fitness.CutFile(spec)
	if !ok || file == "" {
		return spec, nil // NAME: alone is ParseSpec's to refuse, not the config's directory
	}
	path, err := s.resolveFile(f, spec, file, fileio.MaxPlayerFile)
	if err != nil {
		return "", err
	}
	return name + ":" + path, nil
}

// resolveFile makes a file the config names (a player file, a rule's
// file) relative to the config's directory, and records its hash under
// key (the spec or rule as written): the file is part of the config, so
// an edit to it changes results and resume refuses a changed file. It
// refuses a file f does not admit (a worker's or a reader's).
func (s *Setup) resolveFile(f For, key, file string, max int64) (string, error) {
	if !filepath.IsAbs(file) {
		s.relative = true
		file = filepath.Join(s.cfg.BaseDir(), file)
	}
	sum := ""
	if data, err := fileio.ReadFile(file, max); err == nil {
		h := sha256.Sum256(data)
		sum = hex.EncodeToString(h[:])
		if s.files == nil {
			s.files = map[string]string{}
		}
		s.files[key] = sum
	}
	if err := f.admits(key, file, sum); err != nil {
		return "", err
	}
	return file, nil
}

// parseOpponent reads an opponent's spec of role, its file found beside
// the config (resolvePath).
func (s *Setup) parseOpponent(f For, role fitness.Role, spec string) (fitness.Player, error) {
	path, err := s.resolvePath(f, spec)
	if err != nil {
		return nil, err
	}
	return fitness.ParseSpec(s.game, role, path)
}

// hostEngines readies the config's engines (prepareEngines) and returns
// g with them among its players; nil when it cannot, g then closed.
func (s *Setup) hostEngines(f For, p *yamlcheck.Checker, g fitness.Game) fitness.Game {
	h, ok := g.(fitness.Host)
	if !ok {
		p.Report("engines", "%s plays no UCI engines: engines: are chess players (game: chess)", g.Name())
		fitness.Close(g)
		return nil
	}
	guests, ok := s.prepareEngines(f, p)
	if !ok {
		fitness.Close(g)
		return nil
	}
	hosted, err := h.WithGuests(guests...)
	if err != nil {
		p.Report("engines", "%s", oneLine(err))
		fitness.Close(g)
		return nil
	}
	return hosted
}
