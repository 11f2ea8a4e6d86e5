// Package config is a tuning job as its YAML file writes it: Parse and
// Load decode every key, fill in the defaults that do not depend on the
// game and check what can be checked without it, and return a Config,
// plain data with nothing to close. It builds no game, reads no player
// file and starts no program: engine.Prepare does that, and gives the
// defaults and checks that depend on the game what they need (Game,
// Built). configs/reference.yaml documents every key and its default.
package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// Config is a tuning job as written in YAML.
type Config struct {
	Name      string            `json:"-"`
	Seed      uint64            `json:"seed"`
	Game      string            `json:"game"`
	Rules     map[string]string `json:"rules"`
	Player    string            `json:"player"`
	Fitness   Fitness           `json:"fitness"`
	Evolution model.Evolution   `json:"evolution"`
	Coevolve  *Coevolve         `json:"coevolve,omitempty"`
	// Racing and Remeasure are absent from the JSON (and so the hash) of a
	// config that does not set them, so older runs keep their hash.
	Racing    *Racing    `json:"racing,omitempty"`
	Remeasure *Remeasure `json:"remeasure,omitempty"`
	// Stop, likewise absent unless set, ends a run before its budget.
	Stop *Stop `json:"stop,omitempty"`
	Run  Run   `json:"-"`
	// Program (command:, dir:, env:, timeout:, audit:) plays the game
	// with an outside program instead of a built-in game.
	Program
	// Engines (engines:) are the UCI engines a chess config plays, by
	// name (the players uci:NAME); absent from the JSON of a config
	// without them, so older configs keep their hash.
	Engines map[string]*Engine `json:"engines,omitempty"`
	// Record (record:) is the share of games whose record (a chess
	// game's PGN) a run keeps beside every game lost to a fault; 0 keeps
	// those alone. Records are not results: not in the hash.
	Record float64 `json:"-"`
	// Space and Seeds are the space: and seeds: sections as written:
	// genome reads them against the player's schema, and reports their
	// lines.
	Space, Seeds *yaml.Node `json:"-"`

	file         string
	baseDir      string // where relative NAME:FILE specs are found
	text         []byte
	at           *yamlcheck.Checker // where every key was written
	nameFromFile bool               // name: was not written: the file's name stands in
}

// Coevolve adds a second species, of the game's other role, that
// evolves against the first through the solo games between the roles: for
// Battleship, placers that learn to hide fleets from the shooters while
// the shooters learn to find them.
type Coevolve struct {
	Player    string   `json:"player"`
	Opponents []string `json:"opponents"` // fixed players the rivals also meet

	Space, Seeds *yaml.Node `json:"-"`
}

// Fitness says what an individual's fitness is made of.
type Fitness struct {
	Objective  Objective       `json:"-"` // written as ObjectiveName; set once the game is known (WithGame)
	objective  string          // as written; resolved once the game is known
	Baselines  Baselines       `json:"baselines"`
	Population Population      `json:"population"`
	HallOfFame HallOfFame      `json:"hall_of_fame"`
	Mutation   genome.Mutation `json:"-"`
	_          struct{}        `json:"-"`
}

// Fitness's JSON names the objective by its name in configs ("shots",
// "score"), so hashes and checkpoints read as the file does.
func (f Fitness) MarshalJSON() ([]byte, error) {
	type plain Fitness
	return json.Marshal(struct {
		plain
		Objective string `json:"objective"`
	}{plain(f), f.objective})
}

// Baselines: every individual plays Games games against each listed
// opponent (the game's solo opponents, such as placers, for a solo
// objective).
type Baselines struct {
	Weight    float64  `json:"weight"`
	Games     int      `json:"games"`
	Opponents []string `json:"opponents"`
}

// Population: every individual meets Opponents others of its own
// generation, Games games each, seats swapped.
type Population struct {
	Weight    float64 `json:"weight"`
	Opponents int     `json:"opponents"`
	Games     int     `json:"games"`
	// Rating is how the games become a fitness; the default, the mean
	// score, is left out of the JSON so older configs keep their hash.
	Rating RatingModel `json:"rating,omitempty"`
}

// HallOfFame: every individual meets the Members best of earlier
// generations, Games games each.
type HallOfFame struct {
	Weight  float64 `json:"weight"`
	Members int     `json:"members"`
	Games   int     `json:"games"`
}

// Run holds settings that do not change results.
type Run struct {
	Workers int
}

// Errors is every problem found in a config, in line order, each as
// file:line: key: message.
type Errors = yamlcheck.Errors

// Load reads a config file and parses it (Parse).
func Load(file string) (*Config, error) {
	text, err := fileio.ReadFile(file, fileio.MaxConfig)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(file, text)
}

// Parse decodes config text, fills in the defaults that do not depend
// on the game and checks what can be checked without it; file names it
// in messages and relative NAME:FILE specs in it are found beside it.
// Every problem is reported at once, as Errors. What depends on the game
// is engine.Prepare's to check.
func Parse(file string, text []byte) (*Config, error) {
	c, ck := Decode(file, text, filepath.Dir(file))
	if c == nil {
		return nil, ck.Err()
	}
	if err := ck.Validate(func(p *yamlcheck.Checker) {
		if c.CheckFoundations(p) {
			c.Check(p, nil)
		}
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Decode takes the first two of the steps Parse takes: it decodes every
// key of text and fills in the defaults that depend on what was written
// (settle). It returns the config as far as it decoded, nil when the
// text holds no config, and the checker that holds the problems of
// decoding and where every key was written, for the checks of a caller
// that prepares the config (Checker.Validate). Relative NAME:FILE specs
// are found in dir.
func Decode(file string, text []byte, dir string) (*Config, *yamlcheck.Checker) {
	c := defaults()
	c.file, c.baseDir, c.text = file, dir, text
	ck := yamlcheck.New(file)
	c.at = ck
	root := ck.Parse(text)
	if ck.Err() != nil {
		return nil, ck
	}
	if root == nil {
		ck.Add(0, "", "empty config: want at least game and player")
		return nil, ck
	}
	c.decode(ck, root)
	c.settle()
	return &c, ck
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
		"timeout":       d.String(&c.Program.Timeout),
		"audit":         d.Number(&c.Audit),
		"program-files": d.Names(&c.ProgramFiles),
		"rules":         d.Options(&c.Rules),
		"player":        d.String(&c.Player),
		"space":         d.Node(&c.Space),
		"seeds":         d.Node(&c.Seeds),
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
			c.Coevolve = &Coevolve{}
			co := c.Coevolve
			d.Map(n, path, yamlcheck.Fields{
				"player":    d.String(&co.Player),
				"space":     d.Node(&co.Space),
				"seeds":     d.Node(&co.Seeds),
				"opponents": d.Names(&co.Opponents),
			})
		},
		"engines":   c.decodeEngines(d),
		"record":    d.Number(&c.Record),
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
		d.Add(d.Line(key), key, "%s", yamlcheck.Unprefixed(err))
		return
	}
	*dst = v
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

// Has reports whether the file set key (so defaults can depend on it).
func (c *Config) Has(key string) bool { return c.at.Has(key) }

// Fork returns a checker for problems of the config found after it was
// parsed (engine.Prepare's): it places them at the lines their keys were
// written on, and starts with none.
func (c *Config) Fork() *yamlcheck.Checker { return c.at.Fork() }

// File is the file the config was read from, as its messages name it.
func (c *Config) File() string { return c.file }

// BaseDir is where the config's relative NAME:FILE specs, program and
// program files are found: the config's directory, or for a config a
// checkpoint keeps, the directory the run recorded.
func (c *Config) BaseDir() string { return c.baseDir }

// Text is the config file as given.
func (c *Config) Text() []byte { return c.text }

// ObjectiveName is the objective as configs name it: "score" or the
// game's solo measure ("shots"); "" when the config leaves it to a game
// it has not been prepared with (WithGame sets it).
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

// Settings flattens the result-affecting settings to key -> value, with
// defaults filled in, so that two configs can be compared key by key.
func (c *Config) Settings() map[string]string {
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
	nodes := map[string]*yaml.Node{"space": c.Space, "seeds": c.Seeds}
	if c.Coevolve != nil {
		nodes["coevolve.space"], nodes["coevolve.seeds"] = c.Coevolve.Space, c.Coevolve.Seeds
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
// hashes give identical runs. It is the hash of a config prepared for
// its game (engine.Setup.Hash): one that leaves defaults to the game
// (the objective, the model) hashes otherwise as written.
func (c *Config) Hash() string {
	s := c.Settings()
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
	a, b := c.Settings(), other.Settings()
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
