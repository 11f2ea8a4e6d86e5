package cli

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/genome"
	"gopkg.in/yaml.v3"
)

// uciEngine returns the path of Debian's engine name ($EVOTUNE_STOCKFISH
// or $EVOTUNE_TOGA2, set by .ci/run, else /usr/games/NAME), skipping
// the test with one line where it is not installed, unless
// EVOTUNE_ENGINES=1 (.ci/run).
func uciEngine(t *testing.T, name string) string {
	t.Helper()
	path := os.Getenv("EVOTUNE_" + strings.ToUpper(name))
	if path == "" {
		path = "/usr/games/" + name
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("EVOTUNE_ENGINES") == "1" {
			t.Fatalf("EVOTUNE_ENGINES=1 but %s is not installed", path)
		}
		t.Skipf("%s is not installed (apt-get install %s)", path, name)
	}
	return path
}

// TestGamesUCI: `games --uci` writes the engine's knobs as a space:
// section that a config takes as it is: read back over the engine's
// schema, every knob is a gene with the range the engine declares.
func TestGamesUCI(t *testing.T) {
	for _, name := range []string{"toga2", "stockfish"} {
		t.Run(name, func(t *testing.T) {
			path := uciEngine(t, name)
			code, out, errs := run(t, "games", "--uci", path)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var doc struct {
				Space yaml.Node `yaml:"space"`
			}
			if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v:\n%s", err, out)
			}
			info, err := uci.Describe(context.Background(), []string{path}, "", nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			schema, err := uci.Knobs(info, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			space, err := genome.NewSpace(schema, &doc.Space)
			if err != nil {
				t.Fatalf("the space written does not read back: %v\n%s", err, out)
			}
			if space.Len() != len(schema) || len(schema) < 5 {
				t.Errorf("%d genes of %d knobs", space.Len(), len(schema))
			}
			if !reflectEqualSchema(space.Params(), schema) {
				t.Errorf("ranges changed on the way:\n%+v\n%+v", space.Params(), schema)
			}
			code, out, errs = run(t, "games", "--uci", path, "--json")
			var j struct {
				Name    string
				Knobs   []json.RawMessage
				Options []struct{ Name, Type string }
			}
			if code != ExitOK || json.Unmarshal([]byte(out), &j) != nil || j.Name != info.Name || len(j.Knobs) != len(schema) || len(j.Options) != len(info.Options) {
				t.Errorf("--json: exit %d %s: %s", code, errs, out)
			}
		})
	}
	if path := uciEngine(t, "toga2"); path != "" {
		_, out, _ := run(t, "games", "--uci", path)
		for _, want := range []string{"# Toga II", "  King Safety: {min: 0, max: 400}", "  NullMove Pruning: {choices: [Always, Fail High, Never]}", "#   OwnBook: check, default \"true\""} {
			if !strings.Contains(out, want) {
				t.Errorf("no line %q in\n%s", want, out)
			}
		}
	}
}

func reflectEqualSchema(a, b genome.Schema) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Kind != b[i].Kind || a[i].Min != b[i].Min || a[i].Max != b[i].Max ||
			strings.Join(a[i].Choices, "|") != strings.Join(b[i].Choices, "|") {
			return false
		}
	}
	return true
}

// TestGamesUCIRefuses: each bad --uci is one line and exit 2.
func TestGamesUCIRefuses(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing", []string{"games", "--uci", "/nonexistent/engine -x"},
			"evotune games: uci: /nonexistent/engine -x: cannot start it: program /nonexistent/engine: stat /nonexistent/engine: no such file or directory"},
		{"not UCI", []string{"games", "--uci", "/bin/true"}, "evotune games: uci: /bin/true: not a UCI engine: it exited with status 0 before uciok"},
		{"empty", []string{"games", "--uci", ""}, `invalid value "" for --uci`},
		{"with a game", []string{"games", "mnk", "--uci", "/bin/true"}, "--uci lists an engine's options; it takes no GAME"},
		{"with --command", []string{"games", "--uci", "/bin/true", "--command", "/bin/true"}, "--uci and --command name two programs"},
		{"with --rule", []string{"games", "--uci", "/bin/true", "--rule", "m=3"}, "--rule belongs to a GAME"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
				t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit 2 and one line with %q", code, out, errs, tc.want)
			}
		})
	}
}
