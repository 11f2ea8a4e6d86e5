package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
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
	Evolution model.Evolution   `json:"evolution"`
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

	file         string
	baseDir      string // where relative NAME:FILE specs are found
	text         []byte
	at           *yamlcheck.Checker // where every key was written
	nameFromFile bool               // name: was not written: the file's name stands in

	// setup is what prepare built for a run of the config.
	setup
}

// setup is what prepare builds for a run of a config: nothing of it is
// decoded, and decoding, defaults and checks change none of it.
type setup struct {
	relative bool              // some spec names a file relative to baseDir
	files    map[string]string // NAME:FILE spec as written -> sha256 of the file
	game     fitness.Game
	role     fitness.Role // the tuned role: the game's first
	solo     fitness.Solo // the game's solo declaration, if it has one
	hasSolo  bool
	main     *species     // the main species, as far as it was built
	species  []*species   // the main species (main, once built), then the rivals when co-evolving
	program  *program     // the outside program, with command:
	guard    *workerGuard // set when a worker loads a coordinator's config
	// legacyModel chooses the model of a config that names none as
	// before model.SoloDefault: see parseFor.
	legacyModel bool
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
	label     string           // "" for the main species, "rivals" for the co-evolving one
	player    string           // the tuned player's name
	settings  fitness.Settings // its settings, from player: NAME@KEY=VALUE
	role      fitness.Role
	space     *genome.Space
	starts    [][]float64 // the genomes of its seeds: section
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

// RunConfig holds settings that do not change results.
type RunConfig struct {
	Workers int
}

// ConfigErrors is every problem found in a config, in line order, each
// as file:line: key: message.
type ConfigErrors = yamlcheck.Errors

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

// parseGuarded is parseIn for a worker when guard is not nil.
func parseGuarded(file string, text []byte, baseDir string, guard *workerGuard) (*Config, error) {
	return parseWith(file, text, baseDir, guard, false)
}

// parseFor parses a config that must hash to hash: a checkpoint's, or a
// coordinator's for its workers. A config that names no model ran on a
// solo measure with Models[0] before model.SoloDefault was its default:
// when its hash says so, that config is returned, so that a run goes on
// with the model it began with. Otherwise it is parseGuarded's config,
// whose hash the caller compares.
func parseFor(hash, file string, text []byte, baseDir string, guard *workerGuard) (*Config, error) {
	c, err := parseWith(file, text, baseDir, guard, false)
	if err != nil || c.Hash() == hash || c.has("evolution.model") || c.Evolution.Model.Name != model.SoloDefault {
		return c, err
	}
	old, err := parseWith(file, text, baseDir, guard, true)
	if err != nil || old.Hash() != hash {
		if old != nil {
			old.Close()
		}
		return c, nil
	}
	c.Close()
	return old, nil
}

// parseWith is parseGuarded; legacy chooses the model of a config that
// names none as before model.SoloDefault (model.Evolution.ChooseDefault).
func parseWith(file string, text []byte, baseDir string, guard *workerGuard, legacy bool) (*Config, error) {
	c := defaults()
	c.file, c.baseDir, c.text, c.guard, c.legacyModel = file, baseDir, text, guard, legacy
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
	// Four steps: decode the keys; fill in the defaults (defaults.go),
	// those that depend on what was written too; prepare what a run needs
	// (prepare.go: the game, the species, the baselines, the files'
	// hashes, the program), with the defaults that depend on the game;
	// then check the meaning (check.go), changing nothing. Every mistake
	// shows in one pass; a key that failed to decode has already said
	// what is wrong with it.
	c.decode(ck, root)
	c.settle()
	decoded := ck.Errors()
	semantic := ck.Fork()
	if c.checkFoundations(semantic) && c.prepare(semantic) {
		c.check(semantic)
	}
	for _, e := range semantic.Errors() {
		if !decoded.Covers(e.Key) {
			ck.AddErrors(yamlcheck.Errors{e})
		}
	}
	if err := ck.Err(); err != nil {
		c.Close()
		return nil, err
	}
	return &c, nil
}

func (c *Config) decode(d *yamlcheck.Checker, root *yaml.Node) {
	var ratingModel string
	d.Map(root, "", yamlcheck.Fields{
		"name":          d.String(&c.Name),
		"seed":          d.Uint64(&c.Seed),
		"game":          d.String(&c.Game),
		"command":       d.Names(&c.Command),
		"dir":           d.String(&c.Dir),
		"env":           d.Scalars(&c.Env),
		"timeout":       d.String(&c.ProgramConfig.timeout),
		"audit":         d.Number(&c.Audit),
		"program-files": d.Names(&c.ProgramFiles),
		"rules":         d.Options(&c.Rules),
		"player":        d.String(&c.Player),
		"space":         d.Node(&c.space),
		"seeds":         d.Node(&c.seeds),
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
		"evolution": c.Evolution.Decode(d),
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

// optional reads an optional section (racing:, remeasure:, stop:): one
// written is on, from defaults, with the keys fields names; one not
// written leaves *dst nil.
func optional[T any](d *yamlcheck.Checker, dst **T, defaults func() T, fields func(*T) yamlcheck.Fields) yamlcheck.Reader {
	return func(n *yaml.Node, path string) {
		v := defaults()
		*dst = &v
		d.Map(n, path, fields(&v))
	}
}

// has reports whether the file set key (so defaults can depend on it).
func (c *Config) has(key string) bool { return c.at.Has(key) }

// ObjectiveName is the objective as configs name it: "score" or the
// game's solo measure ("shots").
func (c *Config) ObjectiveName() string { return c.Fitness.objective }

// nameRule is what validName accepts, for messages.
const nameRule = "want letters, digits, '.', '_' or '-', not starting with '.'"

// DefaultDir is the run directory of a run given no -o: runs/NAME.
// A name taken from the config's file name passes the rule a name: in
// the config does, or "..yaml" would make runs/ itself the run directory
// and " .yaml" a directory named by a space.
func (c *Config) DefaultDir() (string, error) {
	if !validName(c.Name) {
		return "", fmt.Errorf("%s: the run would be named %q after the file, which cannot name its directory under runs/ (%s); pass -o DIR, or set name: in the config",
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

// oneLine folds a joined error onto one line.
func oneLine(err error) string { return english.OneLine(err.Error()) }

// Space is the searched parameter space.
func (c *Config) Space() *genome.Space {
	if c.main == nil {
		return nil
	}
	return c.main.space
}

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

// chosenSummary says which model a solo measure's config that names none
// runs, and why (model.Evolution.ChooseDefault).
func (c *Config) chosenSummary() string {
	if c.Evolution.Chosen == "" {
		return ""
	}
	return "  model: " + c.Evolution.Chosen + "; write evolution.model to choose\n"
}

// Summary describes a valid config in a few lines, for `evotune validate`.
func (c *Config) Summary() string {
	e, f := c.Evolution, c.Fitness
	var modes []string
	if f.Baselines.Weight > 0 {
		against := fmt.Sprintf("baselines %v", f.Baselines.Opponents)
		if c.alone() {
			against = "measured alone"
		}
		modes = append(modes, fmt.Sprintf("%s x %s (weight %g)", against, english.Count(f.Baselines.Games, "game"), f.Baselines.Weight))
	}
	if f.Population.Weight > 0 {
		modes = append(modes, fmt.Sprintf("population %s x %s (weight %g)", english.Count(f.Population.Opponents, "opponent"), english.Count(f.Population.Games, "game"), f.Population.Weight))
	}
	if f.HallOfFame.Weight > 0 {
		modes = append(modes, fmt.Sprintf("hall of fame %s x %s (weight %g)", english.Count(f.HallOfFame.Members, "member"), english.Count(f.HallOfFame.Games, "game"), f.HallOfFame.Weight))
	}
	// A model may evaluate more genomes than its population (spsa's theta
	// beside its pairs, down-to-size's offspring): say how many.
	pop := fmt.Sprintf("population %d", e.Population)
	if n := e.MaxSize(); n != e.Population {
		pop += fmt.Sprintf(" (%s evaluated a generation)", english.Count(n, "genome"))
	}
	return fmt.Sprintf("%s: valid\n  %s, player %s, %s to search, %s\n  objective %v: %s\n  %v model, %s, %s, seed %d\n",
		c.file, c.Game, c.Player, english.Count(c.main.space.Len(), "gene"), english.Count(len(c.main.starts), "seed"), c.ObjectiveName(), strings.Join(modes, "; "),
		e.Model.Name, pop, english.Count(e.Generations, "generation"), c.Seed) + c.chosenSummary() + c.spendingSummary()
}
