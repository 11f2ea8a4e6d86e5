package engine

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// extremeNumbers are values at the edges of what a float key may hold:
// the smallest subnormal, values whose square underflows or overflows,
// the largest float, and the ordinary ones between.
var extremeNumbers = []float64{
	0, math.SmallestNonzeroFloat64, 1e-308, 1e-200, 1e-162, 1e-154, 1e-100, 1e-20, 1e-9,
	0.5, 1, 2, 10, 1e9, 1e154, 1e200, 1e300, math.MaxFloat64,
	-math.SmallestNonzeroFloat64, -1,
}

// extremeConfig is a small config in which one key at a time takes an
// extreme value; a model's keys are tried under that model.
func extremeConfig(model, fitness, key, value string) string {
	evolution := "  model: " + model + "\n  population: 4\n  generations: 1\n"
	switch model {
	case "generational":
		evolution += "  tournament-size: 2\n  elitism: 1\n"
	case "natural-selection":
		evolution += "  keep: 1\n"
	case "down-to-size":
		evolution += "  offspring: 2\n"
	}
	text := "name: x\nseed: 3\ngame: battleship\nrules: {size: 6, fleet: '3 2'}\nplayer: tuned\nseeds:\n  - {}\n" +
		"fitness:\n" + fitness + "evolution:\n" + evolution
	if key == "" {
		return text
	}
	// key is a dotted path under fitness: or evolution:, set last (a
	// section written twice is refused, so the path is merged in).
	parts := strings.Split(key, ".")
	switch {
	case len(parts) == 2 && parts[0] == "evolution":
		text += "  " + parts[1] + ": " + value + "\n"
	case len(parts) == 3 && parts[0] == "evolution":
		text += "  " + parts[1] + ":\n    " + parts[2] + ": " + value + "\n"
	case len(parts) == 1:
		text += parts[0] + ": " + value + "\n"
	case len(parts) == 3 && parts[0] == "fitness":
		text = strings.Replace(text, "  "+parts[1]+":\n", "  "+parts[1]+":\n    "+parts[2]+": "+value+"\n", 1)
	default:
		panic("extremeConfig: key " + key)
	}
	return text
}

// TestWhateverValidateAcceptsRuns: every numeric key of a config, at
// every extreme value, is either refused by validation (Parse) with a
// message naming the key, or runs a generation to its end. Before,
// evolution.step-size: 1e-162 passed validation and the run panicked
// (sigma squared underflows to 0, which gonum's Cholesky refuses).
func TestWhateverValidateAcceptsRuns(t *testing.T) {
	solo := "  objective: shots\n  baselines:\n    games: 2\n"
	score := "  objective: score\n  baselines:\n    opponents: [over9000]\n    games: 2\n" +
		"  population:\n    opponents: 1\n    games: 2\n  hall-of-fame:\n    members: 1\n    games: 2\n"
	type keyOf struct{ model, fitness, key string }
	var keys []keyOf
	for _, k := range []string{"evolution.crossover-rate", "evolution.blend-alpha", "evolution.mutation-rate",
		"evolution.mutation.sigma", "evolution.mutation.gene-rate", "evolution.mutation.choice-rate"} {
		keys = append(keys, keyOf{"generational", solo, k})
	}
	for _, k := range []string{"fitness.baselines.weight", "fitness.population.weight", "fitness.hall-of-fame.weight"} {
		keys = append(keys, keyOf{"generational", score, k})
	}
	keys = append(keys, keyOf{"cmaes", solo, "evolution.step-size"}, keyOf{"cmaes", score, "evolution.step-size"},
		keyOf{"natural-selection", solo, "audit"}, keyOf{"down-to-size", solo, "evolution.mutation.sigma"})
	var numbers []string
	for _, x := range extremeNumbers {
		numbers = append(numbers, strconv.FormatFloat(x, 'g', -1, 64))
	}
	// Whole-number keys at their edges: below, at and past each bound a
	// key has (within a population of 4), and the largest int.
	ints := []string{"-1", "0", "1", "2", "3", "4", "2147483648", "9223372036854775807"}
	keys = append(keys, []keyOf{{"generational", solo, "evolution.tournament-size"}, {"generational", solo, "evolution.elitism"},
		{"generational", solo, "evolution.hall-of-fame"}, {"generational", solo, "evolution.population"},
		{"generational", solo, "evolution.generations"}, {"generational", solo, "fitness.baselines.games"},
		{"natural-selection", solo, "evolution.keep"}, {"down-to-size", solo, "evolution.offspring"},
		{"generational", score, "fitness.population.opponents"}, {"generational", score, "fitness.population.games"},
		{"generational", score, "fitness.hall-of-fame.members"}, {"generational", score, "fitness.hall-of-fame.games"},
		{"random-search", solo, "seed"}}...)
	isInt := func(k keyOf) bool {
		return !strings.Contains(k.key, "rate") && !strings.Contains(k.key, "weight") && !strings.Contains(k.key, "sigma") && !strings.Contains(k.key, "alpha") && !strings.Contains(k.key, "step") && k.key != "audit"
	}
	for _, k := range keys {
		vs := numbers
		if isInt(k) {
			vs = ints
			if k.key == "seed" {
				vs = []string{"0", "18446744073709551615"}
			}
		}
		for _, value := range vs {
			name := fmt.Sprintf("%s/%s=%s", k.model, k.key, value)
			if k.fitness == score {
				name = "score/" + name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				text := extremeConfig(k.model, k.fitness, k.key, value)
				dir := t.TempDir()
				cfg, err := parse(filepath.Join(dir, "x.yaml"), []byte(text))
				if err != nil {
					if !strings.Contains(err.Error(), k.key) {
						t.Fatalf("refused without naming %s: %v", k.key, err)
					}
					return
				}
				defer cfg.Close()
				res, err := runGuarded(cfg, filepath.Join(dir, "run"))
				if err != nil {
					t.Fatalf("validation accepted %s: %s, and the run failed: %v\n%s", k.key, value, err, text)
				}
				if res.Generation != 1 {
					t.Fatalf("ran %d generations, want 1", res.Generation)
				}
			})
		}
	}
}

// runGuarded runs cfg for its one generation, turning a panic into an
// error.
func runGuarded(cfg *Setup, dir string) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return Start(context.Background(), cfg, Options{Dir: dir, Workers: 1, Generations: 1})
}
