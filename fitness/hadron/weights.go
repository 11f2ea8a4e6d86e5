package hadron

import (
	"fmt"

	"github.com/evotune/evotune/genome"
)

// Weights are the knobs of the tuned heuristic: Aenigma's two-phase
// formula
//
//	score = Unit*(w1*hSpecialMoves + w2*hParity) + Jitter*U(-1,1)
//
// with (w1, w2) = (W1Early, W2Early) while T or more legal cells remain
// and (W1Late, W2Late) once fewer than T remain, plus the terms of Extra
// in the same two phases (docs/games/hadron-evaluation.md). At the zero
// Extra the score is Aenigma's, bit for bit.
type Weights struct {
	W1Early, W2Early float64
	W1Late, W2Late   float64
	T                int
	Jitter           float64 // points; see the package doc for the scale
	Early, Late      Extra
	// TiedParity counts hParity and the regions term only where the
	// specials tie (hSpecialMoves = 0): a side with more specials can
	// fix the parity itself, so parity decides only between equals.
	TiedParity bool
}

// Extra are the weights of the terms beyond Aenigma's, in one phase, each
// in units of Unit; zero switches a term off (and skips computing it).
type Extra struct {
	Mobility float64 // per legal cell
	Regions  float64 // +1 when the regions' nimbers XOR to non-zero, else -1
	Unlock   float64 // per cell the side to move can unlock, less those its opponent can
	Lead     float64 // the sign of hSpecialMoves: +1, 0 or -1
}

// zero reports whether every term is off.
func (e Extra) zero() bool { return e == Extra{} }

// Aenigma is the tournament winner's published setting: special moves
// only while 10 or more legal cells remain, then special moves and parity
// at half weight each, plus jitter of 1 point.
var Aenigma = Weights{W1Early: 1, W2Early: 0, W1Late: 0.5, W2Late: 0.5, T: 10, Jitter: 1}

// The names of the tuned player's parameters.
const (
	ParamW1Early = "w1_early"
	ParamW2Early = "w2_early"
	ParamW1Late  = "w1_late"
	ParamW2Late  = "w2_late"
	ParamT       = "t"
	ParamJitter  = "jitter"

	ParamMobilityEarly = "mobility_early"
	ParamMobilityLate  = "mobility_late"
	ParamRegionsEarly  = "regions_early"
	ParamRegionsLate   = "regions_late"
	ParamUnlockEarly   = "unlock_early"
	ParamUnlockLate    = "unlock_late"
	ParamLeadEarly     = "lead_early"
	ParamLeadLate      = "lead_late"
	ParamTiedParity    = "tied_parity"
)

// The ranges of the terms beyond Aenigma's. Mobility is per legal cell,
// and a 9x9 position has up to 81: its range keeps the term within a few
// specials' worth.
const (
	maxMobility = 0.2
	maxUnlock   = 0.5
)

// extraParams are the opt-in knobs, each a term of one phase.
var extraParams = [...]struct {
	name, summary string
	max           float64
	weight        func(w *Weights) *float64
}{
	{ParamMobilityEarly, "weight of the legal cells' count (mobility) while t or more legal cells remain", maxMobility,
		func(w *Weights) *float64 { return &w.Early.Mobility }},
	{ParamMobilityLate, "weight of the legal cells' count once fewer than t remain", maxMobility,
		func(w *Weights) *float64 { return &w.Late.Mobility }},
	{ParamRegionsEarly, "weight of the regions term (+1 when the node-Kayles nimbers of the regions of non-special legal cells XOR to non-zero, else -1) while t or more legal cells remain", 1,
		func(w *Weights) *float64 { return &w.Early.Regions }},
	{ParamRegionsLate, "weight of the regions term once fewer than t legal cells remain", 1,
		func(w *Weights) *float64 { return &w.Late.Regions }},
	{ParamUnlockEarly, "weight per cell the side to move can unlock (one stone off balance its way, next to a legal cell), less those its opponent can, while t or more legal cells remain", maxUnlock,
		func(w *Weights) *float64 { return &w.Early.Unlock }},
	{ParamUnlockLate, "weight of the unlock difference once fewer than t legal cells remain", maxUnlock,
		func(w *Weights) *float64 { return &w.Late.Unlock }},
	{ParamLeadEarly, "weight of the sign of hSpecialMoves (who leads in specials) while t or more legal cells remain", 1,
		func(w *Weights) *float64 { return &w.Early.Lead }},
	{ParamLeadLate, "weight of the sign of hSpecialMoves once fewer than t legal cells remain", 1,
		func(w *Weights) *float64 { return &w.Late.Lead }},
}

// Schema is the tuned player's parameter space on a board of the given
// size. The defaults are Aenigma's values (t capped at the number of
// cells), so the default tuned player is Aenigma. The weights may go
// negative, which the original's [0, 1] did not allow; a config narrows
// the ranges to reproduce its search. The terms beyond Aenigma's are
// opt-in, off by default: a config searches those its space: names, and
// runs that predate them keep their genomes.
func Schema(size int) genome.Schema {
	cells := float64(size * size)
	num := func(x float64) genome.Value { return genome.Value{Num: x} }
	s := genome.Schema{
		{Name: ParamW1Early, Kind: genome.Float, Min: -1, Max: 1, Default: num(Aenigma.W1Early),
			Summary: "weight of hSpecialMoves while t or more legal cells remain"},
		{Name: ParamW2Early, Kind: genome.Float, Min: -1, Max: 1, Default: num(Aenigma.W2Early),
			Summary: "weight of hParity while t or more legal cells remain"},
		{Name: ParamW1Late, Kind: genome.Float, Min: -1, Max: 1, Default: num(Aenigma.W1Late),
			Summary: "weight of hSpecialMoves once fewer than t legal cells remain"},
		{Name: ParamW2Late, Kind: genome.Float, Min: -1, Max: 1, Default: num(Aenigma.W2Late),
			Summary: "weight of hParity once fewer than t legal cells remain"},
		{Name: ParamT, Kind: genome.Int, Min: 0, Max: cells, Default: num(min(float64(Aenigma.T), cells)),
			Summary: "legal cells below which the late phase starts"},
		{Name: ParamJitter, Kind: genome.Float, Min: 0, Max: Unit, Default: num(Aenigma.Jitter),
			Summary: "amplitude of the uniform noise added to every evaluation, in points (a special move is 100)"},
	}
	for _, p := range extraParams {
		s = append(s, genome.Param{Name: p.name, Kind: genome.Float, Min: -p.max, Max: p.max, Default: num(0),
			OptIn: true, Summary: p.summary})
	}
	return append(s, genome.Param{Name: ParamTiedParity, Kind: genome.Bool, OptIn: true,
		Summary: "count hParity and the regions term only where the specials tie"})
}

// WeightsFrom reads weights from values of Schema. Values of another
// schema are an error naming the first parameter that is missing.
func WeightsFrom(v genome.Values) (Weights, error) {
	for _, p := range Schema(MinSize) {
		if q, ok := v.Schema().Lookup(p.Name); !ok || q.Kind != p.Kind {
			return Weights{}, fmt.Errorf("hadron: tuned: no %v parameter %q", p.Kind, p.Name)
		}
	}
	w := Weights{
		W1Early:    v.Float(ParamW1Early),
		W2Early:    v.Float(ParamW2Early),
		W1Late:     v.Float(ParamW1Late),
		W2Late:     v.Float(ParamW2Late),
		T:          v.Int(ParamT),
		Jitter:     v.Float(ParamJitter),
		TiedParity: v.Bool(ParamTiedParity),
	}
	for _, p := range extraParams {
		*p.weight(&w) = v.Float(p.name)
	}
	return w, nil
}
