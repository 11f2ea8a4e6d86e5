package hadron

import (
	"fmt"

	"github.com/evotune/evotune/genome"
)

// Weights are the knobs of Aenigma's two-phase heuristic:
//
//	score = Unit*(w1*hSpecialMoves + w2*hParity) + Jitter*U(-1,1)
//
// with (w1, w2) = (W1Early, W2Early) while T or more legal cells remain
// and (W1Late, W2Late) once fewer than T remain.
type Weights struct {
	W1Early, W2Early float64
	W1Late, W2Late   float64
	T                int
	Jitter           float64 // points; see the package doc for the scale
}

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
)

// Schema is the tuned player's parameter space on a board of the given
// size. The defaults are Aenigma's values (t capped at the number of
// cells), so the default tuned player is Aenigma. The weights may go
// negative, which the original's [0, 1] did not allow; a config narrows
// the ranges to reproduce its search.
func Schema(size int) genome.Schema {
	cells := float64(size * size)
	num := func(x float64) genome.Value { return genome.Value{Num: x} }
	return genome.Schema{
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
}

// WeightsFrom reads weights from values of Schema. Values of another
// schema are an error naming the first parameter that is missing.
func WeightsFrom(v genome.Values) (Weights, error) {
	for _, p := range Schema(MinSize) {
		if q, ok := v.Schema().Lookup(p.Name); !ok || q.Kind != p.Kind {
			return Weights{}, fmt.Errorf("hadron: tuned: no %v parameter %q", p.Kind, p.Name)
		}
	}
	return Weights{
		W1Early: v.Float(ParamW1Early),
		W2Early: v.Float(ParamW2Early),
		W1Late:  v.Float(ParamW1Late),
		W2Late:  v.Float(ParamW2Late),
		T:       v.Int(ParamT),
		Jitter:  v.Float(ParamJitter),
	}, nil
}
