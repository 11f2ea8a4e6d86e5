package battleship

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/ctxtest"
)

// slowRules are rules under which a game of the posterior at its largest
// budget takes some 20 s of CPU, and a shot up to a second: 32 ships of
// two on 128 cells, hits only.
func slowRules() map[string]string {
	return map[string]string{"width": "16", "height": "8", "fleet": strings.TrimSuffix(strings.Repeat("2,", 32), ","), "reveal": "hits-only"}
}

// countingShooter counts the shots its gunners fire, passing the watch on.
type countingShooter struct {
	Shooter
	shots *int
}

type countingGunner struct {
	Gunner
	shots *int
}

func (s countingShooter) Start(g *Geometry, rng *rand.Rand) Gunner {
	return countingGunner{s.Shooter.Start(g, rng), s.shots}
}

func (k countingGunner) Fire() int {
	*k.shots++
	return k.Gunner.Fire()
}

func (k countingGunner) watch(ctx context.Context) bool { return watch(k.Gunner, ctx) }

// TestCancelStopsThePosterior cancels slow games of the posterior and of
// the tuned shooter on the posterior model, solo, head to head and in a
// series, at their 41st look at the context: each must return the
// context's error, no result, without firing again, and must have looked
// within its shots (more than once in some shot), not only between them.
func TestCancelStopsThePosterior(t *testing.T) {
	g, err := New(slowRules())
	if err != nil {
		t.Fatal(err)
	}
	posterior, err := g.NewPlayer(ShooterRole, "posterior", mustValues(t, posteriorSchema(g.geo.Rules), map[string]float64{"samples": 8192, "exact": 1 << 20}))
	if err != nil {
		t.Fatal(err)
	}
	tuned, err := g.NewPlayer(ShooterRole, "tuned", mustValues(t, tunedSchema(g.geo.Rules), map[string]float64{"samples": 1024}, "model", "posterior"))
	if err != nil {
		t.Fatal(err)
	}
	solo := func(ctx context.Context, s Shooter) error {
		_, err := g.geo.SoloContext(ctx, s, g.placer, 1)
		return err
	}
	for _, tc := range []struct {
		name    string
		shooter fitness.Player
		play    func(ctx context.Context, s Shooter) error
	}{
		{"posterior solo", posterior, solo},
		{"tuned posterior solo", tuned, solo},
		{"posterior head to head", posterior, func(ctx context.Context, s Shooter) error {
			_, err := g.Play(ctx, s, s, 1)
			return err
		}},
		{"posterior series", posterior, func(ctx context.Context, s Shooter) error {
			shots, err := g.PlaySeries(ctx, s, 3, 1)
			if shots != nil {
				t.Errorf("a cancelled series returned shots %v", shots)
			}
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const trip = 40
			shots := 0
			var at []int // shots fired at each look
			ctx := ctxtest.TripRecording(trip, func() int { return shots }, &at)
			err := tc.play(ctx, countingShooter{tc.shooter.(Shooter), &shots})
			// The look that finds the context cancelled cuts a shot short
			// or ends the game; after a cut shot the game looks once more
			// and ends. No shot is fired after it.
			if !errors.Is(err, context.Canceled) || len(at) < trip+1 || len(at) > trip+2 || shots != at[trip] {
				t.Fatalf("err %v after %d shots and %d looks (%d shots at look %d): want context.Canceled at look %d or %d and no shot after",
					err, shots, len(at), at[min(trip, len(at)-1)], trip+1, trip+1, trip+2)
			}
			within := false
			for i := 1; i < len(at); i++ {
				within = within || at[i] == at[i-1]
			}
			if !within {
				t.Fatalf("looks after shots %v: none within a shot", at)
			}
		})
	}
}

// TestLiveContextFiresTheSameShots: games of the posterior under a context
// that could be cancelled but is not are the games played without one,
// solo, head to head and in a series (the game's PlaySeries).
func TestLiveContextFiresTheSameShots(t *testing.T) {
	g, err := New(map[string]string{"reveal": "hits-only"})
	if err != nil {
		t.Fatal(err)
	}
	never := ctxtest.Never()
	for _, name := range []string{"posterior", "tuned"} {
		var v genome.Values
		if name == "tuned" {
			v = mustValues(t, tunedSchema(g.geo.Rules), nil, "model", "posterior")
		}
		p, err := g.NewPlayer(ShooterRole, name, v)
		if err != nil {
			t.Fatal(err)
		}
		s := p.(Shooter)
		for seed := range uint64(3) {
			got, err := g.geo.SoloContext(never, s, g.placer, seed)
			if want := g.geo.Solo(s, g.placer, seed); err != nil || got != want {
				t.Errorf("%s seed %d: %d shots (err %v) under a live context, %d without", name, seed, got, err, want)
			}
			o, err := g.Play(never, s, s, seed)
			if want := g.geo.HeadToHead(s, s, g.placer, seed); err != nil || o != want {
				t.Errorf("%s seed %d: %v (err %v) under a live context, %v without", name, seed, o, err, want)
			}
		}
		series, err := g.PlaySeries(never, s, 3, 7)
		want := g.geo.Series(s, g.placer, 3, 7)
		if err != nil || len(series) != len(want) {
			t.Fatalf("%s series: %v (err %v) under a live context, %v without", name, series, err, want)
		}
		for i := range want {
			if series[i] != float64(want[i]) {
				t.Errorf("%s series: %v under a live context, %v without", name, series, want)
			}
		}
	}
}

// mustValues is the schema's defaults with the numbers nums and the
// choices given as name, value pairs.
func mustValues(t *testing.T, s genome.Schema, nums map[string]float64, choices ...string) genome.Values {
	t.Helper()
	v := s.Defaults()
	var err error
	for name, x := range nums {
		if v, err = v.With(name, genome.Value{Num: x}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i+1 < len(choices); i += 2 {
		if v, err = v.With(choices[i], genome.Value{Str: choices[i+1]}); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// TestCancelStopsTheEnumeration cancels the exact enumeration of a
// posterior (64,000 layouts of three ships on 5x5, enumerated from the
// first shot on) at its 21st look at the context: the enumeration must
// look every lookEvery nodes, not only between shots, and stop at that
// look.
func TestCancelStopsTheEnumeration(t *testing.T) {
	geo := mustGeometry(t, Rules{W: 5, H: 5, Fleet: []int{2, 2, 2}, Reveal: RevealSunk})
	f := newFleetPosterior(geo, nil, posteriorParams{Samples: 8, Exact: 1 << 20}, fitness.NewRand(1))
	const trip = 20
	var looks *int
	f.ctx, looks = ctxtest.Trip(trip)
	f.probs()
	if !f.exact || !errors.Is(f.err, context.Canceled) || *looks != trip+1 {
		t.Fatalf("exact %v, err %v after %d looks: want the enumeration cancelled at look %d", f.exact, f.err, *looks, trip+1)
	}
}
