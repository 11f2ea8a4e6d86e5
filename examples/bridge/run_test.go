package main_test

import (
	"bytes"
	"github.com/evotune/evotune/rundir"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A whole evolution run through the bridge computes what the same run on
// the built-in game computes: the same generations and the same best
// parameters, byte for byte (best.yaml from its players on: the built-in
// run also records its rules, which the bridge fixes at start).
func TestRunSameAsBuiltin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds evotune and runs two evolutions")
	}
	dir := t.TempDir()
	evotune := filepath.Join(dir, "evotune")
	build := exec.Command("go", "build", "-o", evotune, "../../cmd/evotune")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building evotune: %v\n%s", err, out)
	}
	const body = `seed: 3
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [greedy, classic]
    games: 6
  hall-of-fame:
    members: 2
    games: 4
evolution:
  population: 6
  generations: 3
`
	configs := map[string]string{
		"builtin": "game: mnk\nrules: {m: 4, n: 4, k: 3, depth: 2}\n" + body,
		"bridge":  "command: [" + bridge + ", mnk, m=4, n=4, k=3, depth=2]\n" + body,
	}
	files := map[string][][]byte{}
	for name, cfg := range configs {
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte("name: "+name+"\n"+cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		run := exec.Command(evotune, "run", path, "--out", filepath.Join(dir, name), "--workers", "2")
		if out, err := run.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		for _, f := range []string{rundir.GenerationsFile, rundir.BestFile} {
			b, err := os.ReadFile(filepath.Join(dir, name, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == rundir.BestFile {
				_, b, _ = bytes.Cut(b, []byte("\nplayers:\n"))
			}
			files[name] = append(files[name], b)
		}
	}
	for i, f := range []string{rundir.GenerationsFile, rundir.BestFile} {
		if !bytes.Equal(files["builtin"][i], files["bridge"][i]) {
			t.Errorf("%s differs:\nbuilt in:\n%s\nthrough the bridge:\n%s", f, files["builtin"][i], files["bridge"][i])
		}
	}
	if !strings.Contains(string(files["bridge"][1]), "params:") || len(files["bridge"][0]) < 40 {
		t.Fatalf("best.yaml without params:\n%s", files["bridge"][1])
	}
}
