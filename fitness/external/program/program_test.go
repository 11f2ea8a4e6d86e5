package program_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/external/program"
	"github.com/evotune/evotune/genome"
)

const hello = `{"type":"hello","protocol":1}` + "\n"

func seatLine(id int, seed string, a, b string) string {
	return fmt.Sprintf(`{"type":"play","id":%d,"seed":%q,"rules":{},"seats":[{"player":%q,"params":{}},{"player":%q,"params":{}}]}`+"\n", id, seed, a, b)
}

func game() program.Game {
	return program.Game{
		Name:    "g",
		Players: []program.Player{{Name: "a"}, {Name: "b"}},
		Play: func(r program.Request) (program.Outcome, error) {
			switch r.Seed {
			case 1:
				panic("boom")
			case 2:
				return 0, errors.New("cannot")
			}
			if r.Seats[0].Player == "a" {
				return program.Win, nil
			}
			return program.Loss, nil
		},
	}
}

func TestServe(t *testing.T) {
	tests := []struct {
		name  string
		game  func() program.Game
		input string
		want  []string // lines after the offer (or instead of it, on failure)
		err   string   // Serve's error
	}{
		{"results", game, hello + seatLine(1, "5", "a", "b") + seatLine(2, "5", "b", "a"),
			[]string{`{"type":"result","id":1,"outcome":"win"}`, `{"type":"result","id":2,"outcome":"loss"}`}, ""},
		{"panic and error become error replies", game, hello + seatLine(1, "1", "a", "b") + seatLine(2, "2", "a", "b"),
			[]string{`{"type":"error","id":1,"error":"panic: boom"}`, `{"type":"error","id":2,"error":"cannot"}`}, ""},
		{"bad requests", game, hello + seatLine(1, "x", "a", "b") + seatLine(2, "5", "a", "z") +
			`{"type":"plya","id":3}` + "\n" + `{"type":"play","id":4,"seed":"1","seats":[]}` + "\n",
			[]string{`{"type":"error","id":1,"error":"seed \"x\" is not a decimal uint64"}`,
				`{"type":"error","id":2,"error":"seat 1: no mover called \"z\""}`,
				`{"type":"error","id":3,"error":"unknown request type \"plya\""}`,
				`{"type":"error","id":4,"error":"0 seats, want 2"}`}, ""},
		{"garbage from evotune", game, hello + "not json\n",
			[]string{`{"type":"error","error":"program: a line from evotune is not JSON (invalid character 'o' in literal null (expecting 'u')): \"not json\""}`}, "not JSON"},
		{"no hello", game, seatLine(1, "5", "a", "b"), nil, "the first line is not a hello"},
		{"old evotune", game, `{"type":"hello","protocol":0}` + "\n", nil, "evotune speaks protocol 0, this program 1"},
		{"both play functions", func() program.Game {
			g := game()
			g.PlaySolo = func(program.Request) (float64, error) { return 0, nil }
			return g
		}, hello, nil, "set exactly one of Game.Play and Game.PlaySolo"},
		{"bad schema", func() program.Game {
			g := game()
			g.Players[0].Schema = genome.Schema{{Name: "x", Kind: genome.Float, Min: 1, Max: 0}}
			return g
		}, hello, nil, `player "a": genome: x: bad range [1, 0]`},
		{"empty input", game, "", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := program.Serve(tc.game(), strings.NewReader(tc.input), &out)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) > 0 && strings.HasPrefix(lines[0], `{"type":"hello"`) {
				lines = lines[1:]
			} else if tc.err != "" && len(tc.want) == 0 {
				// A refusal is one error line telling evotune why.
				if len(lines) != 1 || !strings.HasPrefix(lines[0], `{"type":"error","error":`) {
					t.Fatalf("output %q, want one error line", out.String())
				}
				return
			}
			if lines == nil || len(lines) == 1 && lines[0] == "" {
				lines = nil
			}
			if strings.Join(lines, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("output\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// With Concurrency, every request is answered once, in some order.
func TestServeConcurrently(t *testing.T) {
	g := game()
	g.Concurrency = 4
	in := hello
	for i := range 500 {
		in += seatLine(i, "9", "a", "b")
	}
	var out bytes.Buffer
	if err := program.Serve(g, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")[1:]
	var ids []int
	for _, l := range lines {
		var r struct {
			ID      int
			Outcome string
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Outcome != "win" {
			t.Fatalf("reply %s", l)
		}
		ids = append(ids, r.ID)
	}
	sort.Ints(ids)
	for i, id := range ids {
		if id != i {
			t.Fatalf("ids %v..., want 0..499 once each", ids[:min(10, len(ids))])
		}
	}
}

// TestSettingsReachPlay: a player's settings reach Play, given or
// defaulted; a player without settings gets none; a value outside a
// setting's choices is an error reply.
func TestSettingsReachPlay(t *testing.T) {
	g := program.Game{
		Name: "g",
		Players: []program.Player{
			{Name: "a", Settings: []program.Option{{Name: "depth", Default: "2", Choices: []string{"1", "2", "3"}}, {Name: "note", Default: "none"}}},
			{Name: "b"},
		},
		Play: func(r program.Request) (program.Outcome, error) {
			return 0, fmt.Errorf("%v %v", r.Seats[0].Settings, r.Seats[1].Settings)
		},
	}
	play := func(id int, a, b string) string {
		return fmt.Sprintf(`{"type":"play","id":%d,"seed":"1","rules":{},"seats":[%s,%s]}`+"\n", id, a, b)
	}
	input := hello +
		play(1, `{"player":"a","params":{}}`, `{"player":"b","params":{}}`) +
		play(2, `{"player":"a","params":{},"settings":{"depth":"3","note":"hi"}}`, `{"player":"a","params":{},"settings":{"depth":"1"}}`) +
		play(3, `{"player":"a","params":{},"settings":{"depth":"7"}}`, `{"player":"b","params":{}}`)
	got, err := serve(t, g, input)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"type":"error","id":1,"error":"map[depth:2 note:none] map[]"}`,
		`{"type":"error","id":2,"error":"map[depth:3 note:hi] map[depth:1 note:none]"}`,
		`{"type":"error","id":3,"error":"seat 0 (a): setting depth: \"7\" is not one of [1 2 3]"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replies\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
