package external

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// docBlocks returns the fenced code blocks of docs/protocol.md in a
// language.
func docBlocks(t *testing.T, lang string) []string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllSubmatch(doc, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// The protocol document's examples are what the code accepts: its offer,
// its request and replies, and its minimal Python program.
func TestProtocolDocExamples(t *testing.T) {
	blocks := docBlocks(t, "json")
	if len(blocks) < 4 {
		t.Fatalf("%d JSON blocks in docs/protocol.md", len(blocks))
	}
	var compact bytes.Buffer
	for _, b := range blocks {
		compact.Reset()
		if err := json.Compact(&compact, []byte(b)); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, b)
		}
		line := compact.Bytes()
		switch {
		case bytes.Contains(line, []byte(`"players"`)):
			if _, err := parseOffer(line); err != nil {
				t.Errorf("the offer example is refused: %v", err)
			}
		case bytes.Contains(line, []byte(`"type":"result"`)):
			if _, _, _, err := parseReply(line, false); err != nil {
				t.Errorf("the reply example is refused: %v", err)
			}
		}
	}
	// The session of section 7.
	session := regexp.MustCompile(`(?m)^< (\{.*\})$`).FindAllStringSubmatch(strings.Join(docBlocks(t, "text"), "\n"), -1)
	if len(session) < 3 {
		t.Fatalf("session has %d program lines", len(session))
	}
	if _, err := parseOffer([]byte(session[0][1])); err != nil {
		t.Errorf("the session's offer is refused: %v", err)
	}
	for _, l := range session[1:] {
		if _, _, _, err := parseReply([]byte(l[1]), true); err != nil {
			t.Errorf("the session's reply %s is refused: %v", l[1], err)
		}
	}

	t.Run("python program", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("no python3")
		}
		py := docBlocks(t, "python")
		if len(py) != 1 {
			t.Fatalf("%d python blocks", len(py))
		}
		script := filepath.Join(t.TempDir(), "coin.py")
		os.WriteFile(script, []byte(py[0]), 0o644)
		c := Command{Argv: []string{"python3", script}, Audit: 0.5}
		d, err := Describe(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		g, err := d.Info(c).New(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer fitness.Close(g)
		fair, err := g.NewPlayer("mover", "fair", genome.Values{})
		if err != nil {
			t.Fatal(err)
		}
		var ms []Match
		for i := range 200 {
			ms = append(ms, Match{A: fair, B: fair, Seed: uint64(i)})
		}
		outs, err := g.(*Game).PlayBatch(context.Background(), ms)
		if err != nil {
			t.Fatal(err)
		}
		var tally fitness.Tally
		for _, o := range outs {
			tally.Add(o)
		}
		if s := tally.Score(); s < 0.35 || s > 0.65 {
			t.Fatalf("fair against fair scores %v", s)
		}
	})
}
