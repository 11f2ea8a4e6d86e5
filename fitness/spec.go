package fitness

import (
	"fmt"
	"strings"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/fileio"
	"gopkg.in/yaml.v3"
)

// RoleGame is a game whose players come in several roles that may share
// names (Battleship's "random" shooter and "random" placer).
type RoleGame interface {
	Game
	NewRolePlayer(role Role, name string, params genome.Values) (Player, error)
}

// NewPlayerAs builds the registered player name in the given role.
func NewPlayerAs(g Game, role Role, name string, params genome.Values) (Player, error) {
	if rg, ok := g.(RoleGame); ok {
		return rg.NewRolePlayer(role, name, params)
	}
	return g.NewPlayer(name, params)
}

// Info returns the registered player name in role, if there is one.
func Info(g Game, role Role, name string) (PlayerInfo, bool) {
	for _, p := range g.Players() {
		if p.Name == name && (p.Role == role || p.Role == Mover) {
			return p, true
		}
	}
	return PlayerInfo{}, false
}

// ParseSpec builds a player from a SPEC: a registered name ("over9000"),
// or NAME:FILE ("tuned:best.yaml") where FILE holds parameter values for
// the tunable player NAME in YAML or JSON. role is the role wanted (Mover
// for one-role games).
func ParseSpec(g Game, role Role, spec string) (Player, error) {
	name, file, hasFile := strings.Cut(spec, ":")
	if name == "" {
		return nil, fmt.Errorf("%s: empty player name in spec %q", g.Name(), spec)
	}
	info, ok := Info(g, role, name)
	if !ok {
		// Let the game word the error: it knows the names it has.
		_, err := NewPlayerAs(g, role, name, genome.Values{})
		if err == nil {
			err = fmt.Errorf("%s: unknown %v %q", g.Name(), role, name)
		}
		return nil, err
	}
	if !hasFile {
		return NewPlayerAs(g, role, name, info.Schema.Defaults())
	}
	if !info.Tunable() {
		return nil, fmt.Errorf("%s: %s has no parameters to load from %s", g.Name(), name, file)
	}
	vals, err := LoadParams(file, g.Name(), role, name, info.Schema)
	if err != nil {
		return nil, err
	}
	return NewPlayerAs(g, role, name, vals)
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
