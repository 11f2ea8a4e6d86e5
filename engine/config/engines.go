package config

import (
	"slices"
	"strings"
	"time"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// Engine is one UCI engine of the engines: section, played as the player
// uci:NAME of a chess config (docs/engines.md). What it plays with enters
// the hash (its command, working directory, environment, options in
// order, limit, scales and restart); how long evotune waits for it does
// not.
type Engine struct {
	Command []string          `json:"command"`
	Dir     string            `json:"dir,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Options are its fixed UCI options in the order written; they are
	// sent in it (Threads first).
	Options []yamlcheck.Pair `json:"options,omitempty"`
	// Limit is how long it thinks on a move, written as a player's
	// settings are (nodes, depth, movetime, tc, margin).
	Limit   map[string]string `json:"limit,omitempty"`
	Scale   map[string]int    `json:"scale,omitempty"`
	Restart bool              `json:"restart,omitempty"`
	// Timeouts are evotune's waits for it (start, ready, move), as
	// written: durations such as 10s. Not results: not in the hash.
	Timeouts map[string]string `json:"-"`
}

// TimeoutKeys are the keys of an engine's timeouts: section.
var TimeoutKeys = []string{"start", "ready", "move"}

// Timeout reads the engine's timeout key: 0 (its default) when it is not
// written; ok is false for a value that is not a positive duration.
func (e *Engine) Timeout(key string) (d time.Duration, ok bool) {
	s, set := e.Timeouts[key]
	if !set {
		return 0, true
	}
	d, err := time.ParseDuration(s)
	return d, err == nil && d > 0
}

// EngineKey is the key of engine name's field in messages:
// engines.NAME.field.
func EngineKey(name, field string) string {
	return yamlcheck.Join(yamlcheck.Join("engines", name), field)
}

// decodeEngines reads the engines: section: a mapping of names to
// engines.
func (c *Config) decodeEngines(d *yamlcheck.Checker) yamlcheck.Reader {
	return func(n *yaml.Node, path string) {
		c.Engines = map[string]*Engine{}
		d.Each(n, path, func(name string, v *yaml.Node, at string) {
			e := &Engine{}
			c.Engines[name] = e
			d.Map(v, at, yamlcheck.Fields{
				"command": d.Names(&e.Command),
				"dir":     d.String(&e.Dir),
				"env":     d.Scalars(&e.Env),
				"options": d.Pairs(&e.Options),
				"limit":   d.Scalars(&e.Limit),
				"scale": func(n *yaml.Node, key string) {
					e.Scale = map[string]int{}
					d.Each(n, key, func(opt string, v *yaml.Node, at string) {
						var x int
						d.Int(&x)(v, at)
						e.Scale[opt] = x
					})
				},
				"restart":  d.Bool(&e.Restart),
				"timeouts": d.Scalars(&e.Timeouts),
			})
		})
	}
}

// checkEngines checks what an engine's definition says of itself, with
// no engine started: a name, a command, scales and timeouts. What the
// engine itself has (its options and their ranges, the limit it obeys)
// is engine.Prepare's to check.
func (c *Config) checkEngines(bad bad) {
	for name, e := range c.Engines {
		if !validName(name) {
			bad(yamlcheck.Join("engines", name), "%q: %s: it names the player uci:%s", name, nameRule, name)
		}
		if len(e.Command) == 0 {
			bad(EngineKey(name, "command"), "missing: the engine's program and its arguments, such as [/usr/games/stockfish]")
		}
		for opt, x := range e.Scale {
			if x < 1 || x > 1_000_000 {
				bad(yamlcheck.Join(EngineKey(name, "scale"), opt), "%d: want a whole number from 1 (none) to 1000000", x)
			}
		}
		for key := range e.Timeouts {
			if !slices.Contains(TimeoutKeys, key) {
				bad(yamlcheck.Join(EngineKey(name, "timeouts"), key), "unknown key (known: %s)", strings.Join(TimeoutKeys, ", "))
				continue
			}
			if _, ok := e.Timeout(key); !ok {
				bad(yamlcheck.Join(EngineKey(name, "timeouts"), key), "%q: want a positive duration such as 10s", e.Timeouts[key])
			}
		}
	}
	if c.Record < 0 || c.Record > 1 {
		bad("record", "%v: want a share of the games from 0 (those lost to faults alone) to 1 (every game)", c.Record)
	}
	if len(c.Engines) > MaxEngines {
		bad("engines", "%d engines: at most %d", len(c.Engines), MaxEngines)
	}
}

// MaxEngines bounds the engines a config defines.
const MaxEngines = 64
