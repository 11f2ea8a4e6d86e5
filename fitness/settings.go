package fitness

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/evotune/evotune/genome"
)

// Setting is one of a player's own settings: how it plays rather than
// what it values, such as a search's depth or node budget. Settings are
// not tuned; a player SPEC sets them after an @ ("aenigma@depth=6"), and
// a player file under settings:. A setting left out takes its Default,
// which a game takes from the rule option of the same name when there is
// one, so a spec without settings plays as it always did.
type Setting struct {
	Name    string
	Default string // as written: "4"
	Summary string
}

// Settings are values of a player's settings by name, as written ("depth"
// -> "6"). A nil or empty Settings leaves every setting at its default.
type Settings map[string]string

// String writes the settings as a spec does, sorted by name:
// "depth=6,nodes=5000".
func (s Settings) String() string {
	names := make([]string, 0, len(s))
	for k := range s {
		names = append(names, k)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + "=" + s[k]
	}
	return strings.Join(parts, ",")
}

// SettingsGame is a game some of whose players take settings
// (PlayerInfo.Settings). Build players through NewPlayerWith, which
// checks the names of the settings before the game sees them.
type SettingsGame interface {
	Game
	// NewPlayerSettings is NewPlayer with settings s, every key of which
	// names one of the player's declared Settings. A value the setting
	// does not take is an error that names the setting and the value.
	NewPlayerSettings(role Role, name string, params genome.Values, s Settings) (Player, error)
}

// NewPlayerWith builds the registered player name in role with params and
// settings s. A setting the player does not declare is an error, never
// ignored; with no settings it is g.NewPlayer.
func NewPlayerWith(g Game, role Role, name string, params genome.Values, s Settings) (Player, error) {
	if len(s) == 0 {
		return g.NewPlayer(role, name, params)
	}
	info, ok := Info(g, role, name)
	if !ok {
		return g.NewPlayer(role, name, params) // the game words the unknown name
	}
	if err := CheckSettings(g.Name(), info, s); err != nil {
		return nil, err
	}
	sg, ok := g.(SettingsGame)
	if !ok {
		return nil, fmt.Errorf("%s: %s declares settings but the game cannot build players with them", g.Name(), name)
	}
	return sg.NewPlayerSettings(role, name, params, s)
}

// CheckSettings reports, in name order, every setting of s that the
// player of info does not have.
func CheckSettings(game string, info PlayerInfo, s Settings) error {
	names := make([]string, 0, len(s))
	for k := range s {
		names = append(names, k)
	}
	slices.Sort(names)
	var errs []error
	for _, k := range names {
		if !info.hasSetting(k) {
			errs = append(errs, fmt.Errorf("%s: %s has no setting %q (%s)", game, info.Name, k, info.settingNames()))
		}
	}
	return errors.Join(errs...)
}

func (p PlayerInfo) hasSetting(name string) bool {
	return slices.ContainsFunc(p.Settings, func(x Setting) bool { return x.Name == name })
}

// settingNames says which settings the player has, for messages.
func (p PlayerInfo) settingNames() string {
	if len(p.Settings) == 0 {
		return "it has none"
	}
	names := make([]string, len(p.Settings))
	for i, s := range p.Settings {
		names[i] = s.Name
	}
	return "its settings: " + strings.Join(names, ", ")
}

// Spec is a player SPEC split into its parts:
//
//	NAME                   a registered player ("aenigma")
//	NAME@SETTINGS          with settings ("aenigma@depth=6,nodes=50000")
//	NAME:FILE              a tunable player's values from a player file
//	NAME@SETTINGS:FILE     both ("tuned@depth=3:best.yaml")
//
// The settings come before the file, so a file's name may hold any
// character, '@' included. A guest's NAME holds its kind and a colon
// ("uci:dev", "bot:mine": see GuestKinds), so "uci:dev@nodes=4000:best.yaml"
// is the engine dev at 4,000 nodes with its values from best.yaml.
type Spec struct {
	Name     string
	Settings Settings // nil when the spec sets none
	File     string
	HasFile  bool // a ':' was written, even with nothing after it
}

// SplitSpec splits a player SPEC into its parts. It checks the form of
// the settings (KEY=VALUE, each key once) but not their names, which
// depend on the game.
func SplitSpec(spec string) (Spec, error) {
	head, file, hasFile := CutFile(spec)
	name, set, hasSet := strings.Cut(head, "@")
	if kind, ok := guestKind(name); ok && name == kind+":" {
		return Spec{}, fmt.Errorf("player spec %q: no name after %s:; want %s:NAME, the name of one the config defines", spec, kind, kind)
	}
	sp := Spec{Name: name, File: file, HasFile: hasFile}
	if !hasSet {
		return sp, nil
	}
	if set == "" {
		return Spec{}, fmt.Errorf("player spec %q: no settings after @; want %s@KEY=VALUE, such as %s@depth=4", spec, name, name)
	}
	sp.Settings = Settings{}
	for _, kv := range strings.Split(set, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "" || v == "":
			return Spec{}, fmt.Errorf("player spec %q: setting %q: want KEY=VALUE, such as depth=4", spec, kv)
		case sp.Settings[k] != "":
			return Spec{}, fmt.Errorf("player spec %q: setting %s given twice", spec, k)
		}
		sp.Settings[k] = v
	}
	return sp, nil
}

// String writes the spec back in its canonical form.
func (s Spec) String() string {
	out := s.Name
	if len(s.Settings) > 0 {
		out += "@" + s.Settings.String()
	}
	if s.HasFile {
		out += ":" + s.File
	}
	return out
}

// GuestKinds are the kinds of guest players, players a game does not
// hold itself but plays for a config that defines them (see Guest): UCI
// engines ("uci:NAME") and bots that play moves ("bot:NAME"). A spec's
// name starts with a kind and a colon where it names a guest.
var GuestKinds = []string{"uci", "bot"}

// guestKind returns the kind a player name starts with ("uci" for
// "uci:dev"), if it starts with one and a colon.
func guestKind(name string) (string, bool) {
	for _, k := range GuestKinds {
		if strings.HasPrefix(name, k+":") {
			return k, true
		}
	}
	return "", false
}

// CutFile cuts a SPEC at the colon before its FILE: the spec's head
// (NAME[@SETTINGS]), its file, and whether a file was written. A guest's
// name keeps its own colon ("uci:dev:best.yaml" is uci:dev and
// best.yaml). Every reader of a spec's file cuts it here.
func CutFile(spec string) (head, file string, hasFile bool) {
	skip := 0
	if k, ok := guestKind(spec); ok {
		skip = len(k) + 1
	}
	i := strings.IndexByte(spec[skip:], ':')
	if i < 0 {
		return spec, "", false
	}
	return spec[:skip+i], spec[skip+i+1:], true
}
