package fitness

import (
	"fmt"
	"slices"

	"github.com/evotune/evotune/genome"
)

// A Guest is a player a game does not hold itself but plays for a
// config that defines it: a UCI engine ("uci:NAME") or a bot that plays
// moves ("bot:NAME"), whose kind starts its name (GuestKinds). Its
// knobs and settings are its own (Info); the game referees its games as
// it does its own players'. A guest's processes are its definer's to
// close, not the game's.
type Guest interface {
	// Info describes the guest as a player: its name with its kind, its
	// role, its knobs and its settings.
	Info() PlayerInfo
	// NewPlayer builds the guest with values from Info's schema and
	// settings from Info's (nil: their defaults).
	NewPlayer(values genome.Values, s Settings) (Player, error)
}

// A Host is a game that plays guests among its players.
type Host interface {
	Game
	// WithGuests returns the game with gs among its players: listed by
	// Players after its own, built by NewPlayer and NewPlayerSettings.
	// The game itself is unchanged. A guest the game cannot referee (a
	// role it lacks, a name it has) is an error.
	WithGuests(gs ...Guest) (Game, error)
}

// Guests are a Host's guests, for its implementation: their infos, and
// the one that plays a name.
type Guests []Guest

// Check refuses guests game cannot host: a role it lacks, a name one of
// its own players or another guest has, a name without a guest kind.
func (gs Guests) Check(game string, roles []Role, own []PlayerInfo) error {
	seen := map[string]bool{}
	for _, p := range own {
		seen[string(p.Role)+"\x00"+p.Name] = true
	}
	for _, g := range gs {
		info := g.Info()
		key := string(info.Role) + "\x00" + info.Name
		switch {
		case !slices.Contains(roles, info.Role):
			return fmt.Errorf("%s: %s plays %v, a role the game has not (%s)", game, info.Name, info.Role, JoinRoles(roles))
		case seen[key]:
			return fmt.Errorf("%s: %s is a player of the game twice", game, info.Name)
		}
		if _, ok := guestKind(info.Name); !ok {
			return fmt.Errorf("%s: guest %q: a guest's name starts with its kind (%v)", game, info.Name, GuestKinds)
		}
		seen[key] = true
	}
	return nil
}

// Infos lists the guests as players, in order.
func (gs Guests) Infos() []PlayerInfo {
	out := make([]PlayerInfo, len(gs))
	for i, g := range gs {
		out[i] = g.Info()
	}
	return out
}

// Build builds the guest name of role with values and settings; ok is
// false when no guest plays that name, which is then the game's own.
func (gs Guests) Build(role Role, name string, values genome.Values, s Settings) (p Player, ok bool, err error) {
	for _, g := range gs {
		if info := g.Info(); info.Name == name && info.Role == role {
			p, err = g.NewPlayer(values, s)
			return p, true, err
		}
	}
	return nil, false, nil
}
