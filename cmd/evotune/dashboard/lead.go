package dashboard

import (
	"fmt"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/runs"
	"github.com/evotune/evotune/internal/english"
)

// lead is what a page says first of a run's recommended best, as run's
// own summary does: its figure on fresh deals, with the direction, the
// start's on the same deals and their paired difference (the gain);
// the figure that chose it, flattered by luck, comes after. Every
// figure is written with its interval to one precision.
type lead struct {
	Measure, Direction string // "shots", "lower is better"
	// Fresh is the recommended best's figure on fresh deals, "" before
	// the run made one (running, or remeasure: off).
	Fresh, FreshNote string
	FreshLabel       string // on fresh deals, or head to head against the start
	// Start is the starting point's figure on the same deals.
	Start, StartNote, StartSource string
	// Gain is the recommended best against the start: the paired
	// difference (head to head, its score against the start), GainWord
	// its reading (a gain, no demonstrated gain, worse than the start)
	// and GainClass that reading for the page's style.
	Gain, GainLabel, GainNote, GainWord, GainClass string
	// Selected is the figure that chose the recommended best; SelectedHow
	// says which it is: "as selected", or for a model's own
	// recommendation, which selection never played, "as remeasured".
	Selected, SelectedNote, SelectedLabel, SelectedHow string
}

// The readings of a gain, as classes of the page's style.
const (
	gainShown = "gain"
	gainNone  = "none"
	gainWorse = "worse"
)

func leadOf(v *engine.SpeciesView) lead {
	l := lead{Measure: v.Measure, Direction: v.Direction(), StartSource: v.StartSource}
	rec := v.Recommended()
	where, figure := v.RecommendedFrom()
	l.SelectedLabel, l.SelectedHow = "recommended best, "+figure, figure
	l.Selected = english.Interval(rec.Fitness, rec.CI95, false)
	l.SelectedNote = fmt.Sprintf("%s, over %s: the figure that chose it, flattered by luck", where, english.Count(rec.Games, "game"))
	if figure != "as selected" {
		l.SelectedNote = fmt.Sprintf("%s, over %s on fresh deals, which ranked it", where, english.Count(rec.Games, "game"))
	}
	if f, against, ok := v.Fresh(); ok {
		l.FreshLabel = "recommended best, on fresh deals"
		if against != "baselines" {
			l.FreshLabel = "recommended best, fresh, head to head against the " + against
		}
		l.Fresh = english.Interval(f.Fitness, f.CI95, false)
		l.FreshNote = fmt.Sprintf("%s, over %s no selection saw", where, english.Count(f.Games, "game"))
	}
	if f, ok := v.Start(); ok {
		l.Start = english.Interval(f.Fitness, f.CI95, false)
		l.StartNote = "on the same fresh deals, over " + english.Count(f.Games, "game")
		if runs.EvenEveryPair(f, v.Minimise) {
			l.StartNote += "; every seat-swapped pair split even: it played each deal as its opponents did (as their twin would), or drew every game"
		}
	}
	vd := v.Verdict
	switch {
	case vd == nil:
	case vd.Difference != nil:
		d := vd.Difference
		l.GainLabel = "recommended − start (" + v.StartSource + ")"
		l.Gain = english.Interval(d.Value, d.CI95, true)
		l.GainNote = fmt.Sprintf("paired on the same %s", english.Count(d.N, "deal"))
		switch {
		case d.Contains(0):
			l.GainWord, l.GainClass = "no demonstrated gain", gainNone
		case (d.Value < 0) != v.Minimise:
			l.GainWord, l.GainClass = "worse than the start", gainWorse
		default:
			l.GainWord, l.GainClass = "a gain", gainShown
		}
	case vd.Pairs != nil && vd.Against == "start":
		sc := vd.Pairs.Score()
		l.GainLabel = "score against the start (" + v.StartSource + "), head to head"
		l.Gain = english.Interval(sc.Value, sc.CI95, false)
		l.GainNote = "over " + english.Count(vd.Pairs.Pairs(), "seat-swapped pair")
		switch {
		case sc.Contains(0.5):
			l.GainWord, l.GainClass = "no demonstrated gain", gainNone
		case sc.Value < 0.5:
			l.GainWord, l.GainClass = "worse than the start", gainWorse
		default:
			l.GainWord, l.GainClass = "a gain", gainShown
		}
	}
	return l
}
