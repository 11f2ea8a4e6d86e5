package engine

import (
	"fmt"
	"strconv"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// exportFile lists the top k members of a species' hall of fame, with
// their ratings and fresh-deal figures when the run has them, and says
// which eval flag loads the first.
func (c *Config) exportFile(sp *species, st SpeciesState, k int) (*fitness.ParamsFile, string) {
	hof := st.HallOfFame
	f := &fitness.ParamsFile{Game: c.Game, Player: sp.player, Role: sp.role, Rules: c.Rules, Objective: c.ObjectiveName(), Settings: sp.settings}
	flag := "--player"
	if c.hasSolo && sp.role == c.solo.Opponent && sp.role != c.role {
		flag = "--opponent"
	}
	for i := 0; i < k && i < len(hof); i++ {
		m := hof[i]
		vals, err := sp.space.Decode(m.Genes)
		if err != nil {
			continue // checked when the checkpoint was read
		}
		p := fitness.RankedParams{
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
				p.Remeasured = &fitness.Figure{Fitness: round6(rm.Fitness), Games: rm.Games, CI95: [2]float64{round6(rm.CI95[0]), round6(rm.CI95[1])}}
			}
		}
		f.Players = append(f.Players, p)
	}
	return f, flag
}

// exportYAML renders the top k as a YAML parameter file whose comment
// says how to load it.
func (c *Config) exportYAML(sp *species, st SpeciesState, k int) ([]byte, error) {
	file, flag := c.exportFile(sp, st, k)
	return file.YAML(fmt.Sprintf("evotune export: the best %d %s %s parameter set(s); the first loads with %s %s:FILE",
		len(file.Players), file.Player, file.Role, flag, file.Player))
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
	if f == JSON {
		file, _ := cfg.exportFile(cfg.species[s], ck.states()[s], k)
		return file.JSON()
	}
	return cfg.exportYAML(cfg.species[s], ck.states()[s], k)
}
