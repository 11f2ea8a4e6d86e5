package fitness

import (
	"fmt"
	"strings"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/fileio"
	"gopkg.in/yaml.v3"
)

// Info returns the registered player name in role, if there is one.
func Info(g Game, role Role, name string) (PlayerInfo, bool) {
	for _, p := range g.Players() {
		if p.Name == name && p.Role == role {
			return p, true
		}
	}
	return PlayerInfo{}, false
}

// ParseSpec builds a player from a SPEC: a registered name ("over9000"),
// or NAME:FILE ("tuned:best.yaml") where FILE holds parameter values for
// the tunable player NAME in YAML or JSON. role is the role wanted, one of
// g.Roles().
func ParseSpec(g Game, role Role, spec string) (Player, error) {
	name, file, hasFile := strings.Cut(spec, ":")
	if name == "" {
		return nil, fmt.Errorf("%s: empty player name in spec %q", g.Name(), spec)
	}
	info, ok := Info(g, role, name)
	if !ok {
		// Let the game word the error: it knows the names it has.
		_, err := g.NewPlayer(role, name, genome.Values{})
		if err == nil {
			err = fmt.Errorf("%s: unknown %v %q", g.Name(), role, name)
		}
		return nil, err
	}
	if !hasFile {
		return g.NewPlayer(role, name, info.Schema.Defaults())
	}
	if !info.Tunable() {
		return nil, fmt.Errorf("%s: %s has no parameters to load from %s", g.Name(), name, file)
	}
	vals, err := LoadParams(file, g.Name(), role, name, info.Schema)
	if err != nil {
		return nil, err
	}
	return g.NewPlayer(role, name, vals)
}

// paramsFile is what a parameter file may hold: a bare mapping of
// parameter values, or an evotune export with params at the top level or
// a ranked players list (the first entry is taken).
type paramsFile struct {
	Game    string         `yaml:"game"`
	Player  string         `yaml:"player"`
	Role    string         `yaml:"role"`
	Params  map[string]any `yaml:"params"`
	Players []struct {
		Params map[string]any `yaml:"params"`
	} `yaml:"players"`
}

// LoadParams reads parameter values for player (in role) of game from a
// YAML or JSON file and checks them against schema.
func LoadParams(file, game string, role Role, player string, schema genome.Schema) (genome.Values, error) {
	data, err := fileio.ReadFile(file, fileio.MaxPlayerFile)
	if err != nil {
		return genome.Values{}, err
	}
	var raw map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return genome.Values{}, fmt.Errorf("%s: %v", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if raw == nil {
		return genome.Values{}, fmt.Errorf("%s: empty file, want parameter values for %s", file, player)
	}
	params := raw
	if _, export := raw["params"]; export || raw["players"] != nil {
		var pf paramsFile
		if err := yaml.Unmarshal(data, &pf); err != nil {
			return genome.Values{}, fmt.Errorf("%s: %v", file, strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if pf.Game != "" && pf.Game != game {
			return genome.Values{}, fmt.Errorf("%s: parameters are for game %q, not %q", file, pf.Game, game)
		}
		// Symmetric games (one role, Mover) take parameters of any role,
		// as they always have: their players play every side.
		if pf.Role != "" && role != Mover && pf.Role != role.String() {
			return genome.Values{}, fmt.Errorf("%s: parameters are for a %s, not a %v", file, pf.Role, role)
		}
		if pf.Player != "" && pf.Player != player {
			return genome.Values{}, fmt.Errorf("%s: parameters are for player %q, not %q", file, pf.Player, player)
		}
		switch {
		case pf.Params != nil:
			params = pf.Params
		case len(pf.Players) > 0 && pf.Players[0].Params != nil:
			params = pf.Players[0].Params
		default:
			return genome.Values{}, fmt.Errorf("%s: no params found", file)
		}
	}
	vals, err := schema.FromMap(params)
	if err != nil {
		return genome.Values{}, fmt.Errorf("%s: %s", file, joinLines(err))
	}
	return vals, nil
}

// joinLines folds a joined error onto one line: the CLI prints one line
// per bad input.
func joinLines(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// CheckParams reports whether params fit schema: the same parameters, of
// the same kinds, each within schema's range. Games call it in NewPlayer,
// so values built against a wider or different schema are refused rather
// than played.
func CheckParams(schema genome.Schema, params genome.Values) error {
	have := params.Schema()
	if len(have) != len(schema) {
		return fmt.Errorf("fitness: %d parameters, want %d", len(have), len(schema))
	}
	for i := range schema {
		p := &schema[i]
		q, ok := have.Lookup(p.Name)
		if !ok {
			return fmt.Errorf("fitness: parameter %s missing", p.Name)
		}
		if q.Kind != p.Kind {
			return fmt.Errorf("fitness: parameter %s is a %v, want a %v", p.Name, q.Kind, p.Kind)
		}
		if err := p.Check(params.Get(p.Name)); err != nil {
			return fmt.Errorf("fitness: %w", err)
		}
	}
	return nil
}
