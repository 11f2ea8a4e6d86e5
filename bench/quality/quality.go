// Package quality measures tuners at a fixed budget of games: a config
// run under each model (a Row) from seeds 1..N, a quarter of the budget
// at a time, and after each quarter the model's recommendation (spsa's
// theta, bayes's pessimistic optimum, any other model's hall-of-fame
// best) measured on fresh deals that no run plays, the same deals for
// every model and seed. Its tables give the figure at 25%, 50% and 100%
// of the budget, median and interquartile range over the seeds, and its
// picture draws them against games played.
//
// The quality benchmark (go run ./bench -quality) and evotune bench run
// their problems through it: the benchmark on its four problems, the
// command on a user's config.
package quality

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evotune/evotune/engine/model"
)

// FreshSeed is the seed the fresh deals derive from (fitness.Derive(FreshSeed, i)):
// a constant no run's streams use, so no recommendation is measured on
// the deals that chose it.
const FreshSeed = 0x6265_6e63_6821 // "bench!"

// Quarters are the points of the budget a recommendation is measured at.
const Quarters = 4

// A Row is one model as a benchmark runs it: its documented defaults,
// with racing: {} (Racing) or fishtest's autoselect planned for the
// benchmark's budget (Autoselect).
type Row struct {
	Name       string // as the tables and the record directories name it
	Model      string
	Racing     bool
	Autoselect bool
}

// BenchRows are the quality benchmark's rows, in its tables' order.
var BenchRows = mustRows("random-search", "natural-selection", "generational", "generational+racing",
	"cmaes", "cmaes+racing", "spsa", "spsa-autoselect", "bayes")

func mustRows(names ...string) []Row {
	rows, err := ParseRows(strings.Join(names, ","))
	if err != nil {
		panic(err)
	}
	return rows
}

// AutoselectRow is the name of spsa with fishtest's autoselect.
const AutoselectRow = "spsa-autoselect"

// RowNames lists every name ParseRow reads.
func RowNames() []string {
	var out []string
	for _, m := range model.Models {
		out = append(out, m.Name, m.Name+"+racing")
	}
	return append(out, AutoselectRow)
}

// RowsHelp names the rows ParseRow reads, briefly.
func RowsHelp() string {
	var names []string
	for _, m := range model.Models {
		names = append(names, m.Name)
	}
	return strings.Join(append(names, AutoselectRow), ", ") + ", or MODEL+racing"
}

// ParseRow reads a row's name: a model (model.Models), MODEL+racing, or
// spsa-autoselect.
func ParseRow(name string) (Row, error) {
	if name == AutoselectRow {
		return Row{Name: name, Model: "spsa", Autoselect: true}, nil
	}
	plain, racing := strings.CutSuffix(name, "+racing")
	if _, ok := model.Lookup(plain); !ok {
		return Row{}, fmt.Errorf("unknown model %q (want %s)", name, RowsHelp())
	}
	return Row{Name: name, Model: plain, Racing: racing}, nil
}

// ParseRows reads a comma-separated list of rows, each once.
func ParseRows(list string) ([]Row, error) {
	var rows []Row
	seen := map[string]bool{}
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("%q: an empty model name", list)
		}
		if seen[name] {
			return nil, fmt.Errorf("model %s named twice", name)
		}
		seen[name] = true
		r, err := ParseRow(name)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// Pick returns the rows of rows named in list (comma-separated; empty:
// every row).
func Pick(rows []Row, list string) []Row {
	if list == "" {
		return rows
	}
	want := strings.Split(list, ",")
	return slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return !slices.Contains(want, r.Name) })
}
