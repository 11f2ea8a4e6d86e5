package fitness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// ParamsFile is an exported parameter file: what `evotune export` writes
// and a NAME:FILE player spec (tuned:best.yaml) reads back. A hand-written
// file may instead give one set under params, or be a bare mapping of
// parameter values.
type ParamsFile struct {
	Game      string            `json:"game" yaml:"game"`
	Player    string            `json:"player" yaml:"player"`
	Role      Role              `json:"role" yaml:"role"`
	Rules     map[string]string `json:"rules,omitempty" yaml:"rules,omitempty"`
	Objective string            `json:"objective" yaml:"objective"`
	// Settings are the player's settings (Setting), which loading the
	// file applies: the run's player spec's, such as depth for tuned@depth=3.
	// Rules only record what the run played under and are not applied.
	Settings map[string]string `json:"settings,omitempty" yaml:"settings,omitempty"`
	Params   map[string]any    `json:"params,omitempty" yaml:"params,omitempty"` // one set, when not ranked
	Players  []RankedParams    `json:"players" yaml:"players"`
}

// RankedParams is one parameter set of an export and its figures.
type RankedParams struct {
	Rank       int `json:"rank" yaml:"rank"`
	Generation int `json:"generation" yaml:"generation"`
	Figure     `yaml:",inline"`
	// HallOfFameRank is the set's place in the run's hall of fame, when
	// the file is ordered by the remeasure (the recommended set first):
	// Rank is then the file's order.
	HallOfFameRank int `json:"hall_of_fame_rank,omitempty" yaml:"hall_of_fame_rank,omitempty"`
	// From names, for a set that is not the hall of fame's, where it
	// comes from: "model spsa" for the model's own recommendation (SPSA's
	// theta), which only the remeasure played, so that Fitness, Games and
	// CI95 above are the remeasure's figure, not selection's.
	From string `json:"from,omitempty" yaml:"from,omitempty"`
	// Remeasured is the figure on fresh deals that selection never saw,
	// which ranked the best of a finished run; Fitness, Games and CI95
	// above are selection's, biased towards luck by it.
	Remeasured *Figure `json:"remeasured,omitempty" yaml:"remeasured,omitempty"`
	// Fresh is the recommended set's figure on a second fresh sample,
	// which chose nothing: the figure to quote.
	Fresh *Fresh `json:"fresh,omitempty" yaml:"fresh,omitempty"`
	// Rating is the Bradley-Terry rating (fitness.population.rating).
	Rating *Rating        `json:"rating,omitempty" yaml:"rating,omitempty"`
	Params map[string]any `json:"params" yaml:"params"`
}

// Figure is a measured mean with its games and 95% interval.
type Figure struct {
	Fitness float64    `json:"fitness" yaml:"fitness"`
	Games   int        `json:"games" yaml:"games"`
	CI95    [2]float64 `json:"ci95" yaml:"ci95,flow"`
}

// Fresh is a figure on a second fresh sample and what it was measured
// against: the baselines (with the run's starting point on the same
// deals, and the paired difference), or, head to head, the starting
// point or the remeasure's runner-up.
type Fresh struct {
	Against string `json:"against" yaml:"against"`
	Figure  `yaml:",inline"`
	// Start is the run's starting point on the same deals (the first
	// seed, else the player's defaults), VsStart the paired difference
	// fresh - start, per deal.
	Start   *Figure     `json:"start,omitempty" yaml:"start,omitempty"`
	VsStart *Difference `json:"vs_start,omitempty" yaml:"vs_start,omitempty"`
}

// Difference is a paired difference with its 95% interval, over Games
// deals (head to head: seat-swapped pairs) both sides played.
type Difference struct {
	Difference float64    `json:"difference" yaml:"difference"`
	Games      int        `json:"games" yaml:"games"`
	CI95       [2]float64 `json:"ci95" yaml:"ci95,flow"`
}

// Rating is a Bradley-Terry rating in Elo points with its 95% interval,
// relative to the rated players' mean and anchored from generation to
// generation on the hall of fame, so ratings of different generations
// compare.
type Rating struct {
	Elo   float64    `json:"elo" yaml:"elo"`
	CI95  [2]float64 `json:"ci95" yaml:"ci95,flow"`
	Games int        `json:"games" yaml:"games"` // games rated: population and hall of fame
}

// YAML renders the file with comment on top, lists of numbers on one line
// each, so a 10x10 grid is ten readable rows rather than a hundred lines.
func (f *ParamsFile) YAML(comment string) ([]byte, error) {
	var root yaml.Node
	if err := root.Encode(f); err != nil {
		return nil, fmt.Errorf("fitness: parameter file: %w", err)
	}
	flowLists(&root)
	root.HeadComment = comment
	if f.remeasured() {
		root.HeadComment += "\nfitness, games and ci95 are selection-time figures, from the games that chose these players\n" +
			"(biased towards luck); remeasured: the same players on fresh deals selection never saw, which ranked them"
		labelSelection(&root)
	}
	for _, p := range f.Players {
		if p.From != "" {
			root.HeadComment += "\nfrom: " + p.From + "'s own recommendation, which selection never played: its fitness is the remeasure's"
			break
		}
	}
	if len(f.Players) > 0 && f.Players[0].Fresh != nil {
		root.HeadComment += "\nfresh: the first player on a second fresh sample that chose nothing, the figure to quote;\n" +
			"start: the run's starting point on the same deals; vs_start: the paired difference fresh - start"
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("fitness: parameter file: %w", err)
	}
	return b.Bytes(), nil
}

func (f *ParamsFile) remeasured() bool {
	for _, p := range f.Players {
		if p.Remeasured != nil {
			return true
		}
	}
	return false
}

// labelSelection marks every player's fitness as the selection-time
// figure, beside its remeasured one.
func labelSelection(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		remeasured, from := false, false
		for i := 0; i+1 < len(n.Content); i += 2 {
			remeasured = remeasured || n.Content[i].Value == "remeasured"
			from = from || n.Content[i].Value == "from"
		}
		for i := 0; remeasured && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "fitness" {
				n.Content[i].LineComment = "selection-time"
				if from {
					n.Content[i].LineComment = "the remeasure's: selection never played it"
				}
			}
		}
	}
	for _, c := range n.Content {
		labelSelection(c)
	}
}

func flowLists(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode {
		scalars := true
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				scalars = false
			}
		}
		if scalars {
			n.Style = yaml.FlowStyle
		}
	}
	for _, c := range n.Content {
		flowLists(c)
	}
}

// JSON renders the file as indented JSON.
func (f *ParamsFile) JSON() ([]byte, error) {
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("fitness: parameter file: %w", err)
	}
	return append(out, '\n'), nil
}

// LoadParams reads the parameter values and settings of player (of
// game) from a player file in YAML or JSON, and checks the values against
// the player's schema and the settings' names against its settings. Every
// problem is reported at once, each as file:line: key: message. The
// settings' values are the game's to check, when it builds the player.
func LoadParams(file, game string, player PlayerInfo) (genome.Values, Settings, error) {
	data, err := fileio.ReadFile(file, fileio.MaxPlayerFile)
	if err != nil {
		return genome.Values{}, nil, err
	}
	ck := yamlcheck.New(file)
	root := ck.Parse(data)
	if err := ck.Err(); err != nil {
		return genome.Values{}, nil, err
	}
	if root == nil {
		ck.Add(0, "", "empty file, want parameter values for %s", player.Name)
		return genome.Values{}, nil, ck.Err()
	}
	values, key := root, ""
	var settings Settings
	if isExport(root) {
		values, key, settings = readExport(ck, root, game, player)
	} else if sections := configSections(root, player.Schema); len(sections) > 0 {
		ck.Add(0, "", "is a config (it has %s), not a player file; a player file is a run's best.yaml or an export ('evotune export RUN_DIR -o FILE')",
			strings.Join(sections, ", "))
		return genome.Values{}, nil, ck.Err()
	}
	if ck.Err() != nil || values == nil {
		return genome.Values{}, nil, ck.Err()
	}
	vals, err := player.Schema.ParseValues(values)
	if es, ok := errors.AsType[yamlcheck.Errors](err); ok {
		ck.AddErrors(es.Under(key))
		return genome.Values{}, nil, ck.Err()
	}
	return vals, settings, err
}

// configOnly are the keys of a config that no player file has: a file
// holding them was given where a player file belongs.
var configOnly = []string{"fitness", "evolution", "space", "seeds", "coevolve"}

// configSections returns the config sections a bare mapping has, when
// none of its keys names a parameter of schema: a config given as a
// player file, whose every key would otherwise be an unknown parameter.
func configSections(root *yaml.Node, schema genome.Schema) []string {
	if root.Kind != yaml.MappingNode {
		return nil
	}
	var found []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := yamlcheck.Resolve(root.Content[i]).Value
		if _, isParam := schema.Lookup(k); isParam {
			return nil
		}
		if slices.Contains(configOnly, k) {
			found = append(found, k+":")
		}
	}
	return found
}

// isExport tells an export (params or players at the top) from a bare
// mapping of parameter values.
func isExport(root *yaml.Node) bool {
	if root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k, v := yamlcheck.Resolve(root.Content[i]), root.Content[i+1]; k.Value {
		case "params", "settings":
			return true
		case "players":
			if !yamlcheck.IsNull(yamlcheck.Resolve(v)) {
				return true
			}
		}
	}
	return false
}

// readExport decodes an export, checks it is meant for game and player
// (and the player's role), and returns the node of the values to load
// (top-level params, or else the first ranked player's), its key, and
// the file's settings.
func readExport(ck *yamlcheck.Checker, root *yaml.Node, game string, info PlayerInfo) (*yaml.Node, string, Settings) {
	role, player := info.Role, info.Name
	var pf ParamsFile
	var params *yaml.Node
	var firstParams *yaml.Node
	ck.Map(root, "", yamlcheck.Fields{
		"game":      ck.String(&pf.Game),
		"player":    ck.String(&pf.Player),
		"role":      ck.String((*string)(&pf.Role)),
		"rules":     ck.Options(&pf.Rules),
		"objective": ck.String(&pf.Objective),
		"settings":  ck.Options(&pf.Settings),
		"params":    ck.Node(&params),
		"players": func(n *yaml.Node, key string) {
			n = yamlcheck.Resolve(n)
			if yamlcheck.IsNull(n) {
				return
			}
			if n.Kind != yaml.SequenceNode {
				ck.Add(n.Line, key, "want a list of ranked parameter sets, got %s", yamlcheck.Describe(n))
				return
			}
			for i, item := range n.Content {
				var rp RankedParams
				var node *yaml.Node
				at := fmt.Sprintf("%s[%d]", key, i)
				ck.Map(item, at, yamlcheck.Fields{
					"rank":              ck.Int(&rp.Rank),
					"generation":        ck.Int(&rp.Generation),
					"fitness":           ck.Number(&rp.Fitness),
					"games":             ck.Int(&rp.Games),
					"ci95":              interval(ck, &rp.CI95),
					"remeasured":        figure(ck, &rp.Remeasured),
					"hall_of_fame_rank": ck.Int(&rp.HallOfFameRank),
					"from":              ck.String(&rp.From),
					"fresh":             freshFigure(ck, &rp.Fresh),
					"rating":            rating(ck, &rp.Rating),
					"params":            ck.Node(&node),
				})
				if i == 0 {
					firstParams = node
				}
			}
		},
	})
	if ck.Err() != nil {
		return nil, "", nil
	}
	mismatch := func(key, what, is, want string) {
		ck.Add(ck.Line(key), key, "the parameters are for %s %q, not %q", what, is, want)
	}
	if pf.Game != "" && pf.Game != game {
		mismatch("game", "game", pf.Game, game)
	}
	// Symmetric games (one role, Mover) take parameters of any role, as
	// they always have: their players play every side.
	if pf.Role != "" && role != Mover && pf.Role != role {
		ck.Add(ck.Line("role"), "role", "the parameters are for a %v, not a %v", pf.Role, role)
	}
	if pf.Player != "" && pf.Player != player {
		mismatch("player", "player", pf.Player, player)
	}
	for _, k := range slices.Sorted(maps.Keys(pf.Settings)) {
		if !info.hasSetting(k) {
			key := yamlcheck.Join("settings", k)
			ck.Add(ck.Line(key), key, "%s has no setting %q (%s)", player, k, info.settingNames())
		}
	}
	settings := Settings(pf.Settings)
	switch {
	case ck.Err() != nil:
		return nil, "", nil
	case !yamlcheck.IsNull(yamlcheck.Resolve(params)):
		return params, "params", settings
	case !yamlcheck.IsNull(yamlcheck.Resolve(firstParams)):
		return firstParams, "players[0].params", settings
	}
	ck.Add(ck.Line("params"), "params", "no parameter values found: want params, or players with params")
	return nil, "", nil
}

// figure reads a remeasured figure.
func figure(ck *yamlcheck.Checker, dst **Figure) yamlcheck.Reader {
	return func(n *yaml.Node, key string) {
		var f Figure
		ck.Map(n, key, yamlcheck.Fields{
			"fitness": ck.Number(&f.Fitness),
			"games":   ck.Int(&f.Games),
			"ci95":    interval(ck, &f.CI95),
		})
		*dst = &f
	}
}

// freshFigure reads a fresh figure.
func freshFigure(ck *yamlcheck.Checker, dst **Fresh) yamlcheck.Reader {
	return func(n *yaml.Node, key string) {
		var f Fresh
		ck.Map(n, key, yamlcheck.Fields{
			"against": ck.String(&f.Against),
			"fitness": ck.Number(&f.Fitness),
			"games":   ck.Int(&f.Games),
			"ci95":    interval(ck, &f.CI95),
			"start":   figure(ck, &f.Start),
			"vs_start": func(n *yaml.Node, key string) {
				var d Difference
				ck.Map(n, key, yamlcheck.Fields{
					"difference": ck.Number(&d.Difference),
					"games":      ck.Int(&d.Games),
					"ci95":       interval(ck, &d.CI95),
				})
				f.VsStart = &d
			},
		})
		*dst = &f
	}
}

// rating reads a rating.
func rating(ck *yamlcheck.Checker, dst **Rating) yamlcheck.Reader {
	return func(n *yaml.Node, key string) {
		var r Rating
		ck.Map(n, key, yamlcheck.Fields{
			"elo":   ck.Number(&r.Elo),
			"ci95":  interval(ck, &r.CI95),
			"games": ck.Int(&r.Games),
		})
		*dst = &r
	}
}

// interval reads a pair of numbers.
func interval(ck *yamlcheck.Checker, dst *[2]float64) yamlcheck.Reader {
	return func(n *yaml.Node, key string) {
		n = yamlcheck.Resolve(n)
		if yamlcheck.IsNull(n) || n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
			ck.Add(ck.Line(key), key, "want two numbers [low, high], got %s", yamlcheck.Describe(n))
			return
		}
		for i, item := range n.Content {
			ck.Number(&dst[i])(item, fmt.Sprintf("%s[%d]", key, i))
		}
	}
}
