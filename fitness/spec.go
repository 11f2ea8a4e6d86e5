package fitness

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/fileio"
	"gopkg.in/yaml.v3"
)

// Info returns the registered player name in role, if there is one.
func Info(g Game, role Role, name string) (PlayerInfo, bool) {
	for _, p := range g.Players() {
		if p.Name == name && p.Role == role {
			return p, true
		}
	}
	return PlayerInfo{}, false
}

// ParseSpec builds a player from a SPEC (see Spec): a registered name
// ("over9000"), with settings after an @ ("aenigma@depth=6"), and for a
// tunable player its values from a player file after a colon
// ("tuned:best.yaml", "tuned@depth=3:best.yaml") in YAML or JSON. The
// spec's settings override the file's. role is the role wanted, one of
// g.Roles(). Every command that takes a player reads it here, so every
// one takes the same specs.
func ParseSpec(g Game, role Role, spec string) (Player, error) {
	sp, err := SplitSpec(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.Name(), err)
	}
	name := sp.Name
	if name == "" {
		return nil, fmt.Errorf("%s: empty player name in spec %q", g.Name(), spec)
	}
	info, ok := Info(g, role, name)
	if !ok {
		// Let the game word the error: it knows the names it has.
		_, err := g.NewPlayer(role, name, genome.Values{})
		if err == nil {
			err = fmt.Errorf("%s: unknown %v %q", g.Name(), role, name)
		}
		if meant := fileSpec(g, role, spec); meant != "" && !sp.HasFile {
			err = fmt.Errorf("%w; did you mean %s?", err, meant)
		}
		return nil, err
	}
	if err := CheckSettings(g.Name(), info, sp.Settings); err != nil {
		return nil, err
	}
	if !sp.HasFile {
		return NewPlayerWith(g, role, name, info.Schema.Defaults(), sp.Settings)
	}
	file := sp.File
	if file == "" {
		return nil, fmt.Errorf("%s: %q names no file after %s:; want %s:FILE, such as %s:best.yaml", g.Name(), spec, name, name, name)
	}
	if !info.Tunable() {
		return nil, fmt.Errorf("%s: %s has no parameters to load from %s", g.Name(), name, file)
	}
	vals, settings, err := LoadParams(file, g.Name(), info)
	if err != nil {
		return nil, misplacedSettings(err, name, file)
	}
	if len(sp.Settings) > 0 {
		settings = maps.Clone(settings)
		if settings == nil {
			settings = Settings{}
		}
		maps.Copy(settings, sp.Settings)
	}
	return NewPlayerWith(g, role, name, vals, settings)
}

// misplacedSettings adds a hint to the error of a file that does not
// exist because settings were written after it ("tuned:best.yaml@depth=3").
func misplacedSettings(err error, name, file string) error {
	at := strings.LastIndex(file, "@")
	if at < 0 || !strings.Contains(file[at:], "=") {
		return err
	}
	if _, statErr := os.Stat(file); statErr == nil {
		return err
	}
	return fmt.Errorf("%w (settings go before the file: %s@%s:%s)", err, name, file[at+1:], file[:at])
}

// CheckParams reports whether params fit schema: the same parameters, of
// the same kinds, each within schema's range. Games call it in NewPlayer,
// so values built against a wider or different schema are refused rather
// than played.
func CheckParams(schema genome.Schema, params genome.Values) error {
	have := params.Schema()
	if len(have) != len(schema) {
		return fmt.Errorf("fitness: %d parameters, want %d", len(have), len(schema))
	}
	for i := range schema {
		p := &schema[i]
		q, ok := have.Lookup(p.Name)
		if !ok {
			return fmt.Errorf("fitness: parameter %s missing", p.Name)
		}
		if q.Kind != p.Kind {
			return fmt.Errorf("fitness: parameter %s is a %v, want a %v", p.Name, q.Kind, p.Kind)
		}
		if err := p.Check(params.Get(p.Name)); err != nil {
			return fmt.Errorf("fitness: %w", err)
		}
	}
	return nil
}

// fileSpec is the NAME:FILE spec a bare path to a player file stands for
// (tuned:runs/x/best.yaml for runs/x/best.yaml), or "" when spec does not
// look like a path or role has no tunable player. NAME is the player an
// export in the file names, else tuned, else role's first tunable player.
func fileSpec(g Game, role Role, spec string) string {
	if !looksLikeFile(spec) {
		return ""
	}
	var tunable []string
	for _, p := range g.Players() {
		if p.Role == role && p.Tunable() {
			tunable = append(tunable, p.Name)
		}
	}
	if len(tunable) == 0 {
		return ""
	}
	name := tunable[0]
	if slices.Contains(tunable, "tuned") {
		name = "tuned"
	}
	if p := exportedPlayer(spec); slices.Contains(tunable, p) {
		name = p
	}
	return name + ":" + spec
}

// looksLikeFile reports whether spec reads as a file's path rather than a
// player's name: it has a directory, a player file's extension, or is a
// file.
func looksLikeFile(spec string) bool {
	switch strings.ToLower(filepath.Ext(spec)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	if strings.ContainsRune(spec, filepath.Separator) || strings.ContainsRune(spec, '/') {
		return true
	}
	fi, err := os.Stat(spec)
	return err == nil && fi.Mode().IsRegular()
}

// exportedPlayer is the player an export at path names, "" when path is
// no readable export.
func exportedPlayer(path string) string {
	return readHead(path).Player
}

// SpecRules returns the game and the rule options that the player file
// of a NAME:FILE spec was tuned under (an export's game: and rules:),
// zero values when spec names no file or the file is no readable export:
// ParseSpec then says why.
func SpecRules(spec string) (game string, rules map[string]string) {
	_, file, ok := CutFile(spec)
	if !ok || file == "" {
		return "", nil
	}
	h := readHead(file)
	return h.Game, h.Rules
}

// SpecSettings returns the settings that the player file of a
// NAME:FILE spec applies when it loads (an export's settings:, what its
// player was tuned with), nil when spec names no file, or the file has
// none or is no readable export.
func SpecSettings(spec string) map[string]string {
	_, file, ok := strings.Cut(spec, ":")
	if !ok || file == "" {
		return nil
	}
	return readHead(file).Settings
}

// head is what a player file says of itself at its top.
type head struct {
	Game     string            `yaml:"game"`
	Player   string            `yaml:"player"`
	Rules    map[string]string `yaml:"rules"`
	Settings map[string]string `yaml:"settings"`
}

// readHead reads the head of a player file, a zero head when path is no
// readable export.
func readHead(path string) head {
	data, err := fileio.ReadFile(path, fileio.MaxPlayerFile)
	if err != nil {
		return head{}
	}
	var h head
	if yaml.Unmarshal(data, &h) != nil {
		return head{}
	}
	return h
}
