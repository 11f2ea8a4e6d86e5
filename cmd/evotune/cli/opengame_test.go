package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlayerFileRules: eval and sprt play a player file's rules: (an
// export of a run against the blockhalf placer says placer: blockhalf)
// where the command line names none, saying so, exactly as if the command
// line had given them; where the command line says otherwise it stands,
// and a warning names both.
func TestPlayerFileRules(t *testing.T) {
	export, err := os.ReadFile("testdata/no-rivals/best.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The same parameters with and without the rules they were tuned
	// under, at the same name in two directories, so that the outputs'
	// labels can be made to match.
	plain := filepath.Join(t.TempDir(), "best.yaml")
	tuned := filepath.Join(t.TempDir(), "best.yaml")
	withRules := strings.Replace(string(export), "role: shooter\n", "role: shooter\nrules:\n  placer: blockhalf\n", 1)
	if withRules == string(export) {
		t.Fatal("the export has no role line to put rules after")
	}
	if err := os.WriteFile(plain, export, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tuned, []byte(withRules), 0o644); err != nil {
		t.Fatal(err)
	}
	eval := func(file string, extra ...string) []string {
		return append([]string{"eval", "battleship", "--player", "tuned:" + file, "--vs", "over9000", "--games", "60", "--seed", "3", "--json"}, extra...)
	}
	sprt := func(file string, extra ...string) []string {
		return append([]string{"sprt", "battleship", "--player", "tuned:" + file, "--vs", "over9000", "--diff0", "0", "--diff1", "-2",
			"--batch", "50", "--max-games", "200", "--seed", "3", "--json"}, extra...)
	}
	applied := "playing --rule placer=blockhalf, as tuned:" + tuned + " was tuned (its rules:)"
	warned := "warning: tuned:" + tuned + " was tuned with --rule placer=blockhalf; playing --placer random as the command line says"
	tests := []struct {
		name       string
		args, same []string // same: the command line that plays the same games, from the file without rules
		stderr     string   // a line stderr holds
	}{
		{"eval plays the file's placer", eval(tuned), eval(plain, "--placer", "blockhalf"), "evotune eval: " + applied},
		{"eval with the same placer given", eval(tuned, "--placer", "blockhalf"), eval(plain, "--placer", "blockhalf"), ""},
		{"eval with another placer given", eval(tuned, "--placer", "random"), eval(plain, "--placer", "random"), "evotune eval: " + warned},
		{"eval with another placer as a rule", eval(tuned, "--rule", "placer=random"), eval(plain, "--rule", "placer=random"),
			"evotune eval: warning: tuned:" + tuned + " was tuned with --rule placer=blockhalf; playing --rule placer=random as the command line says"},
		{"sprt plays the file's placer", sprt(tuned), sprt(plain, "--placer", "blockhalf"), "evotune sprt: " + applied},
		{"sprt with another placer given", sprt(tuned, "--placer", "random"), sprt(plain, "--placer", "random"), "evotune sprt: " + warned},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, tc.args...)
			wantCode, want, _ := run(t, tc.same...)
			if code != wantCode {
				t.Fatalf("exit %d, want %d: %s", code, wantCode, errs)
			}
			if out != strings.ReplaceAll(want, plain, tuned) {
				t.Errorf("not the games of %q:\n%s\nwant\n%s", tc.same, out, want)
			}
			// sprt's progress lines follow; the rules' lines name the placer.
			var said []string
			for l := range strings.Lines(errs) {
				if strings.Contains(l, "placer") {
					said = append(said, strings.TrimSuffix(l, "\n"))
				}
			}
			switch {
			case tc.stderr == "" && len(said) > 0:
				t.Errorf("stderr says %q, want no word of the rules", said)
			case tc.stderr != "" && (len(said) != 1 || said[0] != tc.stderr):
				t.Errorf("stderr says %q, want the one line %q", said, tc.stderr)
			}
		})
	}
}

// TestPlayerFileSettings: eval and sprt say which settings a NAME:FILE
// player plays with from its file (an export of a run of tuned@depth=2
// says settings: depth: 2), and where the spec's own override them; a
// file without settings gets no word.
func TestPlayerFileSettings(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mnk.yaml")
	if err := os.WriteFile(cfg, []byte("game: mnk\nplayer: tuned@depth=2\nfitness:\n  baselines: {games: 4, opponents: [random]}\nevolution:\n  population: 3\n  generations: 1\n  tournament-size: 2\nremeasure: {top: 2, games: 20}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	if code, _, errs := run(t, "run", cfg, "--out", out, "--quiet"); code != ExitOK {
		t.Fatalf("run: %s", errs)
	}
	best := filepath.Join(out, "best.yaml")
	for _, tc := range []struct {
		name string
		args []string
		want []string // lines of stderr
	}{
		{"eval", []string{"eval", "mnk", "--player", "tuned:" + best, "--vs", "greedy", "--games", "4"},
			[]string{"evotune eval: tuned:" + best + " plays with depth=2, from its file's settings:"}},
		{"eval, overridden", []string{"eval", "mnk", "--player", "tuned@depth=3:" + best, "--vs", "greedy", "--games", "4"},
			[]string{"evotune eval: tuned@depth=3:" + best + " plays with depth=3, as the spec says, where its file's settings: say depth=2"}},
		{"sprt", []string{"sprt", "mnk", "--player", "tuned:" + best, "--vs", "greedy", "--elo0", "0", "--elo1", "5", "--batch", "4", "--max-games", "8"},
			[]string{"evotune sprt: tuned:" + best + " plays with depth=2, from its file's settings:"}},
		{"no settings", []string{"eval", "battleship", "--player", "tuned:testdata/no-rivals/best.yaml", "--games", "4"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code == ExitFailure || code == ExitUsage { // sprt's verdict may be any
				t.Fatalf("exit %d: %s", code, errs)
			}
			var said []string
			for l := range strings.Lines(errs) {
				if strings.Contains(l, "settings:") {
					said = append(said, strings.TrimSuffix(l, "\n"))
				}
			}
			if !slices.Equal(said, tc.want) {
				t.Errorf("stderr says %q, want %q", said, tc.want)
			}
		})
	}
}
