package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/evotune/evotune/genome"
	"gopkg.in/yaml.v3"
)

// ExportDoc is what `evotune export` writes and `--player NAME:FILE`
// reads back: the best parameter sets of a run with their figures.
type ExportDoc struct {
	Game      string            `json:"game" yaml:"game"`
	Player    string            `json:"player" yaml:"player"`
	Role      string            `json:"role" yaml:"role"`
	Rules     map[string]string `json:"rules,omitempty" yaml:"rules,omitempty"`
	Objective string            `json:"objective" yaml:"objective"`
	Players   []ExportedPlayer  `json:"players" yaml:"players"`

	flag       string // the eval flag that loads the first player
	remeasured bool   // some player has fresh-deal figures
}

// ExportedPlayer is one parameter set and its figures.
type ExportedPlayer struct {
	Rank       int        `json:"rank" yaml:"rank"`
	Generation int        `json:"generation" yaml:"generation"`
	Fitness    float64    `json:"fitness" yaml:"fitness"`
	Games      int        `json:"games" yaml:"games"`
	CI95       [2]float64 `json:"ci95" yaml:"ci95,flow"`
	// Remeasured is the figure on fresh deals that selection never saw
	// (with remeasure: in the config, once the run is finished); Fitness,
	// Games and CI95 above are those of selection, biased by it.
	Remeasured *Figure        `json:"remeasured,omitempty" yaml:"remeasured,omitempty"`
	Rating     *Rating        `json:"rating,omitempty" yaml:"rating,omitempty"` // Bradley-Terry, with fitness.population.rating
	Params     map[string]any `json:"params" yaml:"params"`
}

// Figure is a measured mean with its games and 95% interval.
type Figure struct {
	Fitness float64    `json:"fitness" yaml:"fitness"`
	Games   int        `json:"games" yaml:"games"`
	CI95    [2]float64 `json:"ci95" yaml:"ci95,flow"`
}

// exportDoc lists the top k members of a species' hall of fame.
func (c *Config) exportDoc(sp *species, st SpeciesState, k int) *ExportDoc {
	hof := st.HallOfFame
	doc := &ExportDoc{Game: c.Game, Player: sp.player, Role: sp.role.String(), Rules: c.Rules, Objective: c.ObjectiveName(), flag: "--player"}
	if c.hasSolo && sp.role == c.solo.Opponent && sp.role != c.role {
		doc.flag = "--opponent"
	}
	for i := 0; i < k && i < len(hof); i++ {
		m := hof[i]
		vals, err := sp.space.Decode(m.Genes)
		if err != nil {
			continue // checked when the checkpoint was read
		}
		p := ExportedPlayer{
			Rank: i + 1, Generation: m.Generation + 1, Fitness: round6(m.Fitness), Games: m.Games,
			CI95:   [2]float64{round6(m.CI95[0]), round6(m.CI95[1])},
			Params: readable(vals),
		}
		if m.Rating != nil {
			rt := *m.Rating
			rt.Elo, rt.CI95 = round6(rt.Elo), [2]float64{round6(rt.CI95[0]), round6(rt.CI95[1])}
			p.Rating = &rt
		}
		for _, rm := range st.Remeasured {
			if rm.Rank == i+1 {
				p.Remeasured = &Figure{Fitness: round6(rm.Fitness), Games: rm.Games, CI95: [2]float64{round6(rm.CI95[0]), round6(rm.CI95[1])}}
				doc.remeasured = true
			}
		}
		doc.Players = append(doc.Players, p)
	}
	return doc
}

// round6 keeps 6 significant digits: figures with noise in the second
// decimal read better without 45.013000000000005.
func round6(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// readable renders values for people: grids as rows.
func readable(v genome.Values) map[string]any {
	m := v.Map()
	for _, p := range v.Schema() {
		if p.Kind != genome.Grid {
			continue
		}
		cells := m[p.Name].([]float64)
		rows := make([][]float64, p.Rows)
		for r := range rows {
			rows[r] = cells[r*p.Cols : (r+1)*p.Cols]
		}
		m[p.Name] = rows
	}
	return m
}

func (d *ExportDoc) yaml() ([]byte, error) {
	var root yaml.Node
	if err := root.Encode(d); err != nil {
		return nil, fmt.Errorf("engine: export: %w", err)
	}
	flowLists(&root)
	root.HeadComment = fmt.Sprintf("evotune export: the best %d %s %s parameter set(s); the first loads with %s %s:FILE",
		len(d.Players), d.Player, d.Role, d.flag, d.Player)
	if d.remeasured {
		root.HeadComment += "\nfitness, games and ci95 are selection-time figures, from the games that chose these players\n" +
			"(biased towards luck); remeasured: the same players on fresh deals selection never saw"
		labelSelection(&root)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("engine: export: %w", err)
	}
	return b.Bytes(), nil
}

// flowLists writes lists of numbers on one line each, so a 10x10 grid is
// ten readable rows rather than a hundred lines.
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

func (d *ExportDoc) json() ([]byte, error) {
	out, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("engine: export: %w", err)
	}
	return append(out, '\n'), nil
}

// Format is an export file format.
type Format uint8

// The export formats.
const (
	YAML Format = iota + 1
	JSON
)

// ParseFormat reads "yaml" or "json".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "yaml", "yml":
		return YAML, nil
	case "json":
		return JSON, nil
	}
	return 0, fmt.Errorf("unknown format %q (want yaml or json)", s)
}

// Export renders the best k parameter sets of the run in dir: of its main
// species, or of the co-evolved rivals.
func Export(dir string, k int, f Format, rivals bool) ([]byte, error) {
	ck, cfg, err := ReadCheckpoint(dir)
	if err != nil {
		return nil, err
	}
	defer cfg.Close()
	if k < 1 {
		return nil, fmt.Errorf("engine: export: top %d: want at least 1", k)
	}
	s := 0
	if rivals {
		if ck.Rivals == nil {
			return nil, fmt.Errorf("%s: %w", dir, ErrNoRivals)
		}
		s = 1
	}
	doc := cfg.exportDoc(cfg.species[s], ck.states()[s], k)
	if f == JSON {
		return doc.json()
	}
	return doc.yaml()
}

// labelSelection marks every player's fitness as the selection-time
// figure, beside its remeasured one.
func labelSelection(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		remeasured := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			remeasured = remeasured || n.Content[i].Value == "remeasured"
		}
		for i := 0; remeasured && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "fitness" {
				n.Content[i].LineComment = "selection-time"
			}
		}
	}
	for _, c := range n.Content {
		labelSelection(c)
	}
}
