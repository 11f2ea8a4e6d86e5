package conformance_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/conformance"
	"github.com/evotune/evotune/genome"
)

const settingsClause = "settings: defaults play as none, unknown ones refused"

// settingsFake is a fake whose "biased" player has a setting, "bias": its
// coin's weight in tenths, 5 by default. Its fields each break one part
// of the settings clause.
type settingsFake struct {
	*fake
	lax      bool // builds players with settings they do not declare
	explicit bool // a setting written at its default plays otherwise
}

func newSettingsFake() *settingsFake {
	return &settingsFake{fake: &fake{players: []fitness.PlayerInfo{
		{Name: "fair", Role: fitness.Mover},
		{Name: "biased", Role: fitness.Mover, Settings: []fitness.Setting{{Name: "bias", Default: "5"}}},
	}}}
}

func (f *settingsFake) NewPlayerSettings(role fitness.Role, name string, v genome.Values, s fitness.Settings) (fitness.Player, error) {
	p, err := f.NewPlayer(role, name, v)
	if err != nil {
		return nil, err
	}
	c := p.(coinPlayer)
	for k, val := range s {
		if k != "bias" || name != "biased" {
			if f.lax {
				continue
			}
			return nil, fmt.Errorf("fake: %s has no setting %q", name, k)
		}
		x, err := strconv.Atoi(val)
		if err != nil || x < 1 || x > 9 {
			return nil, fmt.Errorf("fake: bias %q: want 1 to 9", val)
		}
		c.p = float64(x) / 10
		if f.explicit {
			c.p = 0.9
		}
	}
	return c, nil
}

// Play wins for the first seat with its coin's weight, so a player's
// bias shows in its games against itself.
func (f *settingsFake) Play(_ context.Context, a, _ fitness.Player, seed uint64) (fitness.Outcome, error) {
	if fitness.NewRand(seed).Float64() < a.(coinPlayer).p {
		return fitness.Win, nil
	}
	return fitness.Loss, nil
}

// TestSettingsBreaches: the settings clause finds a game that declares
// settings but cannot build with them, one that ignores a setting its
// player lacks, and one whose explicit defaults play otherwise.
func TestSettingsBreaches(t *testing.T) {
	plainGame := newSettingsFake().fake // declares settings, no NewPlayerSettings
	lax, explicit := newSettingsFake(), newSettingsFake()
	lax.lax, explicit.explicit = true, true
	for _, tc := range []struct {
		name string
		game fitness.Game
		want map[string][]string
	}{
		{"conforming", newSettingsFake(), nil},
		{"not a SettingsGame", plainGame, map[string][]string{settingsClause: {`mover "biased" declares settings, but the game is not a fitness.SettingsGame`}}},
		{"unknown setting ignored", lax, map[string][]string{settingsClause: {`mover "biased" was built with a setting it does not declare`}}},
		{"explicit defaults play otherwise", explicit, map[string][]string{settingsClause: {`mover "biased", seed`, "win with their defaults bias=5"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, breaches(t, fakeInfo("fake", tc.game, nil, false), conformance.Options{Seeds: 4}), tc.want)
		})
	}
}
