package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedConfigHashes pins the hash of every shipped config of a
// built-in game: a new config key must leave the hash of configs that do
// not write it as it was, or every existing run directory would refuse
// to resume ("edited in ways that change results"). After an intended
// change: go test ./engine -run TestShippedConfigHashes -update.
func TestShippedConfigHashes(t *testing.T) {
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	var b bytes.Buffer
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(text), "\ncommand:") {
			continue // an outside program: TestShippedConfigsAreValid starts it
		}
		cfg, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s\n", filepath.Base(file), cfg.Hash())
		cfg.Close()
	}
	golden := filepath.Join("testdata", "config-hashes.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("config hashes changed:\n%s\nwant:\n%s", b.Bytes(), want)
	}
}
