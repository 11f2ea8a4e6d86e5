package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/external"
)

// referenceClaims reads the defaults configs/reference.yaml states: the
// "default X" of a key's own line, or, for a key whose line says none,
// the "Default X" of the comment just above it; keys of commented-out
// sections count, at their indentation. It returns them by dotted key.
func referenceClaims(t *testing.T, text string) map[string]string {
	t.Helper()
	keyLine := regexp.MustCompile(`^( *)(?:# ?( *))?([a-z][a-z-]*):(.*)$`)
	inline := regexp.MustCompile(`#.*?\b[Dd]efault:? ([^ ;:,]+?)[;,.:]?(?: |$)`)
	prose := regexp.MustCompile(`\bDefault ([^ ;:,]+?)[;,.]?(?: |$)`)
	claims := map[string]string{}
	var path []string
	var indents []int
	above := "" // the comment paragraph just above
	for _, line := range strings.Split(text, "\n") {
		m := keyLine.FindStringSubmatch(line)
		if m == nil || (strings.Contains(line, "#") && !strings.HasPrefix(strings.TrimSpace(line), "#") && strings.Index(line, "#") < strings.Index(line, ":")) {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				above += " " + line
			} else {
				above = ""
			}
			continue
		}
		// A commented line that reads as prose ("# with exit 1: ...") is
		// no key: keys are lower case and followed by a value or nothing.
		indent := len(m[1]) + len(m[2])
		for len(indents) > 0 && indents[len(indents)-1] >= indent {
			indents, path = indents[:len(indents)-1], path[:len(path)-1]
		}
		indents, path = append(indents, indent), append(path, m[3])
		key := strings.Join(path, ".")
		value, _, _ := strings.Cut(m[4], "#")
		value = strings.TrimSpace(value)
		switch c := inline.FindStringSubmatch(m[4]); {
		case c != nil:
			claims[key] = c[1]
		case m[2] == "" && !strings.HasPrefix(strings.TrimSpace(line), "#") && value != "":
			claims[key] = value // "every key, with its default"
		default:
			if c := prose.FindStringSubmatch(above); c != nil {
				claims[key] = c[1]
			}
		}
		above = ""
	}
	return claims
}

// TestReferenceStatesTheDefaults holds configs/reference.yaml to the
// code: every key it writes has the value a config that leaves the key
// out gets (but name, space and seeds, which it writes as examples), and
// every default it states is the code's, for every key that has one.
func TestReferenceStatesTheDefaults(t *testing.T) {
	path := filepath.Join("..", "configs", "reference.yaml")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ref := loadText(t, t.TempDir(), string(text))
	// reference.yaml writes the breeding keys, with which a solo measure's
	// config that names no model runs generational, not bayes: so does
	// this one, with one of them written at its default.
	bare := loadText(t, t.TempDir(), "game: battleship\nplayer: tuned\nevolution: {elitism: 2}\n")
	got, want := ref.cfg.Settings(), bare.cfg.Settings()
	for k, v := range got {
		if !strings.HasPrefix(k, "space.") && !strings.HasPrefix(k, "seeds") && !strings.HasPrefix(k, "rules.") && want[k] != v {
			t.Errorf("%s: reference.yaml writes %s, the default is %s", k, v, want[k])
		}
	}
	for k, v := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s: the default %s, and reference.yaml leaves it out", k, v)
		}
	}

	// The code's default of every key that has one, from configs that
	// open its section and leave the key out.
	scoreCfg := func(section string) *Setup {
		return loadText(t, t.TempDir(), "game: mnk\nplayer: tuned\nfitness:\n  objective: score\n  baselines: {opponents: [random], games: 2}\n  "+section+"\n")
	}
	evolution := func(text string) map[string]any {
		b, err := json.Marshal(loadText(t, t.TempDir(), "game: battleship\nplayer: tuned\n"+text).cfg.Evolution)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	pop, hof := scoreCfg("population: {}"), scoreCfg("hall-of-fame: {}")
	gen := evolution("")
	racing := loadText(t, t.TempDir(), "game: battleship\nplayer: tuned\nracing: {}\n")
	remeasure := loadText(t, t.TempDir(), "game: battleship\nplayer: tuned\nremeasure: {}\n")
	stop := loadText(t, t.TempDir(), "game: battleship\nplayer: tuned\nstop: {}\n")
	dts := evolution("evolution: {model: down-to-size}\n")
	spsa, bayes := evolution("evolution: {model: spsa}\n"), evolution("evolution: {model: bayes}\n")
	auto := evolution("evolution: {model: spsa, spsa-autoselect: {precision: 1, edge-loss: 1}}\n")["spsa_autoselect"].(map[string]any)
	s := fmt.Sprint
	code := map[string]string{
		"seed":                                   s(bare.cfg.Seed),
		"timeout":                                external.DefaultTimeout.String(),
		"audit":                                  s(bare.cfg.Audit),
		"fitness.baselines.weight":               s(bare.cfg.Fitness.Baselines.Weight),
		"fitness.baselines.games":                s(bare.cfg.Fitness.Baselines.Games),
		"fitness.population.weight":              s(pop.cfg.Fitness.Population.Weight),
		"fitness.population.opponents":           s(pop.cfg.Fitness.Population.Opponents),
		"fitness.population.games":               s(pop.cfg.Fitness.Population.Games),
		"fitness.population.rating":              s(pop.cfg.Fitness.Population.Rating),
		"fitness.hall-of-fame.weight":            s(hof.cfg.Fitness.HallOfFame.Weight),
		"fitness.hall-of-fame.members":           s(hof.cfg.Fitness.HallOfFame.Members),
		"fitness.hall-of-fame.games":             s(hof.cfg.Fitness.HallOfFame.Games),
		"evolution.population":                   s(gen["population"]),
		"evolution.generations":                  s(bare.cfg.Evolution.Generations),
		"evolution.selection":                    s(gen["selection"]),
		"evolution.tournament-size":              s(gen["tournament_size"]),
		"evolution.crossover":                    s(gen["crossover"]),
		"evolution.crossover-rate":               s(gen["crossover_rate"]),
		"evolution.blend-alpha":                  s(gen["blend_alpha"]),
		"evolution.mutation-rate":                s(gen["mutation_rate"]),
		"evolution.mutation.sigma":               s(gen["mutation"].(map[string]any)["Sigma"]),
		"evolution.mutation.gene-rate":           s(gen["mutation"].(map[string]any)["Rate"]),
		"evolution.mutation.choice-rate":         s(gen["mutation"].(map[string]any)["ChoiceRate"]),
		"evolution.elitism":                      s(gen["elitism"]),
		"evolution.keep":                         s(gen["keep"]),
		"evolution.step-size":                    s(evolution("evolution: {model: cmaes}\n")["step_size"]),
		"evolution.spsa-pairs":                   s(spsa["spsa_pairs"]),
		"evolution.spsa-c-end":                   s(spsa["spsa_c_end"]),
		"evolution.spsa-r-end":                   s(spsa["spsa_r_end"]),
		"evolution.spsa-alpha":                   s(spsa["spsa_alpha"]),
		"evolution.spsa-gamma":                   s(spsa["spsa_gamma"]),
		"evolution.spsa-a-ratio":                 s(spsa["spsa_a_ratio"]),
		"evolution.spsa-autoselect.variance":     s(auto["variance"]),
		"evolution.spsa-autoselect.confidence":   s(auto["confidence"]),
		"evolution.spsa-autoselect.c-ratio":      s(auto["c_ratio"]),
		"evolution.spsa-autoselect.lambda-ratio": s(auto["lambda_ratio"]),
		"evolution.bayes-candidates":             s(bayes["bayes_candidates"]),
		"evolution.bayes-spread":                 s(bayes["bayes_spread"]),
		"evolution.bayes-refit-every":            s(bayes["bayes_refit_every"]),
		"evolution.bayes-bound":                  s(bayes["bayes_bound"]),
		"evolution.hall-of-fame":                 s(gen["hall_of_fame"]),
		"racing.rounds":                          s(racing.cfg.Racing.Rounds),
		"racing.confidence":                      s(racing.cfg.Racing.Confidence),
		"remeasure.top":                          s(remeasure.cfg.Remeasure.Top),
		"remeasure.games":                        s(remeasure.cfg.Remeasure.Games),
		"stop.window":                            s(stop.cfg.Stop.Window),
		"stop.confidence":                        s(stop.cfg.Stop.Confidence),
		"stop.games":                             s(stop.cfg.Stop.Games),
		"run.workers":                            s(bare.cfg.Run.Workers),
	}
	if bayes["bayes_initial"] == 2*bayes["population"].(float64) {
		code["evolution.bayes-initial"] = "2xpopulation"
	} else {
		code["evolution.bayes-initial"] = s(bayes["bayes_initial"])
	}
	if dts["offspring"] == dts["population"] {
		code["evolution.offspring"] = "population"
	} else {
		code["evolution.offspring"] = s(dts["offspring"])
	}
	claims := referenceClaims(t, string(text))
	// What the reference writes as an example, not a default.
	for _, k := range []string{"name", "game", "player"} {
		delete(claims, k)
	}
	for k := range claims {
		if strings.HasPrefix(k, "space.") || strings.HasPrefix(k, "seeds") {
			delete(claims, k)
		}
	}
	// The rules it writes are the game's defaults.
	info, err := catalog.Lookup(ref.cfg.Game)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range info.Options {
		if _, ok := claims["rules."+o.Name]; ok {
			code["rules."+o.Name] = o.Default
		}
	}
	code["fitness.objective"] = bare.cfg.ObjectiveName()
	code["fitness.baselines.opponents"] = "[" + strings.Join(bare.cfg.Fitness.Baselines.Opponents, ", ") + "]"
	code["evolution.model"] = s(evolution("evolution: {elitism: 2}\n")["model"])
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range claims {
			if !yield(k) {
				return
			}
		}
	}) {
		if v, ok := code[k]; !ok {
			t.Errorf("reference.yaml states the default %s of %s, which this test does not know: add it here", claims[k], k)
		} else if v != claims[k] {
			t.Errorf("%s: reference.yaml states the default %s, the code's is %s", k, claims[k], v)
		}
	}
	for k, v := range code {
		if _, ok := claims[k]; !ok {
			t.Errorf("%s: the default %s, and reference.yaml states none", k, v)
		}
	}
}
