package main

import (
	"os"
	"path/filepath"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/quality"
	"gopkg.in/yaml.v3"
)

// writeParams writes genes as a player file: the run's best.yaml with
// its parameters replaced (the stop benchmark's trajectory measures
// such files).
func writeParams(file, runDir string, space *genome.Space, genes []float64) error {
	data, err := os.ReadFile(filepath.Join(runDir, "best.yaml"))
	if err != nil {
		return err
	}
	var pf fitness.ParamsFile
	if err := yaml.Unmarshal(data, &pf); err != nil {
		return err
	}
	v, err := space.Decode(genes)
	if err != nil {
		return err
	}
	params := v.Map()
	for _, s := range v.Schema() {
		if s.Kind == genome.Grid {
			cells := params[s.Name].([]float64)
			rows := make([][]float64, s.Rows)
			for r := range rows {
				rows[r] = cells[r*s.Cols : (r+1)*s.Cols]
			}
			params[s.Name] = rows
		}
	}
	pf.Params, pf.Players = params, nil
	out, err := yaml.Marshal(pf)
	if err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}

// mean is the mean of xs.
func mean(xs []float64) float64 { return quality.Mean(xs) }
