package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// Config is a tuning job as written in YAML; configs/reference.yaml
// documents every key and its default.
type Config struct {
	Name      string            `json:"-"`
	Seed      uint64            `json:"seed"`
	Game      string            `json:"game"`
	Rules     map[string]string `json:"rules"`
	Player    string            `json:"player"`
	Fitness   FitnessConfig     `json:"fitness"`
	Evolution EvolutionConfig   `json:"evolution"`
	Coevolve  *CoevolveConfig   `json:"coevolve,omitempty"`
	// Racing and Remeasure are absent from the JSON (and so the hash) of a
	// config that does not set them, so older runs keep their hash.
	Racing    *RacingConfig    `json:"racing,omitempty"`
	Remeasure *RemeasureConfig `json:"remeasure,omitempty"`
	// Stop, likewise absent unless set, ends a run before its budget.
	Stop *StopConfig `json:"stop,omitempty"`
	Run  RunConfig   `json:"-"`
	// ProgramConfig (command:, dir:, env:, timeout:, audit:) plays the
	// game with an outside program instead of a built-in game.
	ProgramConfig

	space, seeds *yaml.Node // handed to genome, which reports their lines

	// Filled by Load once the config is valid.
	file      string
	baseDir   string            // where relative NAME:FILE specs are found
	relative  bool              // some spec names a file relative to baseDir
	files     map[string]string // NAME:FILE spec as written -> sha256 of the file
	text      []byte
	at        *yamlcheck.Checker // where every key was written
	game      fitness.Game
	role      fitness.Role // the tuned role: the game's first
	solo      fitness.Solo // the game's solo declaration, if it has one
	hasSolo   bool
	spaceOf   *genome.Space
	seedGenes [][]float64
	baselines []fitness.Player
	species   []*species   // the main species, then the rivals when co-evolving
	program   *program     // the outside program, with command:
	guard     *workerGuard // set when a worker loads a coordinator's config
}

// CoevolveConfig adds a second species, of the game's other role, that
// evolves against the first through the solo games between the roles: for
// Battleship, placers that learn to hide fleets from the shooters while
// the shooters learn to find them.
type CoevolveConfig struct {
	Player    string   `json:"player"`
	Opponents []string `json:"opponents"` // fixed players the rivals also meet

	space, seeds *yaml.Node
}

// species is one evolving population: who it is and how it is scored.
type species struct {
	label     string // "" for the main species, "rivals" for the co-evolving one
	player    string
	role      fitness.Role
	space     *genome.Space
	seeds     [][]float64
	baselines []fitness.Player
	minimise  bool
	// offset keeps the rivals' random streams apart from the main
	// species' (which are those of a run without rivals).
	offset uint64
}

// FitnessConfig says what an individual's fitness is made of.
type FitnessConfig struct {
	Objective  Objective       `json:"-"` // written as ObjectiveName
	objective  string          // as written; resolved once the game is known
	Baselines  BaselinesMode   `json:"baselines"`
	Population PopulationMode  `json:"population"`
	HallOfFame HallOfFameMode  `json:"hall_of_fame"`
	Mutation   genome.Mutation `json:"-"`
	_          struct{}        `json:"-"`
}

// FitnessConfig's JSON names the objective by its name in configs
// ("shots", "score"), so hashes and checkpoints read as the file does.
func (f FitnessConfig) MarshalJSON() ([]byte, error) {
	type plain FitnessConfig
	return json.Marshal(struct {
		plain
		Objective string `json:"objective"`
	}{plain(f), f.objective})
}

// BaselinesMode: every individual plays Games games against each listed
// opponent (the game's solo opponents, such as placers, for a solo
// objective).
type BaselinesMode struct {
	Weight    float64  `json:"weight"`
	Games     int      `json:"games"`
	Opponents []string `json:"opponents"`
}

// PopulationMode: every individual meets Opponents others of its own
// generation, Games games each, seats swapped.
type PopulationMode struct {
	Weight    float64 `json:"weight"`
	Opponents int     `json:"opponents"`
	Games     int     `json:"games"`
	// Rating is how the games become a fitness; the default, the mean
	// score, is left out of the JSON so older configs keep their hash.
	Rating RatingModel `json:"rating,omitempty"`
}

// HallOfFameMode: every individual meets the Members best of earlier
// generations, Games games each.
type HallOfFameMode struct {
	Weight  float64 `json:"weight"`
	Members int     `json:"members"`
	Games   int     `json:"games"`
}

// EvolutionConfig chooses the model and its operators.
type EvolutionConfig struct {
	Model          Model            `json:"model"`
	Population     int              `json:"population"`
	Generations    int              `json:"-"` // a budget: raising it on resume is allowed
	Selection      Selection        `json:"selection"`
	TournamentSize int              `json:"tournament_size"`
	Crossover      genome.Crossover `json:"crossover"`
	CrossoverRate  float64          `json:"crossover_rate"`
	BlendAlpha     float64          `json:"blend_alpha"`
	MutationRate   float64          `json:"mutation_rate"`
	Mutation       genome.Mutation  `json:"mutation"`
	Elitism        int              `json:"elitism"`
	Keep           int              `json:"keep"`
	Offspring      int              `json:"offspring"`
	HallOfFame     int              `json:"hall_of_fame"`
	// StepSize is CMA-ES's initial standard deviation in normalised
	// coordinates; set (and hashed) only with model cmaes, so the hash of
	// configs of other models is what it was before the key existed.
	StepSize float64 `json:"step_size,omitempty"`
}

// RunConfig holds settings that do not change results.
type RunConfig struct {
	Workers int
}

// ConfigErrors is every problem found in a config, in line order, each
// as file:line: key: message.
type ConfigErrors = yamlcheck.Errors

// defaults returns the config every file starts from.
func defaults() Config {
	return Config{
		Seed: 1,
		Fitness: FitnessConfig{
			Baselines:  BaselinesMode{Weight: 1, Games: 100},
			Population: PopulationMode{Weight: 1, Opponents: 4, Games: 10},
			HallOfFame: HallOfFameMode{Weight: 1, Members: 5, Games: 10},
		},
		Evolution: EvolutionConfig{
			Model:          Generational,
			Population:     24,
			Generations:    20,
			Selection:      Tournament,
			TournamentSize: 3,
			Crossover:      genome.Blend,
			CrossoverRate:  0.7,
			BlendAlpha:     0.3,
			MutationRate:   0.8,
			Mutation:       genome.Mutation{Sigma: 0.1},
			Elitism:        2,
			Keep:           2,
			HallOfFame:     10,
		},
	}
}

// Load reads, decodes and validates a config file. Every problem is
// reported at once, as ConfigErrors with file:line: key: message.
func Load(file string) (*Config, error) {
	text, err := fileio.ReadFile(file, fileio.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(file, text)
}

// Parse decodes and validates config text; file names it in messages and
// relative NAME:FILE specs in it are found beside it.
func Parse(file string, text []byte) (*Config, error) {
	return parseIn(file, text, filepath.Dir(file))
}

func parseIn(file string, text []byte, baseDir string) (*Config, error) {
	return parseGuarded(file, text, baseDir, nil)
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

// parseGuarded is parseIn for a worker when guard is not nil.
func parseGuarded(file string, text []byte, baseDir string, guard *workerGuard) (*Config, error) {
	c := defaults()
	c.file, c.baseDir, c.text, c.guard = file, baseDir, text, guard
	ck := yamlcheck.New(file)
	c.at = ck
	root := ck.Parse(text)
	if err := ck.Err(); err != nil {
		return nil, err
	}
	if root == nil {
		ck.Add(0, "", "empty config: want at least game and player")
		return nil, ck.Err()
	}
	// Three steps: decode the keys, fill in the defaults that depend on
	// what was written, then check the meaning, so every mistake shows
	// in one pass; a key that failed to decode has already said what is
	// wrong with it.
	c.decode(ck, root)
	c.settle()
	decoded := ck.Errors()
	semantic := ck.Fork()
	c.check(semantic)
	for _, e := range semantic.Errors() {
		if !decoded.Covers(e.Key) {
			ck.AddErrors(yamlcheck.Errors{e})
		}
	}
	if err := ck.Err(); err != nil {
		return nil, err
	}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	return &c, nil
}

func (c *Config) decode(d *yamlcheck.Checker, root *yaml.Node) {
	var model, selection, crossover, ratingModel string
	d.Map(root, "", yamlcheck.Fields{
		"name":    d.String(&c.Name),
		"seed":    d.Uint64(&c.Seed),
		"game":    d.String(&c.Game),
		"command": d.Names(&c.Command),
		"dir":     d.String(&c.Dir),
		"env":     d.Options(&c.Env),
		"timeout": d.String(&c.ProgramConfig.timeout),
		"audit":   d.Number(&c.Audit),
		"rules":   d.Options(&c.Rules),
		"player":  d.String(&c.Player),
		"space":   d.Node(&c.space),
		"seeds":   d.Node(&c.seeds),
		"fitness": func(n *yaml.Node, path string) {
			f := &c.Fitness
			d.Map(n, path, yamlcheck.Fields{
				"objective": d.String(&c.Fitness.objective),
				"baselines": func(n *yaml.Node, path string) {
					d.Map(n, path, yamlcheck.Fields{
						"weight":    d.Number(&f.Baselines.Weight),
						"games":     d.Int(&f.Baselines.Games),
						"opponents": d.Names(&f.Baselines.Opponents),
					})
				},
				"population": func(n *yaml.Node, path string) {
					d.Map(n, path, yamlcheck.Fields{
						"weight":    d.Number(&f.Population.Weight),
						"opponents": d.Int(&f.Population.Opponents),
						"games":     d.Int(&f.Population.Games),
						"rating":    d.String(&ratingModel),
					})
				},
				"hall-of-fame": func(n *yaml.Node, path string) {
					d.Map(n, path, yamlcheck.Fields{
						"weight":  d.Number(&f.HallOfFame.Weight),
						"members": d.Int(&f.HallOfFame.Members),
						"games":   d.Int(&f.HallOfFame.Games),
					})
				},
			})
		},
		"evolution": func(n *yaml.Node, path string) {
			e := &c.Evolution
			d.Map(n, path, yamlcheck.Fields{
				"model":           d.String(&model),
				"population":      d.Int(&e.Population),
				"generations":     d.Int(&e.Generations),
				"selection":       d.String(&selection),
				"tournament-size": d.Int(&e.TournamentSize),
				"crossover":       d.String(&crossover),
				"crossover-rate":  d.Number(&e.CrossoverRate),
				"blend-alpha":     d.Number(&e.BlendAlpha),
				"mutation-rate":   d.Number(&e.MutationRate),
				"mutation": func(n *yaml.Node, path string) {
					d.Map(n, path, yamlcheck.Fields{
						"sigma":       d.Number(&e.Mutation.Sigma),
						"gene-rate":   d.Number(&e.Mutation.Rate),
						"choice-rate": d.Number(&e.Mutation.ChoiceRate),
					})
				},
				"elitism":      d.Int(&e.Elitism),
				"keep":         d.Int(&e.Keep),
				"offspring":    d.Int(&e.Offspring),
				"hall-of-fame": d.Int(&e.HallOfFame),
				"step-size":    d.Number(&e.StepSize),
			})
		},
		"run": func(n *yaml.Node, path string) {
			d.Map(n, path, yamlcheck.Fields{"workers": d.Int(&c.Run.Workers)})
		},
		"coevolve": func(n *yaml.Node, path string) {
			c.Coevolve = &CoevolveConfig{}
			co := c.Coevolve
			d.Map(n, path, yamlcheck.Fields{
				"player":    d.String(&co.Player),
				"space":     d.Node(&co.space),
				"seeds":     d.Node(&co.seeds),
				"opponents": d.Names(&co.Opponents),
			})
		},
		"racing":    c.decodeRacing(d),
		"remeasure": c.decodeRemeasure(d),
		"stop":      c.decodeStop(d),
	})
	parseEnum(d, "evolution.model", model, &c.Evolution.Model, ParseModel)
	parseEnum(d, "evolution.selection", selection, &c.Evolution.Selection, ParseSelection)
	parseEnum(d, "evolution.crossover", crossover, &c.Evolution.Crossover, genome.ParseCrossover)
	parseEnum(d, "fitness.population.rating", ratingModel, &c.Fitness.Population.Rating, ParseRatingModel)
}

func parseEnum[T any](d *yamlcheck.Checker, key, s string, dst *T, parse func(string) (T, error)) {
	if s == "" {
		return
	}
	v, err := parse(s)
	if err != nil {
		d.Add(d.Line(key), key, "%s", trimPrefix(err))
		return
	}
	*dst = v
}

// trimPrefix drops a package prefix ("genome: ") from a message that will
// be shown after a file:line: key: prefix of its own.
func trimPrefix(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ": "); i > 0 && !strings.ContainsAny(msg[:i], " .") {
		return msg[i+2:]
	}
	return msg
}

// has reports whether the file set key (so defaults can depend on it).
func (c *Config) has(key string) bool { return c.at.Has(key) }

// settle fills in the defaults that depend on what the file wrote: a
// fitness mode counts when its section is written (baselines also by
// default when nothing else is, so the smallest config works), and the
// down-to-size model breeds a population's worth of offspring.
func (c *Config) settle() {
	f := &c.Fitness
	if !c.has("fitness.baselines") && (c.has("fitness.population") || c.has("fitness.hall-of-fame")) {
		f.Baselines.Weight = 0
	}
	if !c.has("fitness.population") {
		f.Population.Weight = 0
	}
	if !c.has("fitness.hall-of-fame") {
		f.HallOfFame.Weight = 0
	}
	if c.Evolution.Model == DownToSize && !c.has("evolution.offspring") {
		c.Evolution.Offspring = c.Evolution.Population
	}
}

// check validates the decoded config, builds the game, the space and the
// seeds, and records every problem.
func (c *Config) check(p *yamlcheck.Checker) {
	bad := func(key, format string, args ...any) { p.Add(p.Line(key), key, format, args...) }
	if c.Game == "" && len(c.Command) == 0 {
		bad("game", "missing: name a game (see 'evotune games') or the command of a program that plays one")
		return
	}
	if c.Player == "" {
		bad("player", "missing: name the tunable player")
	}
	var info fitness.GameInfo
	if len(c.Command) > 0 {
		var ok bool
		if info, ok = c.checkProgram(bad); !ok {
			return
		}
	} else {
		for _, key := range []string{"dir", "env", "timeout", "audit"} {
			if c.has(key) {
				bad(key, "belongs to a command: (an outside program), and there is none")
			}
		}
		var err error
		if info, err = catalog.Lookup(c.Game); err != nil {
			bad("game", "%s", err)
			return
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
			return
		}
		if path != v {
			rules = maps.Clone(rules)
			rules[o.Name] = path
		}
	}
	g, err := info.New(rules)
	if err != nil {
		c.ruleProblems(bad, err)
		return
	}
	c.game = g
	c.solo, c.hasSolo = fitness.SoloOf(g)
	c.role = g.Roles()[0]
	c.settleGame()
	c.checkObjective(bad)
	if c.Player != "" {
		pi, ok := fitness.Info(g, c.role, c.Player)
		switch {
		case !ok:
			bad("player", "%s has no tunable %v %q (tunable: %s)", c.Game, c.role, c.Player, strings.Join(c.tunable(g), ", "))
		case !pi.Tunable() && yamlcheck.IsNull(c.space):
			bad("player", "%s has no parameters to tune (tunable: %s)", c.Player, strings.Join(c.tunable(g), ", "))
		default:
			sp, err := genome.NewSpace(pi.Schema, c.space)
			if err != nil {
				c.genomeProblems(p, "", "space", err)
			} else {
				c.spaceOf = sp
				genes, err := sp.ParseSeeds(c.seeds)
				if err != nil {
					c.genomeProblems(p, "", "seeds", err)
				}
				c.seedGenes = genes
			}
		}
	}
	c.checkCoevolve(p, bad)
	c.checkFitness(bad)
	c.checkEvolution(bad)
	if c.spaceOf != nil {
		main := &species{player: c.Player, role: c.role, space: c.spaceOf, seeds: c.seedGenes,
			baselines: c.baselines, minimise: c.Fitness.Objective.Minimise()}
		c.species = append([]*species{main}, c.species...)
	}
	c.checkLimits(bad)
	c.checkRacing(bad)
	c.checkRemeasure(bad)
	c.checkStop(bad)
	c.checkRating(bad)
	if c.Name != "" && !validName(c.Name) {
		bad("name", "%q: %s: it names the run directory runs/NAME", c.Name, nameRule)
	}
	if c.Run.Workers < 0 {
		bad("run.workers", "%d: want 0 (all cores) or more", c.Run.Workers)
	}
}

// settleGame fills in the defaults that depend on the game. The objective
// is by default the game's solo measure when there is one; a name that is
// not score is taken as meant for a solo measure, so later checks know
// what was asked for even when checkObjective refuses it. Solo games are
// by default played against the game's default opponent.
func (c *Config) settleGame() {
	f := &c.Fitness
	switch {
	case f.objective == "" && c.hasSolo:
		f.objective = c.solo.Measure
	case f.objective == "":
		f.objective = Score.String()
	}
	f.Objective = Solo
	if f.objective == Score.String() {
		f.Objective = Score
	}
	if f.Objective == Solo && c.hasSolo && c.solo.Opponent != "" && f.Baselines.Weight > 0 && len(f.Baselines.Opponents) == 0 {
		f.Baselines.Opponents = []string{c.solo.DefaultOpponent}
	}
}

func (c *Config) checkObjective(bad func(key, format string, args ...any)) {
	f := &c.Fitness
	if !c.hasSolo && f.objective != Score.String() {
		bad("fitness.objective", "%s has no solo measure: use score", c.Game)
	} else if _, err := ParseObjective(f.objective, c.solo.Measure); err != nil {
		bad("fitness.objective", "%s", err)
		return
	}
	if f.Objective == Score && !fitness.HasHeadToHead(c.game) {
		bad("fitness.objective", "%s has no head-to-head play: use %s", c.Game, c.solo.Measure)
	}
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

// ObjectiveName is the objective as configs name it: "score" or the
// game's solo measure ("shots").
func (c *Config) ObjectiveName() string { return c.Fitness.objective }

func (c *Config) tunable(g fitness.Game) []string {
	var names []string
	for _, q := range g.Players() {
		if q.Role == c.role && q.Tunable() {
			names = append(names, q.Name)
		}
	}
	return names
}

// checkCoevolve builds the rival species: players of the game's other
// role, scored by the same solo games with the opposite sense.
func (c *Config) checkCoevolve(p *yamlcheck.Checker, bad func(key, format string, args ...any)) {
	co := c.Coevolve
	if co == nil || c.game == nil {
		return
	}
	role, ok := fitness.OtherRole(c.game, c.role)
	if !ok {
		bad("coevolve", "%s has %d role(s) (%s): co-evolution breeds a second role against the first", c.Game,
			len(c.game.Roles()), joinRoles(c.game.Roles()))
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
	pi, ok := fitness.Info(c.game, role, co.Player)
	if !ok || !pi.Tunable() {
		bad("coevolve.player", "%s has no tunable %v %q", c.Game, role, co.Player)
		return
	}
	rivals := &species{label: "rivals", player: co.Player, role: role, minimise: !c.Fitness.Objective.Minimise(), offset: 1 << 32}
	sp, err := genome.NewSpace(pi.Schema, co.space)
	if err != nil {
		// Go on to the opponents: a user sees every mistake in one pass.
		c.genomeProblems(p, "coevolve", "space", err)
	} else {
		rivals.space = sp
		if rivals.seeds, err = sp.ParseSeeds(co.seeds); err != nil {
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
	if len(rivals.seeds) > c.Evolution.Population {
		bad("coevolve.seeds", "%s for a population of %d", english.Count(len(rivals.seeds), "seed"), c.Evolution.Population)
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

func (c *Config) checkFitness(bad func(key, format string, args ...any)) {
	f := &c.Fitness
	for _, m := range []struct {
		key    string
		weight float64
		games  int
	}{
		{"fitness.baselines", f.Baselines.Weight, f.Baselines.Games},
		{"fitness.population", f.Population.Weight, f.Population.Games},
		{"fitness.hall-of-fame", f.HallOfFame.Weight, f.HallOfFame.Games},
	} {
		if m.weight < 0 {
			bad(m.key+".weight", "%v: want 0 or more", m.weight)
		}
		if m.weight > 0 && m.games < 1 {
			bad(m.key+".games", "%d: want at least 1", m.games)
		}
	}
	if f.Baselines.Weight+f.Population.Weight+f.HallOfFame.Weight <= 0 {
		bad("fitness", "no fitness mode has a positive weight")
	}
	if c.Coevolve != nil && f.Population.Weight <= 0 && f.HallOfFame.Weight <= 0 {
		bad("fitness", "co-evolving species meet only through the population or hall-of-fame modes: give one a weight")
	}
	if f.Objective == Solo && c.game != nil && c.Coevolve == nil {
		against := "measured alone"
		if c.solo.Opponent != "" {
			against = fmt.Sprintf("measured against %vs", c.solo.Opponent)
		}
		if f.Population.Weight > 0 {
			bad("fitness.population", "the %s objective is %s: population games need the score objective", c.solo.Measure, against)
		}
		if f.HallOfFame.Weight > 0 {
			bad("fitness.hall-of-fame", "the %s objective is %s: hall-of-fame games need the score objective", c.solo.Measure, against)
		}
	}
	if f.Baselines.Weight > 0 && c.game != nil {
		role := c.role
		opps := f.Baselines.Opponents
		if f.Objective == Solo && !c.hasSolo {
			return // said already: the game has no solo measure
		}
		switch {
		case f.Objective == Solo && c.solo.Opponent == "":
			if len(opps) > 0 {
				bad("fitness.baselines.opponents", "%s games of %s have no opponent: leave this out", c.solo.Measure, c.Game)
			}
			c.baselines = []fitness.Player{nil} // one baseline: the game alone
			return
		case f.Objective == Solo:
			role = c.solo.Opponent
		case len(opps) == 0:
			bad("fitness.baselines.opponents", "missing: name the players every individual meets")
		}
		for i, spec := range opps {
			pl, err := c.parseOpponent(role, spec)
			if err != nil {
				key := fmt.Sprintf("fitness.baselines.opponents[%d]", i)
				if !c.has("fitness.baselines.opponents") {
					key = "rules" // the game's default opponent, as its rules set it
				}
				bad(key, "%s", oneLine(err))
				continue
			}
			c.baselines = append(c.baselines, pl)
		}
	}
	if f.Objective == Score {
		// Head-to-head games are played in seat-swapped pairs on one deal.
		for _, m := range []struct {
			key    string
			weight float64
			games  int
		}{{"fitness.baselines.games", f.Baselines.Weight, f.Baselines.Games},
			{"fitness.population.games", f.Population.Weight, f.Population.Games},
			{"fitness.hall-of-fame.games", f.HallOfFame.Weight, f.HallOfFame.Games}} {
			if m.weight > 0 && m.games > 0 && m.games%2 != 0 {
				bad(m.key, "%d: want an even number: head-to-head games are played in seat-swapped pairs", m.games)
			}
		}
	}
	if f.Population.Weight > 0 && f.Population.Opponents < 1 {
		bad("fitness.population.opponents", "%d: want at least 1", f.Population.Opponents)
	}
	if f.HallOfFame.Weight > 0 && f.HallOfFame.Members < 1 {
		bad("fitness.hall-of-fame.members", "%d: want at least 1", f.HallOfFame.Members)
	}
}

func joinRoles(rs []fitness.Role) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.String()
	}
	return strings.Join(names, ", ")
}

// nameRule is what validName accepts, for messages.
const nameRule = "want letters, digits, '.', '_' or '-', not starting with '.'"

// DefaultDir is the run directory of a run given no --out: runs/NAME.
// A name taken from the config's file name passes the rule a name: in
// the config does, or "..yaml" would make runs/ itself the run directory
// and " .yaml" a directory named by a space.
func (c *Config) DefaultDir() (string, error) {
	if !validName(c.Name) {
		return "", fmt.Errorf("%s: the run would be named %q after the file, which cannot name its directory under runs/ (%s); pass --out DIR, or set name: in the config",
			c.file, c.Name, nameRule)
	}
	return filepath.Join("runs", c.Name), nil
}

func validName(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
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

// checkpointDir is where a checkpoint must remember relative specs to be
// found from: empty when there are none, so runs of one config from
// different places write identical checkpoints.
func (c *Config) checkpointDir() string {
	if !c.relative {
		return ""
	}
	dir, err := filepath.Abs(c.baseDir)
	if err != nil {
		return c.baseDir
	}
	return dir
}

func (c *Config) checkEvolution(bad func(key, format string, args ...any)) {
	e := &c.Evolution
	if e.Population < 2 {
		bad("evolution.population", "%d: want at least 2", e.Population)
	}
	if e.Generations < 1 {
		bad("evolution.generations", "%d: want at least 1", e.Generations)
	}
	rate := func(key string, x float64) {
		if x < 0 || x > 1 {
			bad(key, "%v: want a probability in [0, 1]", x)
		}
	}
	rate("evolution.crossover-rate", e.CrossoverRate)
	rate("evolution.mutation-rate", e.MutationRate)
	rate("evolution.mutation.gene-rate", e.Mutation.Rate)
	rate("evolution.mutation.choice-rate", e.Mutation.ChoiceRate)
	if e.Mutation.Sigma < 0 {
		bad("evolution.mutation.sigma", "%v: want 0 (default 0.1) or more", e.Mutation.Sigma)
	} else if err := e.Mutation.Validate(); err != nil {
		bad("evolution.mutation", "%s", oneLine(err)) // genome's own checks, should they grow
	}
	if e.BlendAlpha < 0 {
		bad("evolution.blend-alpha", "%v: want 0 or more", e.BlendAlpha)
	}
	if e.HallOfFame < 1 {
		bad("evolution.hall-of-fame", "%d: want at least 1", e.HallOfFame)
	}
	if c.Fitness.HallOfFame.Weight > 0 && c.Fitness.HallOfFame.Members > e.HallOfFame {
		bad("fitness.hall-of-fame.members", "%d: more than the %d kept (evolution.hall-of-fame)", c.Fitness.HallOfFame.Members, e.HallOfFame)
	}
	if e.Population < 2 {
		return
	}
	if e.Selection == Tournament && e.Model.selects() && (e.TournamentSize < 1 || e.TournamentSize+1 > e.Population) {
		// eaopt's tournament draws both parents' contestants without
		// replacement: it needs size+1 individuals.
		bad("evolution.tournament-size", "%d: want from 1 to population-1 (%d)", e.TournamentSize, e.Population-1)
	}
	if e.Model != CMAES && c.has("evolution.step-size") {
		bad("evolution.step-size", "belongs to model cmaes, and the model is %v", e.Model)
	}
	switch e.Model {
	case Generational:
		if e.Elitism < 0 || e.Elitism >= e.Population {
			bad("evolution.elitism", "%d: want from 0 to population-1 (%d)", e.Elitism, e.Population-1)
		}
	case NaturalSelection:
		if e.Keep < 1 || e.Keep >= e.Population {
			bad("evolution.keep", "%d: want from 1 to population-1 (%d)", e.Keep, e.Population-1)
		}
	case CMAES:
		if !c.has("evolution.step-size") {
			e.StepSize = DefaultStepSize
		}
		if !(e.StepSize > 0 && e.StepSize <= 10) {
			bad("evolution.step-size", "%v: want a number above 0 (a fraction of each gene's range, default %v), at most 10", e.StepSize, DefaultStepSize)
		}
	case DownToSize:
		if e.Offspring < 2 {
			bad("evolution.offspring", "%d: want at least 2", e.Offspring)
		}
	}
	if c.Fitness.Population.Weight > 0 && c.Fitness.Population.Opponents > e.Population-1 {
		bad("fitness.population.opponents", "%d: more than the %d others in a population of %d",
			c.Fitness.Population.Opponents, e.Population-1, e.Population)
	}
	if len(c.seedGenes) > e.Population {
		bad("seeds", "%s for a population of %d", english.Count(len(c.seedGenes), "seed"), e.Population)
	}
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// Space is the searched parameter space.
func (c *Config) Space() *genome.Space { return c.spaceOf }

// GameOf returns the game the config plays.
func (c *Config) GameOf() fitness.Game { return c.game }

// Text is the config file as given.
func (c *Config) Text() []byte { return c.text }

// settings flattens the result-affecting settings to key -> value, with
// defaults filled in, so that two configs can be compared key by key.
func (c *Config) settings() map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				walk(yamlcheck.Join(prefix, k), y)
			}
		case nil: // an unset section: the same as an empty one
		default:
			b, _ := json.Marshal(x)
			out[prefix] = string(b)
		}
	}
	var m map[string]any
	b, _ := json.Marshal(c)
	_ = json.Unmarshal(b, &m)
	walk("", m)
	nodes := map[string]*yaml.Node{"space": c.space, "seeds": c.seeds}
	if c.Coevolve != nil {
		nodes["coevolve.space"], nodes["coevolve.seeds"] = c.Coevolve.space, c.Coevolve.seeds
	}
	for key, n := range nodes {
		if yamlcheck.IsNull(n) {
			continue
		}
		var v any
		_ = n.Decode(&v)
		b, _ := json.Marshal(v)
		var generic any
		_ = json.Unmarshal(b, &generic)
		walk(key, generic)
	}
	return out
}

// Hash identifies the results a config produces: configs with equal
// hashes give identical runs.
func (c *Config) Hash() string {
	s := c.settings()
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, s[k])
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// ChangedKeys lists the result-affecting keys whose values differ.
func (c *Config) ChangedKeys(other *Config) []string {
	a, b := c.settings(), other.settings()
	var keys []string
	for k, v := range a {
		if b[k] != v {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return slices.Compact(keys)
}

// Summary describes a valid config in a few lines, for `evotune validate`.
func (c *Config) Summary() string {
	e, f := c.Evolution, c.Fitness
	var modes []string
	if f.Baselines.Weight > 0 {
		modes = append(modes, fmt.Sprintf("baselines %v x %s (weight %g)", f.Baselines.Opponents, english.Count(f.Baselines.Games, "game"), f.Baselines.Weight))
	}
	if f.Population.Weight > 0 {
		modes = append(modes, fmt.Sprintf("population %s x %s (weight %g)", english.Count(f.Population.Opponents, "opponent"), english.Count(f.Population.Games, "game"), f.Population.Weight))
	}
	if f.HallOfFame.Weight > 0 {
		modes = append(modes, fmt.Sprintf("hall of fame %s x %s (weight %g)", english.Count(f.HallOfFame.Members, "member"), english.Count(f.HallOfFame.Games, "game"), f.HallOfFame.Weight))
	}
	return fmt.Sprintf("%s: valid\n  %s, player %s, %s to search, %s\n  objective %v: %s\n  %v model, population %d, %s, seed %d\n",
		c.file, c.Game, c.Player, english.Count(c.spaceOf.Len(), "gene"), english.Count(len(c.seedGenes), "seed"), c.ObjectiveName(), strings.Join(modes, "; "),
		e.Model, e.Population, english.Count(e.Generations, "generation"), c.Seed) + c.spendingSummary()
}
