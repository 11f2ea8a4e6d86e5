package quality

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/engine/config"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
	"gopkg.in/yaml.v3"
)

// A Bench is evotune bench's comparison on a user's config, kept in a
// directory: ManifestFile (what it compares, the start's figure), and a
// record and a run directory per row and seed (RecordPath).
type Bench struct {
	Dir     string
	Problem *Problem
	Manifest
}

// ManifestFile is the bench directory's file that says what it compares.
const ManifestFile = "bench.json"

// PictureFile is the bench directory's picture.
const PictureFile = "quality.svg"

// Manifest is what a bench directory compares: a re-run must ask the
// same, or its records would mix two measures.
type Manifest struct {
	Config      string   `json:"config_hash"` // engine.Config.Hash of the user's config
	Population  int      `json:"population"`
	Generations int      `json:"generations"`
	Deals       int      `json:"deals"`
	Measure     string   `json:"measure"`
	Lower       bool     `json:"lower_is_better"`
	Baselines   []string `json:"baselines"`
	// Start is the config's starting point's figure on the fresh deals
	// (nil: the player's defaults lie outside its space and it has no
	// seeds).
	Start *float64 `json:"start,omitempty"`
}

// ErrOtherBench is returned by OpenBench for a directory that holds
// another comparison, or something that is not a bench.
var ErrOtherBench = errors.New("holds something else")

// OpenBench prepares the comparison of models on the config in file
// (parsed as cfg), at the config's population and a budget of
// generations (0: the config's), each recommendation measured on deals
// fresh deals (head to head: seat-swapped pairs against each baseline),
// in dir: a new or empty directory, or one of an earlier bench of the
// same config, budget and deals, which it continues.
func OpenBench(dir, file string, cfg *engine.Setup, generations, deals int) (*Bench, error) {
	_, names, err := cfg.Baselines()
	if err != nil {
		return nil, err
	}
	if generations == 0 {
		generations = cfg.Config().Evolution.Generations
	}
	if generations < Quarters {
		return nil, fmt.Errorf("a budget of %d generations: want at least %d (a recommendation is measured at each quarter)", generations, Quarters)
	}
	p, err := fromConfig(file, cfg.Config().Text(), cfg.Config().Evolution.Model.Name, cfg.Config().Evolution.Population, generations, deals)
	if err != nil {
		return nil, err
	}
	b := &Bench{Dir: dir, Problem: p, Manifest: Manifest{Config: cfg.Hash(), Population: cfg.Config().Evolution.Population,
		Generations: generations, Deals: deals, Measure: cfg.Config().ObjectiveName(), Lower: cfg.LowerIsBetter(), Baselines: names}}
	// Each record keeps the start's figure beside its own (0 without one).
	p.Reference = func(context.Context, *engine.Setup, int) (float64, error) {
		if b.Start == nil {
			return 0, nil
		}
		return *b.Start, nil
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s %w: not a directory; give another -o", dir, ErrOtherBench)
	}
	old, err := ReadManifest(dir)
	switch {
	case err == nil:
		if old.Config != b.Config || old.Population != b.Population || old.Generations != b.Generations || old.Deals != b.Deals {
			return nil, fmt.Errorf("%s %w: a bench of another config, budget or number of deals (%d generations, %d deals); give another -o", dir, ErrOtherBench, old.Generations, old.Deals)
		}
		b.Start = old.Start
	case errors.Is(err, os.ErrNotExist):
		if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
			return nil, fmt.Errorf("%s %w (%s, ...) and no %s: not a bench directory; give another -o", dir, ErrOtherBench, entries[0].Name(), ManifestFile)
		}
	default:
		return nil, err
	}
	return b, nil
}

// ReadManifest reads dir's manifest.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := fileio.ReadFile(filepath.Join(dir, ManifestFile), fileio.MaxConfig)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

// MeasureStart measures the config's starting point on the fresh deals
// once, and writes the manifest.
func (b *Bench) MeasureStart(ctx context.Context, workers int) error {
	if _, err := ReadManifest(b.Dir); err == nil {
		return nil
	}
	text, err := b.Problem.Text(1, fmt.Sprintf("  generations: %d\n", b.Generations), "")
	if err != nil {
		return err
	}
	cfg, err := Load(b.Problem.File, text)
	if err != nil {
		return err
	}
	defer cfg.Close()
	if genes := cfg.StartGenes(); genes != nil {
		player, err := cfg.TunedPlayer(genes)
		if err != nil {
			return err
		}
		opps, _, err := cfg.Baselines()
		if err != nil {
			return err
		}
		xs, err := Measure(ctx, cfg.Game(), player, opps, cfg.LowerIsBetter(), b.Deals, workers)
		if err != nil {
			return err
		}
		f := Mean(xs)
		b.Start = &f
	}
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(b.Manifest, "", "  ")
	return rundir.WriteFile(filepath.Join(b.Dir, ManifestFile), append(data, '\n'))
}

// Lines are the table's lines for rows at seeds 1..seeds: each row's
// finished records, or why it cannot run the config.
func (b *Bench) Lines(rows []Row, seeds int) ([]Line, error) {
	var lines []Line
	for _, r := range rows {
		l := Line{Name: r.Name}
		var err error
		if l.Refused, err = b.Problem.Refusal(r); err != nil {
			return nil, err
		}
		for seed := 1; seed <= seeds && l.Refused == ""; seed++ {
			rec, err := ReadRecord(RecordPath(b.Dir, r.Name, seed))
			if err != nil {
				return nil, err
			}
			if rec != nil && rec.Done() {
				l.Records = append(l.Records, *rec)
			}
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// Refusal says in one line why row cannot run the problem's config (""
// when it can): the config's problems under that model.
func (p *Problem) Refusal(row Row) (string, error) {
	text, err := p.Config(row, 1)
	if err == nil {
		var cfg *engine.Setup
		if cfg, err = Load(p.File, text); err == nil {
			cfg.Close()
			return "", nil
		}
	}
	var ce config.Errors
	if errors.As(err, &ce) {
		var msgs []string
		for _, e := range ce {
			msgs = append(msgs, strings.TrimPrefix(e.Key+": "+e.Msg, ": "))
		}
		return strings.Join(msgs, "; "), nil
	}
	if errors.Is(err, errNoPrecision) {
		return err.Error(), nil
	}
	return "", err
}

// fromConfig is the problem of a user's config. A run's config is the
// user's with its seed replaced; its evolution: section replaced by the
// population, the budget and the row's model at its defaults, but for
// the rows of the config's own model, which keep the section's other keys
// (they are that model's settings); its racing: section
// kept for the +racing rows only (racing: {} where it has none); no
// stop: (the budget is fixed); and remeasure: off (the benchmark measures
// the recommendation itself, on its own fresh deals).
func fromConfig(file string, text []byte, model string, population, generations, deals int) (*Problem, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a mapping", file)
	}
	root := doc.Content[0]
	kept := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	racing, own := "", ""
	var err error
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k := root.Content[i].Value; k {
		case "racing":
			out, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: root.Content[i : i+2]})
			if err != nil {
				return nil, err
			}
			racing = string(out)
		case "evolution":
			if own, err = ownLines(root.Content[i+1]); err != nil {
				return nil, err
			}
		case "seed", "remeasure", "stop":
		default:
			kept.Content = append(kept.Content, root.Content[i:i+2]...)
		}
	}
	out, err := yaml.Marshal(kept)
	if err != nil {
		return nil, err
	}
	base := string(out)
	if len(kept.Content) == 0 {
		base = ""
	}
	return &Problem{
		File: file,
		Text: func(seed int, evolution, extra string) ([]byte, error) {
			return fmt.Appendf(nil, "%sseed: %d\nremeasure: off\nevolution:\n  population: %d\n%s%s", base, seed, population, evolution, extra), nil
		},
		Generations: generations,
		Deals:       deals,
		Racing:      racing,
		Own:         model,
		OwnLines:    own,
	}, nil
}

// ownLines are the lines of an evolution: section but its model,
// population and budget, indented under it.
func ownLines(section *yaml.Node) (string, error) {
	if section.Kind != yaml.MappingNode {
		return "", nil
	}
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(section.Content); i += 2 {
		switch section.Content[i].Value {
		case "model", "population", "generations":
		default:
			rest.Content = append(rest.Content, section.Content[i:i+2]...)
		}
	}
	if len(rest.Content) == 0 {
		return "", nil
	}
	out, err := yaml.Marshal(rest)
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(out), "\n"), "\n")
	return "  " + strings.Join(lines, "  ") + "\n", nil
}
