package mnk

import (
	"fmt"
	"math"
	"strconv"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/enum"
)

// runKind says how many ends of a run of marks are free.
type runKind uint8

// The run kinds the evaluation scores. A run with both ends blocked, or
// without room to grow to K between the opponent's marks and the edges, is
// dead and scores nothing.
const (
	halfOpen runKind = iota // one end free
	open                    // both ends free
)

var runKindNames = [...]string{halfOpen: "half", open: "open"}

func (k runKind) String() string { return enum.Name(runKindNames[:], k, "runKind") }

// weights is an evaluation: what each live run is worth, by owner (the
// side to move at the evaluated position, "own", or the other, "opp"), kind
// and length, plus a centre bias per mark and the amplitude of the jitter.
type weights struct {
	own, opp [2][]float64   // by runKind, then length 1..K-1 (index 0 unused)
	centre   float64        // per mark, times its centrality (1 centre, 0 edge)
	jitter   float64        // each evaluation moves by up to +-jitter
	threats  *threatWeights // gravity only; nil: threats count only through runs
}

// threatWeights price threats under gravity. A threat is an empty cell
// that would complete K in a row for its owner. Without gravity any threat
// can be taken at once, so the run weights say all there is to say; with
// gravity a threat is either playable now (its column is filled up to just
// below it) or waits for its column to fill, and then which side can be
// made to fill the cell below it matters: in Connect Four the first player
// wants threats on odd rows counted from the bottom, the second on even
// rows (Allis's zugzwang rules).
type threatWeights struct {
	// now is the worth of a threat playable now: [0] one of the side to
	// move (it wins there next move), [1] one of the side that just moved
	// (it must be blocked at once), subtracted.
	now [2]float64
	// later is the worth of a waiting threat by owner (X, O) and row
	// parity from the bottom (0 odd, 1 even), added for the side to move's
	// threats and subtracted for the other's.
	later [2][2]float64
}

// threatParams names the gravity knobs and their defaults, in units of the
// worth of a run of K-1 (10^(K-2), the classic open weight): a playable
// threat of the side to move is nearly a win, one of the opponent a
// forced block; a waiting threat on the owner's good parity is worth a run
// of K-1, on the other parity less than a third of it.
var threatParams = [...]struct {
	name, summary string
	def           float64
	set           func(t *threatWeights, v float64)
}{
	{"own_threat_now", "worth of a threat of the side to move whose cell is playable now", 10,
		func(t *threatWeights, v float64) { t.now[0] = v }},
	{"opp_threat_now", "worth of a threat of the side that just moved whose cell is playable now (to be blocked at once)", 1,
		func(t *threatWeights, v float64) { t.now[1] = v }},
	{"x_threat_odd", "worth of a waiting threat of X (the first player) on an odd row counted from the bottom", 1,
		func(t *threatWeights, v float64) { t.later[X][0] = v }},
	{"x_threat_even", "worth of a waiting threat of X on an even row counted from the bottom", 0.3,
		func(t *threatWeights, v float64) { t.later[X][1] = v }},
	{"o_threat_odd", "worth of a waiting threat of O (the second player) on an odd row counted from the bottom", 0.3,
		func(t *threatWeights, v float64) { t.later[O][0] = v }},
	{"o_threat_even", "worth of a waiting threat of O on an even row counted from the bottom", 1,
		func(t *threatWeights, v float64) { t.later[O][1] = v }},
}

// lengthWeight is the classic worth of an open run of length L: 10^(L-1).
// For K = 5 that is 1, 10, 100, 1000 for lengths 1 to 4; every K uses the
// same scale from length 1 up (K = 4 gives 1, 10, 100; K = 3 gives 1, 10),
// so a single mark is always worth 1 and the centre bias and jitter keep
// their meaning across K.
func lengthWeight(length int) float64 { return math.Pow(10, float64(length-1)) }

// classicWeights is the hand-set evaluation of the classic player: an open
// run of length L scores 10^(L-1) and a half-open one a tenth of that (the
// worth of an open run one shorter), for both sides alike; no centre bias
// and no jitter. Its only randomness is the order in which equally
// promising moves are searched (see searcher.move).
func classicWeights(k int) *weights {
	w := newWeights(k)
	for l := 1; l < k; l++ {
		for _, side := range []*[2][]float64{&w.own, &w.opp} {
			side[open][l] = lengthWeight(l)
			side[halfOpen][l] = lengthWeight(l) / 10
		}
	}
	return w
}

func newWeights(k int) *weights {
	w := &weights{}
	for kind := range 2 {
		w.own[kind] = make([]float64, max(k, 1))
		w.opp[kind] = make([]float64, max(k, 1))
	}
	return w
}

// The tuned player's parameter names: own_open_3 is the worth of an open
// run of three marks of the side to move, opp_half_2 of a half-open run of
// two of the side that just moved.
func weightName(owner string, kind runKind, length int) string {
	return owner + "_" + kind.String() + "_" + strconv.Itoa(length)
}

// Defaults of the tuned player: the classic run weights (a neutral start:
// a side-to-move bonus helped at odd depths and hurt at even ones in trial
// games on 9,9,5), a small pull to the centre, and jitter of the order of
// a lone mark's worth. In trial games on 9,9,5 at depth 3, jitter 0.2 left
// most seeds replaying the same game against classic (21 distinct games
// in 60) while 1 varied almost all (49 in 60) without weakening play.
const (
	defaultCentre = 0.5
	defaultJitter = 1.0
)

// tunedSchema declares the tuned player's knobs for lines of K: a weight
// per owner, kind and length 1..K-1, each searched on a log scale over six
// decades around its classic value, then the centre bias and the jitter,
// and under gravity the threat weights (threatParams), also over six
// decades around the worth of a run of K-1.
func tunedSchema(r Rules) genome.Schema {
	k := r.K
	var s genome.Schema
	for _, owner := range []struct{ name, who string }{
		{"own", "the side to move"}, {"opp", "the side that just moved"},
	} {
		for _, kind := range []runKind{open, halfOpen} {
			for l := 1; l < k; l++ {
				def := lengthWeight(l)
				if kind == halfOpen {
					def /= 10
				}
				s = append(s, genome.Param{
					Name:    weightName(owner.name, kind, l),
					Kind:    genome.Float,
					Summary: fmt.Sprintf("worth of %s run of %d of %s", [...]string{open: "an open", halfOpen: "a half-open"}[kind], l, owner.who),
					Min:     lengthWeight(l) / 1000,
					Max:     lengthWeight(l) * 1000,
					Log:     true,
					Default: genome.Value{Num: def},
				})
			}
		}
	}
	s = append(s,
		genome.Param{Name: "centre", Kind: genome.Float, Min: 0, Max: 10, Default: genome.Value{Num: defaultCentre},
			Summary: "bias per mark toward the centre: centrality (1 centre, 0 edge) times this, own minus opponent's"},
		genome.Param{Name: "jitter", Kind: genome.Float, Min: 0, Max: 5, Default: genome.Value{Num: defaultJitter},
			Summary: "amplitude of the seeded noise added to every evaluation, so equal moves vary from game to game"},
	)
	if r.Gravity {
		unit := lengthWeight(max(k-1, 1))
		for _, tp := range threatParams {
			s = append(s, genome.Param{
				Name: tp.name, Kind: genome.Float, Summary: tp.summary,
				Min: unit / 1000, Max: unit * 1000, Log: true,
				Default: genome.Value{Num: tp.def * unit},
			})
		}
	}
	return s
}

// tunedWeights reads the tuned player's weights from v, which must carry
// every parameter of schema with its kind. Values are checked against the
// ranges, so a hand-made genome.Values cannot smuggle in a NaN.
func tunedWeights(r Rules, schema genome.Schema, v genome.Values) (*weights, error) {
	have := v.Schema()
	for i := range schema {
		want := &schema[i]
		p, ok := have.Lookup(want.Name)
		if !ok || p.Kind != want.Kind {
			return nil, fmt.Errorf("mnk: tuned: parameters do not match its schema: no float %q", want.Name)
		}
		if err := want.Check(v.Get(want.Name)); err != nil {
			return nil, fmt.Errorf("mnk: tuned: %w", err)
		}
	}
	k := r.K
	w := newWeights(k)
	for l := 1; l < k; l++ {
		for _, kind := range []runKind{open, halfOpen} {
			w.own[kind][l] = v.Float(weightName("own", kind, l))
			w.opp[kind][l] = v.Float(weightName("opp", kind, l))
		}
	}
	w.centre = v.Float("centre")
	w.jitter = v.Float("jitter")
	if r.Gravity {
		w.threats = &threatWeights{}
		for _, tp := range threatParams {
			tp.set(w.threats, v.Float(tp.name))
		}
	}
	return w, nil
}
