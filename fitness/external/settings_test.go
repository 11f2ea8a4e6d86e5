package external_test

import (
	"context"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
)

// settingsBot offers a player with a setting, depth (1, 2 or 3, default
// 1), and answers each game by the settings its request carries: win when
// they say depth 3, loss for depth 1, a draw when there are none.
const settingsBot = `read line
printf '%s\n' '{"type":"hello","protocol":1,"game":"g","mode":"two-seat","roles":["mover"],"options":[],"players":[{"name":"p","role":"mover","params":[],"settings":[{"name":"depth","default":"1","summary":"plies","choices":["1","2","3"]}]},{"name":"q","role":"mover","params":[]}]}'
while read line; do
  id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  case "$line" in
    *'"settings":{"depth":"3"}'*) out=win ;;
    *'"settings":{"depth":"1"}'*) out=loss ;;
    *) out=draw ;;
  esac
  printf '{"type":"result","id":%s,"outcome":"%s"}\n' "$id" "$out"
done`

// TestSettingsReachTheProgram: a program's declared settings show in the
// players' info (with their choices), requests carry every one of them
// (defaults filled in) for the players that declare any and none for the
// others, and a setting the player lacks or a value outside its choices
// is refused before any game.
func TestSettingsReachTheProgram(t *testing.T) {
	g := openGame(t, external.Command{Argv: []string{writeScript(t, settingsBot)}}, nil)
	info, _ := fitness.Info(g, fitness.Mover, "p")
	if len(info.Settings) != 1 || info.Settings[0].Name != "depth" || info.Settings[0].Default != "1" || info.Settings[0].Summary != "plies (1 | 2 | 3)" {
		t.Fatalf("p's settings: %+v", info.Settings)
	}
	play := func(spec string) fitness.Outcome {
		t.Helper()
		p, err := fitness.ParseSpec(g, fitness.Mover, spec)
		if err != nil {
			t.Fatal(err)
		}
		o, err := g.Play(context.Background(), p, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	for spec, want := range map[string]fitness.Outcome{
		"p@depth=3": fitness.Win, "p@depth=1": fitness.Loss, "p": fitness.Loss, "p@depth=2": fitness.Draw, "q": fitness.Draw,
	} {
		if got := play(spec); got != want {
			t.Errorf("%s: %v, want %v", spec, got, want)
		}
	}
	for spec, want := range map[string]string{
		"p@depth=4": "g: p@depth=4: not one of 1, 2, 3",
		"p@width=2": `g: p has no setting "width" (its settings: depth)`,
		"q@depth=2": `g: q has no setting "depth" (it has none)`,
	} {
		if _, err := fitness.ParseSpec(g, fitness.Mover, spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	if _, err := g.(fitness.SettingsGame).NewPlayerSettings(fitness.Mover, "q", genome.Values{}, fitness.Settings{"depth": "2"}); err == nil {
		t.Error("the game built q with a setting it does not declare")
	}
}
