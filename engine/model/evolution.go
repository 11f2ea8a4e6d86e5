package model

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

// The limits of the evolution: section's sizes (engine/limits.go says
// why limits exist, and holds the others).
const (
	MaxPopulation  = 10_000  // evolution.population
	MaxOffspring   = 10_000  // evolution.offspring (down-to-size)
	MaxGenerations = 100_000 // evolution.generations and --generations: the history grows with it
	MaxHallOfFame  = 1_000   // evolution.hall-of-fame
)

// Evolution is a config's evolution: section: the settings every model
// shares, the breeding operators, and every model's own settings.
type Evolution struct {
	Model       *Info // the run's model
	Population  int
	Generations int // a budget, not in the hash: raising it on resume is allowed
	HallOfFame  int
	Operators
	// Uses is what the rest of the config asks of the run, for the models
	// that cannot honour all of it to refuse (Settings.Check); the engine
	// sets it before the checks. It is not a setting and not in the hash.
	Uses Uses
	// Chosen says, on a solo measure whose config names no model, which
	// model ChooseDefault chose and why, as a phrase starting with its
	// name (for validate's summary and run.log); empty otherwise.
	Chosen string
	own    map[string]Settings // every model's settings, by its name
}

// Uses is what a config asks of a run beyond its evolution: section.
type Uses struct {
	Genes  int  // the main species' genes
	Score  bool // the objective is score (head to head), not a solo measure
	Racing bool // a racing: section
	// Coevolve says a second species evolves beside the main one.
	Coevolve bool
	// The fitness modes with a weight, and their games: Baselines games
	// against each of BaselineOpponents, Population games against each
	// opponent (seats swapped), and whether the population's games become
	// a fitness by a rating rather than the mean score.
	Baselines, Population, HallOfFame bool
	BaselineGames, BaselineOpponents  int
	PopulationGames                   int
	Rated                             bool
}

// Defaults is the evolution: section a config without one has.
func Defaults() Evolution {
	e := Evolution{
		Model:       Models[0],
		Population:  24,
		Generations: 20,
		HallOfFame:  10,
		Operators: Operators{
			Selection:      Tournament,
			TournamentSize: 3,
			Crossover:      genome.Blend,
			CrossoverRate:  0.7,
			BlendAlpha:     0.3,
			MutationRate:   0.8,
			Mutation:       genome.Mutation{Sigma: 0.1},
		},
		own: map[string]Settings{},
	}
	for _, m := range Models {
		e.own[m.Name] = m.Settings()
	}
	return e
}

// Clone returns a copy of e whose models' settings are copies too, so
// that settling, choosing or planning the copy (a config prepared for
// its game) leaves e as it was.
func (e Evolution) Clone() Evolution {
	c := e
	c.own = make(map[string]Settings, len(e.own))
	for name, s := range e.own {
		c.own[name] = cloneSettings(s)
	}
	return c
}

// cloneSettings copies the struct a model's settings point to (a value
// is copied with the interface).
func cloneSettings(s Settings) Settings {
	v := reflect.ValueOf(s)
	if v.Kind() != reflect.Pointer {
		return s
	}
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	return c.Interface().(Settings)
}

// Settings returns the settings of the model named name.
func (e *Evolution) Settings(name string) Settings { return e.own[name] }

// settings are the run's model's settings.
func (e *Evolution) settings() Settings { return e.own[e.Model.Name] }

// operatorFields are the keys of the breeding operators, decoded into e
// (selection and crossover as written, for Decode to look up).
func (e *Evolution) operatorFields(d *yamlcheck.Checker, selection, crossover *string) yamlcheck.Fields {
	return yamlcheck.Fields{
		"selection":       d.String(selection),
		"tournament-size": d.Int(&e.TournamentSize),
		"crossover":       d.String(crossover),
		"crossover-rate":  d.Number(&e.CrossoverRate),
		"blend-alpha":     d.Number(&e.BlendAlpha),
		"mutation-rate":   d.Number(&e.MutationRate),
		"mutation": func(n *yaml.Node, path string) {
			d.Map(n, path, yamlcheck.Fields{
				"sigma":       d.Number(&e.Mutation.Sigma),
				"gene-rate":   d.Number(&e.Mutation.Rate),
				"choice-rate": d.Number(&e.Mutation.ChoiceRate),
			})
		},
	}
}

// keysOf are the evolution: keys of fields, sorted.
func keysOf(fields yamlcheck.Fields) []string { return slices.Sorted(maps.Keys(fields)) }

// Decode reads the evolution: section into e (yamlcheck's first step).
func (e *Evolution) Decode(d *yamlcheck.Checker) yamlcheck.Reader {
	return func(n *yaml.Node, path string) {
		var model, selection, crossover string
		fields := yamlcheck.Fields{
			"model":        d.String(&model),
			"population":   d.Int(&e.Population),
			"generations":  d.Int(&e.Generations),
			"hall-of-fame": d.Int(&e.HallOfFame),
		}
		maps.Copy(fields, e.operatorFields(d, &selection, &crossover))
		for _, m := range Models {
			for key, read := range e.own[m.Name].Fields(d) {
				fields[key] = read
			}
		}
		d.Map(n, path, fields)
		name := func(what, s string, names []string, ok bool) bool {
			if s == "" || ok {
				return ok
			}
			key := yamlcheck.Join(path, what)
			d.Add(d.Line(key), key, "unknown %s %q (want %s)", what, s, strings.Join(names, ", "))
			return false
		}
		if m, ok := Lookup(model); name("model", model, names(), ok) {
			e.Model = m
		}
		if s, ok := parseSelection(selection); name("selection", selection, selectionList(), ok) {
			e.Selection = s
		}
		if crossover != "" {
			c, err := genome.ParseCrossover(crossover)
			if err != nil {
				key := yamlcheck.Join(path, "crossover")
				d.Add(d.Line(key), key, "%s", strings.TrimPrefix(err.Error(), "genome: "))
			} else {
				e.Crossover = c
			}
		}
	}
}

// names lists the models' names.
func names() []string {
	out := make([]string, len(Models))
	for i, m := range Models {
		out[i] = m.Name
	}
	return out
}

// Settle fills in the defaults of the run's model that depend on what
// else the config wrote (yamlcheck's second step).
func (e *Evolution) Settle(has func(key string) bool) { e.settings().Settle(e, has) }

// Check reports every problem of the section without changing it
// (yamlcheck's third step): CheckWritten's, then each model's own
// settings', which see what the rest of the config asks of the run
// (Uses: set it first).
func (e *Evolution) Check(has func(key string) bool, bad Bad) {
	e.CheckWritten(has, bad)
	for _, m := range Models {
		e.own[m.Name].Check(e, m == e.Model, bad)
	}
}

// CheckWritten reports the problems of the section that the section
// shows alone: sizes, operators, and keys of another model than the
// run's.
func (e *Evolution) CheckWritten(has func(key string) bool, bad Bad) {
	if e.Population < 2 {
		bad("evolution.population", "%d: want at least 2", e.Population)
	}
	if e.Generations < 1 {
		bad("evolution.generations", "%d: want at least 1", e.Generations)
	}
	e.Operators.check(bad)
	if e.HallOfFame < 1 {
		bad("evolution.hall-of-fame", "%d: want at least 1", e.HallOfFame)
	}
	for _, m := range Models {
		if m == e.Model || m.SharedKeys || e.Population < 2 {
			continue
		}
		for _, key := range keysOf(e.own[m.Name].Fields(yamlcheck.New(""))) {
			if key := "evolution." + key; has(key) {
				bad(key, "belongs to model %s, and the model is %s", m.Name, e.Model.Name)
			}
		}
	}
}

// SoloDefault is the model a config that names none runs on a solo
// measure, where the quality benchmark found it best (docs/tuning.md,
// "Which model"): it beat generational on the quickstart at 100 deals a
// genome and was no worse at 1,000.
const SoloDefault = "bayes"

// ChooseDefault settles the model of a config that names none, once Uses
// is set: SoloDefault on a solo measure (solo) when the evolution:
// section writes nothing but population, generations, hall-of-fame and
// SoloDefault's own keys, and that model can run the rest of the config;
// else the first model of Models, as before. legacy keeps the first, as
// configs that named no model ran before SoloDefault existed (a run
// started then resumes as it began). Chosen says which and why.
func (e *Evolution) ChooseDefault(solo, legacy bool, has func(key string) bool) {
	if has("evolution.model") || e.Population < 2 {
		return
	}
	if !solo || legacy {
		return
	}
	first := Models[0].Name
	alt, _ := Lookup(SoloDefault)
	for _, m := range Models {
		if m == alt {
			continue
		}
		for _, key := range keysOf(e.own[m.Name].Fields(yamlcheck.New(""))) {
			if has("evolution." + key) {
				e.Chosen = fmt.Sprintf("%s, the default: evolution.%s is %s's, and %s, a solo measure's default, would not read it", first, key, m.Name, SoloDefault)
				return
			}
		}
	}
	var selection, crossover string
	for _, key := range keysOf(e.operatorFields(yamlcheck.New(""), &selection, &crossover)) {
		if has("evolution." + key) {
			e.Chosen = fmt.Sprintf("%s, the default: evolution.%s breeds, and %s, a solo measure's default, does not", first, key, SoloDefault)
			return
		}
	}
	settings := e.own[alt.Name]
	settings.Settle(e, has)
	choose := func() {
		e.Model, e.Chosen = alt, fmt.Sprintf("%s, a solo measure's default (%s for others)", alt.Name, first)
	}
	for key := range settings.Fields(yamlcheck.New("")) {
		if has("evolution." + key) {
			choose() // its own key asks for it: its Check says what is wrong
			return
		}
	}
	// Not the budget: a run resumed with more generations must keep its
	// model (its Check refuses a budget it cannot take, saying so).
	budget := e.Generations
	e.Generations = 1
	var why string
	settings.Check(e, true, func(key, format string, args ...any) {
		switch {
		case why != "":
		case key == "evolution.generations": // one generation's genomes: the population is what is too large
			why = fmt.Sprintf("evolution.population: %d: more genomes than it models", e.Population)
		default:
			why = key + ": " + fmt.Sprintf(format, args...)
		}
	})
	e.Generations = budget
	if why != "" {
		e.Chosen = fmt.Sprintf("%s, the default: %s, a solo measure's default, cannot run this config (%s)", first, SoloDefault, why)
		return
	}
	choose()
}

// CheckBudget says what the run's model cannot do with a budget of gens
// generations given beside the config (run and resume --generations; the
// config's own is checked with the rest): "" when it can.
func (e *Evolution) CheckBudget(gens int) string {
	c := *e
	c.Generations, c.Chosen = gens, "" // no hint to edit the config: the budget is not in it
	var why string
	c.settings().Check(&c, true, func(key, format string, args ...any) {
		if why == "" && key == "evolution.generations" {
			why = fmt.Sprintf(format, args...)
		}
	})
	return why
}

// A coster is a model's Settings whose own work costs CPU time beyond the
// games' that a user should know of before a run (bayes's fits).
type coster interface {
	costNote(e *Evolution) string
}

// CostNote says, in a line for validate's summary, what the run's model
// costs beyond its games; "" when that is negligible.
func (e *Evolution) CostNote() string {
	if c, ok := e.settings().(coster); ok {
		return c.costNote(e)
	}
	return ""
}

// A Planner is a model's Settings that set the budget from what the rest
// of the config asks (Uses), once that is known: spsa's autoselect plans
// its generations.
type Planner interface {
	Plan(e *Evolution)
}

// Plan lets the run's model set what depends on Uses (set it first),
// between the defaults and the checks.
func (e *Evolution) Plan() {
	if p, ok := e.settings().(Planner); ok {
		p.Plan(e)
	}
}

// Size is how many genomes generation gen evaluates.
func (e *Evolution) Size(gen int) int { return e.settings().Size(e, gen) }

// MaxSize is the most genomes a generation of the budget evaluates.
func (e *Evolution) MaxSize() int {
	most := 0
	for gen := range max(1, min(e.Generations, MaxGenerations)) {
		most = max(most, e.Size(gen))
	}
	return most
}

// Kept is how many of a generation's best the model carries on as they
// are, or reads alone: racing must not drop any of them.
func (e *Evolution) Kept() int { return e.settings().Kept(e) }

// New starts the run's model on problem p.
func (e *Evolution) New(p Problem) (Model, error) { return e.settings().New(e, p) }

// CheckState checks a species' model state in a checkpoint written after
// gens generations: every key must be the run's model's, and the model
// must find its state sound.
func (e *Evolution) CheckState(gens int, st State, inRange func(float64) bool) error {
	own := stateKeys(e.settings())
	for _, key := range slices.Sorted(maps.Keys(st)) {
		if slices.Contains(own, key) {
			continue
		}
		for _, m := range Models {
			if slices.Contains(stateKeys(e.own[m.Name]), key) {
				return fmt.Errorf("%s: present, and the model is %s", key, e.Model.Name)
			}
		}
		return fmt.Errorf("%s: no model keeps it", key)
	}
	if k, ok := e.settings().(StateKeeper); ok {
		return k.CheckState(e, gens, st, inRange)
	}
	return nil
}

// stateKeys are the keys of the State of the model whose settings are
// s: none unless it is a StateKeeper.
func stateKeys(s Settings) []string {
	if k, ok := s.(StateKeeper); ok {
		return k.StateKeys()
	}
	return nil
}

// StateBound is the most bytes the run's model's state takes in a
// checkpoint with genomes of genes genes.
func (e *Evolution) StateBound(genes int) int64 {
	if k, ok := e.settings().(StateKeeper); ok {
		return k.StateBound(e, genes)
	}
	return 0
}

// IsStateKey reports whether key is a key of some model's State.
func IsStateKey(key string) bool {
	for _, m := range Models {
		if slices.Contains(stateKeys(m.Settings()), key) {
			return true
		}
	}
	return false
}

// MarshalJSON writes the section as the config hash reads it: the
// shared settings, the settings of the models with shared keys, and the
// run's model's own; the budget is left out.
func (e Evolution) MarshalJSON() ([]byte, error) {
	out := map[string]any{
		"model":           e.Model.Name,
		"population":      e.Population,
		"hall_of_fame":    e.HallOfFame,
		"selection":       e.Selection,
		"tournament_size": e.TournamentSize,
		"crossover":       e.Crossover,
		"crossover_rate":  e.CrossoverRate,
		"blend_alpha":     e.BlendAlpha,
		"mutation_rate":   e.MutationRate,
		"mutation":        e.Mutation,
	}
	for _, m := range Models {
		if !m.SharedKeys && m != e.Model {
			continue
		}
		b, err := json.Marshal(e.own[m.Name])
		if err != nil {
			return nil, err
		}
		var fields map[string]any
		if err := json.Unmarshal(b, &fields); err != nil {
			return nil, err
		}
		maps.Copy(out, fields)
	}
	return json.Marshal(out)
}
