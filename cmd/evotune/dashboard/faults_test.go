package dashboard

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/chess/uci/ucitest"
)

// TestFaultsPanel: a run whose opponent engine crashes in some games
// shows them on its page, by generation, player and kind, with the
// games it kept and the command that replays them; a run without
// faults or records has no such panel.
func TestFaultsPanel(t *testing.T) {
	bin := ucitest.Build(t)
	runs := t.TempDir()
	config := func(options string) string {
		return fmt.Sprintf(`name: faults
seed: 3
game: chess
rules: {random-plies: 6, max-moves: 40}
engines:
  dev: {command: [%[1]s], limit: {nodes: 20}}
  base: {command: [%[1]s], options: {%[2]s}, limit: {nodes: 20}}
player: uci:dev
space: {Focus: {min: 0, max: 100}}
fitness:
  baselines: {opponents: ["uci:base"], games: 6}
evolution: {population: 3, generations: 2, hall-of-fame: 1, elitism: 1, tournament-size: 2}
remeasure: off
`, bin, options)
	}
	_, ck := finishedRun(t, runs, "crashing", config(`Focus: 70, "Crash Ply": 12, "Fault Every": 3`))
	finishedRun(t, runs, "clean", config("Focus: 70"))
	want := 0
	for _, h := range ck.History {
		want += h.Faults["uci:base"]["crash"]
	}
	if want == 0 {
		t.Fatal("the fixture crashed in no game")
	}
	ts, _ := serve(t, "", runs)
	_, body := get(t, ts, "/run?r=0/crashing")
	if !strings.Contains(body, `id="faults-panel"`) || !strings.Contains(body, "games-0001.pgn") || !strings.Contains(body, "evotune replay FILE --game N") {
		t.Fatalf("the crashing run's page has no faults panel with its kept games:\n%s", head(body))
	}
	got := 0
	for _, m := range regexp.MustCompile(`<td>uci:base</td><td class="num">(\d+)</td>`).FindAllStringSubmatch(body, -1) {
		var n int
		fmt.Sscan(m[1], &n)
		got += n
	}
	if got != want {
		t.Errorf("the page shows %d crashes of uci:base, the checkpoint %d", got, want)
	}
	if _, body := get(t, ts, "/run?r=0/clean"); strings.Contains(body, `id="faults-panel"`) {
		t.Error("a run without faults or kept games shows a faults panel")
	}
}
