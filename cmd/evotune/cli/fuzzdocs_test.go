package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fuzzTargets are the fuzz targets each test file of the repository
// declares, by their package's directory relative to repoRoot.
func fuzzTargets(t *testing.T) map[string][]string {
	t.Helper()
	declared := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)
	out := map[string][]string{}
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != repoRoot || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(repoRoot, filepath.Dir(path))
		for _, m := range declared.FindAllStringSubmatch(string(data), -1) {
			out[dir] = append(out[dir], m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFuzzTargetsAreCIs: the fuzz targets docs/architecture.md says CI
// fuzzes are the ones .ci/run fuzzes, each in the package .ci/run names,
// which declares it; and every fuzz command of the docs names a target
// its package declares. (The list once named FuzzServe, which CI never
// ran, and left out FuzzDecode, which it did; development.md fuzzed
// sprt's file in the package it had moved out of.)
func TestFuzzTargetsAreCIs(t *testing.T) {
	declared := fuzzTargets(t)
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	var fuzzed []string
	for _, m := range regexp.MustCompile(`(?m)^fuzz \./(\S+) (Fuzz\w+) \d+$`).FindAllStringSubmatch(string(ci), -1) {
		fuzzed = append(fuzzed, m[2])
		if !slices.Contains(declared[filepath.FromSlash(m[1])], m[2]) {
			t.Errorf(".ci/run fuzzes %s in ./%s, which declares no such target", m[2], m[1])
		}
	}
	if len(fuzzed) < 5 {
		t.Fatalf(".ci/run fuzzes %d targets: the test no longer reads its fuzz lines", len(fuzzed))
	}
	arch, err := os.ReadFile(filepath.Join(repoRoot, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(arch), "CI (`.ci/run`) fuzzes each one")
	list, _, _ = strings.Cut(list, "(`TestFuzzTargetsAreCIs`")
	if !ok {
		t.Fatal("docs/architecture.md no longer says which targets CI fuzzes")
	}
	said := regexp.MustCompile("`(Fuzz\\w+)`").FindAllStringSubmatch(list, -1)
	var listed []string
	for _, m := range said {
		listed = append(listed, m[1])
	}
	slices.Sort(fuzzed)
	slices.Sort(listed)
	if !slices.Equal(fuzzed, listed) {
		t.Errorf("docs/architecture.md says CI fuzzes %v; .ci/run fuzzes %v", listed, fuzzed)
	}
	command := regexp.MustCompile(`go test (\./\S+) .*-fuzz (Fuzz\w+)`)
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range command.FindAllStringSubmatch(string(data), -1) {
			if dir := filepath.FromSlash(strings.TrimPrefix(m[1], "./")); !slices.Contains(declared[dir], m[2]) {
				t.Errorf("%s: go test %s -fuzz %s: the package declares no such target", filepath.Base(doc), m[1], m[2])
			}
		}
	}
}
