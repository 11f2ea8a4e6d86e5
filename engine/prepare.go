package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/yamlcheck"
	"github.com/evotune/evotune/rundir"
)

// prepare builds what a run of the config needs (its setup): the game,
// built from the catalog or announced by the outside program (started
// here, under a worker's guard), with the defaults that depend on it;
// the space and seeds of each species; the baselines; the hashes of the
// player files the config names. It reports what keeps any of it from
// being built, and says whether the game was: without it there is
// nothing further to check.
func (c *Config) prepare(p *yamlcheck.Checker) bool {
	bad := func(key, format string, args ...any) { p.Add(p.Line(key), key, format, args...) }
	var info fitness.GameInfo
	if len(c.Command) > 0 {
		var ok bool
		if info, ok = c.prepareProgram(bad); !ok {
			return false
		}
	} else {
		var err error
		if info, err = catalog.Lookup(c.Game); err != nil {
			bad("game", "%s", err)
			return false
		}
	}
	// Rule options that name players take their files from beside the
	// config, as baselines do; the rules as written stay what is hashed.
	rules := c.Rules
	for _, o := range info.Options {
		v, ok := c.Rules[o.Name]
		if o.Spec == "" || !ok {
			continue
		}
		path, err := c.resolvePath(v)
		if err != nil {
			bad("rules."+o.Name, "%s", err)
			return false
		}
		if path != v {
			rules = maps.Clone(rules)
			rules[o.Name] = path
		}
	}
	g, err := info.New(rules)
	if err != nil {
		c.ruleProblems(bad, err)
		return false
	}
	c.game = g
	c.solo, c.hasSolo = fitness.SoloOf(g)
	c.role = g.Roles()[0]
	c.settleGame()
	c.main = &species{role: c.role, minimise: c.Fitness.Objective.Minimise()}
	if c.Player != "" {
		name, settings, ok := c.tunedSpec(bad, "player", c.role, c.Player)
		c.main.player, c.main.settings = name, settings
		pi, found := fitness.Info(g, c.role, name)
		switch {
		case !ok:
		case !found:
			bad("player", "%s has no tunable %v %q (tunable: %s)", c.Game, c.role, name, strings.Join(c.tunable(g), ", "))
		case !pi.Tunable() && yamlcheck.IsNull(c.space):
			bad("player", "%s has no parameters to tune (tunable: %s)", name, strings.Join(c.tunable(g), ", "))
		default:
			sp, err := genome.NewSpace(pi.Schema, c.space)
			if err != nil {
				c.genomeProblems(p, "", "space", err)
			} else {
				c.main.space = sp
				genes, err := sp.ParseSeeds(c.seeds)
				if err != nil {
					c.genomeProblems(p, "", "seeds", err)
				}
				c.main.starts = genes
			}
		}
	}
	c.prepareRivals(p, bad)
	c.prepareBaselines(bad)
	if c.main.space != nil {
		c.species = append([]*species{c.main}, c.species...)
	}
	// What the model is told of the rest, and what it plans from it.
	c.Evolution.Uses = c.uses()
	c.Evolution.ChooseDefault(c.Fitness.Objective == Solo, c.legacyModel, c.has)
	c.Evolution.Plan()
	return true
}

// prepareBaselines builds the main species' baselines: the players of
// fitness.baselines.opponents (of the solo opponent's role with a solo
// objective, by default the game's default opponent), or, for solo games
// without an opponent, the game alone.
func (c *Config) prepareBaselines(bad func(key, format string, args ...any)) {
	f := &c.Fitness
	if f.Baselines.Weight <= 0 || f.Objective == Solo && !c.hasSolo {
		return
	}
	role := c.role
	switch {
	case f.Objective == Solo && c.solo.Opponent == "":
		c.main.baselines = []fitness.Player{nil} // one baseline: the game alone
		return
	case f.Objective == Solo:
		role = c.solo.Opponent
	}
	for i, spec := range f.Baselines.Opponents {
		pl, err := c.parseOpponent(role, spec)
		if err != nil {
			key := fmt.Sprintf("fitness.baselines.opponents[%d]", i)
			if !c.has("fitness.baselines.opponents") {
				key = "rules" // the game's default opponent, as its rules set it
			}
			bad(key, "%s", oneLine(err))
			continue
		}
		c.main.baselines = append(c.main.baselines, pl)
	}
}

// prepareRivals builds the rival species: players of the game's other
// role, scored by the same solo games with the opposite sense.
func (c *Config) prepareRivals(p *yamlcheck.Checker, bad func(key, format string, args ...any)) {
	co := c.Coevolve
	if co == nil || c.game == nil {
		return
	}
	role, ok := fitness.OtherRole(c.game, c.role)
	if !ok {
		bad("coevolve", "%s has %d role(s) (%s): co-evolution breeds a second role against the first", c.Game,
			len(c.game.Roles()), fitness.JoinRoles(c.game.Roles()))
		return
	}
	if !c.hasSolo || c.solo.Opponent != role {
		bad("coevolve", "%s has no solo games of %vs against %vs: co-evolution plays them", c.Game, c.role, role)
		return
	}
	if c.Fitness.Objective != Solo {
		bad("coevolve", "co-evolution pits %vs against %vs: it needs the %s objective", c.role, role, c.solo.Measure)
		return
	}
	if co.Player == "" {
		bad("coevolve.player", "missing: name the tunable %v that evolves against the %vs", role, c.role)
		return
	}
	name, settings, ok := c.tunedSpec(bad, "coevolve.player", role, co.Player)
	if !ok {
		return
	}
	pi, found := fitness.Info(c.game, role, name)
	if !found || !pi.Tunable() {
		bad("coevolve.player", "%s has no tunable %v %q", c.Game, role, name)
		return
	}
	rivals := &species{label: rundir.Rivals, player: name, settings: settings, role: role, minimise: !c.Fitness.Objective.Minimise(), offset: 1 << 32}
	sp, err := genome.NewSpace(pi.Schema, co.space)
	if err != nil {
		// Go on to the opponents: a user sees every mistake in one pass.
		c.genomeProblems(p, "coevolve", "space", err)
	} else {
		rivals.space = sp
		if rivals.starts, err = sp.ParseSeeds(co.seeds); err != nil {
			c.genomeProblems(p, "coevolve", "seeds", err)
		}
	}
	for i, spec := range co.Opponents {
		pl, err := c.parseOpponent(c.role, spec)
		if err != nil {
			bad(fmt.Sprintf("coevolve.opponents[%d]", i), "%s", oneLine(err))
			continue
		}
		rivals.baselines = append(rivals.baselines, pl)
	}
	if len(rivals.starts) > c.Evolution.Population {
		bad("coevolve.seeds", "%s for a population of %d", english.Count(len(rivals.starts), "seed"), c.Evolution.Population)
	}
	if rivals.space != nil {
		c.species = append(c.species, rivals)
	}
}

// genomeProblems reports genome's problems with a space or seeds section
// under the key the section hangs from ("" or "coevolve").
func (c *Config) genomeProblems(p *yamlcheck.Checker, parent, key string, err error) {
	if es, ok := errors.AsType[yamlcheck.Errors](err); ok {
		p.AddErrors(es.Under(parent))
		return
	}
	key = yamlcheck.Join(parent, key)
	p.Add(p.Line(key), key, "%s", trimPrefix(err))
}

// ruleProblems places a game's refusal of its rule options: at the line of
// each option it names, or at rules: for what concerns several.
func (c *Config) ruleProblems(bad func(key, format string, args ...any), err error) {
	for _, e := range flatten(err) {
		if oe, ok := errors.AsType[*fitness.OptionError](e); ok && c.has("rules."+oe.Option) {
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

func (c *Config) tunable(g fitness.Game) []string {
	var names []string
	for _, q := range g.Players() {
		if q.Role == c.role && q.Tunable() {
			names = append(names, q.Name)
		}
	}
	return names
}

// workerGuard is what a worker lets a config it was sent do (a
// coordinator may be anyone who reaches the queue): start an outside
// program only if the worker allows programs, and read only the player
// files the coordinator has too, byte for byte. A file is hashed before
// anything parses it, so a config naming one of the worker's own files
// learns nothing of its contents from an error message.
type workerGuard struct {
	allowPrograms bool
	files         map[string]string // NAME:FILE spec as written -> sha256 of the coordinator's file
	refused       bool              // the config names a program, which is not allowed
	// recorded, when set, describes the config's program as its run's
	// checkpoint recorded it: the game is built from it and no program
	// starts (Inspect).
	recorded *external.Description
	// mismatch says why a player file is refused; nil: a worker's words.
	mismatch func(spec, file string) error
}

// tunedSpec reads the spec of a tuned player (key player: or
// coevolve.player:): its name and settings, NAME@KEY=VALUE. Its values
// come from the genomes, so a file is refused; so are a setting the
// player lacks and one whose value the game refuses, at the key's line.
func (c *Config) tunedSpec(bad func(key, format string, args ...any), key string, role fitness.Role, spec string) (string, fitness.Settings, bool) {
	sp, err := fitness.SplitSpec(spec)
	if err != nil {
		bad(key, "%s", err)
		return "", nil, false
	}
	if sp.HasFile {
		bad(key, "%q: the tuned player's values are its genomes, not a file: write its starting values under seeds:", spec)
		return "", nil, false
	}
	pi, found := fitness.Info(c.game, role, sp.Name)
	if !found || len(sp.Settings) == 0 {
		return sp.Name, nil, true
	}
	if _, err := fitness.NewPlayerWith(c.game, role, sp.Name, pi.Schema.Defaults(), sp.Settings); err != nil {
		bad(key, "%s", oneLine(err))
		return "", nil, false
	}
	return sp.Name, sp.Settings, true
}

// resolvePath makes a NAME:FILE spec's file relative to the config's
// directory, so a config and its parameter files travel together. On a
// worker (c.guard) it refuses a file that is not the coordinator's.
func (c *Config) resolvePath(spec string) (string, error) {
	name, file, ok := strings.Cut(spec, ":")
	if !ok || file == "" {
		return spec, nil // NAME: alone is ParseSpec's to refuse, not the config's directory
	}
	if !filepath.IsAbs(file) {
		c.relative = true
		file = filepath.Join(c.baseDir, file)
	}
	// The file is part of the config: an edit to it changes results, so
	// its contents enter the hash and resume refuses a changed file.
	sum := ""
	if data, err := fileio.ReadFile(file, fileio.MaxPlayerFile); err == nil {
		h := sha256.Sum256(data)
		sum = hex.EncodeToString(h[:])
		if c.files == nil {
			c.files = map[string]string{}
		}
		c.files[spec] = sum
	}
	if g := c.guard; g != nil {
		if want, ok := g.files[spec]; !ok || sum == "" || sum != want {
			// Nothing of the file is read into the message: the config
			// may name any file of the worker's.
			if g.mismatch != nil {
				return "", g.mismatch(spec, file)
			}
			return "", fmt.Errorf("%s: this worker's %s is not the coordinator's file (copy the player files a config names beside it on every worker, at the same paths)", spec, file)
		}
	}
	return name + ":" + file, nil
}

// parseOpponent reads an opponent's spec of role, its file found beside
// the config (resolvePath).
func (c *Config) parseOpponent(role fitness.Role, spec string) (fitness.Player, error) {
	path, err := c.resolvePath(spec)
	if err != nil {
		return nil, err
	}
	return fitness.ParseSpec(c.game, role, path)
}
